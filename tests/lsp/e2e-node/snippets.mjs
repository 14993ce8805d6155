// Context-aware snippet completion through the JSON-RPC/LSP packages VS Code's own client is built
// on. Usage: node snippets.mjs SERVER
//
// A temporary kernel project (build.toml, a .cu, torch-ext/ bindings and package, tests/,
// benchmarks/) is opened in the real server, and completion is asked where each kind of snippet
// belongs and where none does: file scope of a .cu, a kernel body, a comment, a string, a launch's
// arguments, torch-ext/*.cpp and *.h, build.toml (a new one, and a [kernel.*] table), tests/*.py,
// benchmarks/*.py, the package's __init__.py, and a .py outside any project. Each answer must
// hold the snippets of that place and none of the others, replace exactly the typed word, and
// use snippet syntax; a second client that lacks snippetSupport gets the same items as plain
// text, equal to `kernel-lsp snippets export --format json`'s expansions. Python documents are
// tracked for completion only: no diagnostics are ever published for them.
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import lsp from 'vscode-languageserver-protocol/node.js';

const {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter, InitializeRequest, InitializedNotification,
  DidOpenTextDocumentNotification, DidChangeTextDocumentNotification, CompletionRequest, PublishDiagnosticsNotification, ShutdownRequest,
  ExitNotification, ConfigurationRequest, WorkDoneProgressCreateRequest, RegistrationRequest,
} = lsp;

const [server] = process.argv.slice(2);
if (!server) {
  console.error('usage: node snippets.mjs SERVER');
  process.exit(2);
}

// ---- the project ----
// Each document is opened with its text; a completion then replaces the whole text with one in
// which `§` marks the cursor (the typed word just before it), as an editor would have it.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kl-e2e-snippets-'));
const buildToml = '[general]\nname = "k"\nversion = 1\nedition = 5\nlicense = "Apache-2.0"\nbackends = ["cuda"]\n\n' +
  '[torch]\nsrc = ["torch-ext/torch_binding.cpp", "torch-ext/torch_binding.h"]\n\n' +
  '[kernel.k]\nbackend = "cuda"\ndepends = ["torch"]\nsrc = ["k_cuda/k.cu"]\ncuda-capabilities = ["8.0", "9.0"]\n';
const kernel = (body, after = '') => '#include <cstdint>\n#include <cuda_runtime.h>\n\n' +
  '__global__ void scale(float* out, const float* in, int64_t n) {\n' + body + '\n}\n' + after;
const files = {
  'proj/build.toml': buildToml,
  'proj/k_cuda/k.cu': kernel('  if (n > 0) out[0] = in[0];'),
  'proj/torch-ext/torch_binding.cpp': '#include "registration.h"\n',
  'proj/torch-ext/torch_binding.h': '#pragma once\n',
  'proj/torch-ext/k/__init__.py': '\n',
  'proj/tests/test_k.py': 'import torch\n',
  'proj/benchmarks/benchmark.py': '"""Benchmarks."""\n',
  'newproj/build.toml': '\n',
  'loose/script.py': '\n',
};
for (const [name, text] of Object.entries(files)) {
  fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
  fs.writeFileSync(path.join(root, name), text);
}
const uriOf = (name) => pathToFileURL(path.join(root, name)).href;
const languageOf = (name) =>
  name.endsWith('.py') ? 'python' : name.endsWith('.toml') ? 'toml' : name.endsWith('.cu') ? 'cuda-cpp' : 'cpp';

// The expansions the CLI exports: what a client without snippet support must receive.
const exported = JSON.parse(execFileSync(server, ['snippets', 'export', '--format', 'json'], { encoding: 'utf8' }));
const expandedOf = new Map(exported.snippets.map((s) => [s.prefix, s.expanded]));
const contextOf = new Map(exported.snippets.map((s) => [s.prefix, s.context]));

// ---- a client ----
const servers = [];
async function startClient(snippetSupport) {
  const child = spawn(server, ['serve', '--stdio'], { env: { ...process.env, KERNEL_LSP_LOG: 'info' } });
  const state = { child, log: '', expectingExit: false, published: new Set(), versions: new Map() };
  child.stderr.on('data', (d) => { state.log += d; });
  child.on('exit', (code, signal) => {
    if (!state.expectingExit) {
      console.error(`snippets: FAILED: the server died (code ${code}, signal ${signal})`);
      fail();
    }
  });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => state.published.add(p.uri));
  connection.onRequest(ConfigurationRequest.type, (p) => p.items.map(() => ({})));
  connection.onRequest(WorkDoneProgressCreateRequest.type, () => null);
  connection.onRequest(RegistrationRequest.type, () => null);
  connection.onNotification('$/progress', () => {});
  connection.onNotification('window/logMessage', () => {});
  connection.listen();
  state.connection = connection;
  servers.push(state);
  const completionItem = snippetSupport ? { snippetSupport: true } : {};
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'snippets' }],
    capabilities: {
      general: { positionEncodings: ['utf-16'] },
      textDocument: { completion: { completionItem } },
    },
    initializationOptions: { debounceMs: 0 },
  });
  connection.sendNotification(InitializedNotification.type, {});
  for (const [name, text] of Object.entries(files))
    connection.sendNotification(DidOpenTextDocumentNotification.type,
      { textDocument: { uri: uriOf(name), languageId: languageOf(name), version: 1, text } });
  return state;
}

// Completion at `§` of `marked`, after the document's text became `marked` without the `§`.
// Every item must be a snippet that replaces exactly the word before the cursor, in snippet
// syntax or, for a client without snippetSupport, as the exported plain expansion.
async function completeItems(client, name, marked, snippetSupport = true) {
  const cursor = marked.indexOf('§');
  assert.ok(cursor >= 0, marked);
  const text = marked.slice(0, cursor) + marked.slice(cursor + 1);
  client.versions.set(name, (client.versions.get(name) ?? 1) + 1);
  client.connection.sendNotification(DidChangeTextDocumentNotification.type,
    { textDocument: { uri: uriOf(name), version: client.versions.get(name) }, contentChanges: [{ text }] });
  const line = text.slice(0, cursor).split('\n').length - 1;
  const character = cursor - (text.lastIndexOf('\n', cursor - 1) + 1);
  let wordStart = character;
  const lineText = text.split('\n')[line];
  while (wordStart > 0 && /[A-Za-z0-9_-]/.test(lineText[wordStart - 1])) --wordStart;
  const result = await client.connection.sendRequest(CompletionRequest.type,
    { textDocument: { uri: uriOf(name) }, position: { line, character } });
  const items = Array.isArray(result) ? result : result.items;
  for (const item of items) {
    assert.equal(item.kind, 15, `${item.label}: kind Snippet`);
    assert.equal(item.filterText, item.label);
    assert.deepEqual(item.textEdit.range, { start: { line, character: wordStart }, end: { line, character } },
      `${item.label}: replaces the typed word`);
    if (snippetSupport) {
      assert.equal(item.insertTextFormat, 2, item.label);
    } else {
      assert.equal(item.insertTextFormat, 1, item.label);
      assert.equal(item.textEdit.newText, expandedOf.get(item.label), `${item.label}: the plain expansion`);
    }
  }
  return items;
}

async function complete(client, name, marked, snippetSupport = true) {
  return (await completeItems(client, name, marked, snippetSupport)).map((i) => i.label).sort();
}

function expectOnly(labels, expected, where) {
  assert.deepEqual(labels, [...expected].sort(), where);
}

async function step(name, body) {
  const started = Date.now();
  await body();
  console.log(`ok - ${name} (${Date.now() - started} ms)`);
}

const byContext = (...contexts) =>
  [...contextOf.entries()].filter(([, c]) => c.some((x) => contexts.includes(x))).map(([prefix]) => prefix);

async function main() {
  const vscode = await startClient(true);
  const cu = 'proj/k_cuda/k.cu';
  const kernels = byContext('cuda-file-scope');
  const helpers = byContext('cuda-device-code');
  assert.ok(kernels.length >= 12 && helpers.length >= 4, JSON.stringify({ kernels, helpers }));

  await step('file scope of a .cu: the kernel templates, nothing else', async () => {
    const labels = await complete(vscode, cu, kernel('  out[0] = in[0];', '\nkl-§\n'));
    expectOnly(labels, kernels, 'file scope');
    for (const prefix of ['kl-add-rmsnorm', 'kl-rope-half', 'kl-rope-interleaved', 'kl-gated-act', 'kl-transpose',
      'kl-launch-occupancy'])
      assert.ok(labels.includes(prefix), prefix);
    expectOnly(await complete(vscode, cu, 'kl-rope§\n' + kernel('')), ['kl-rope-half', 'kl-rope-interleaved'], 'kl-rope');
    expectOnly(await complete(vscode, cu, kernel('', 'transp§')), ['kl-transpose'], 'a part of the prefix');
  });

  await step('inside a kernel body: the device helpers, no kernel templates', async () => {
    const labels = await complete(vscode, cu, kernel('  float v = in[0];\n  kl-§'));
    expectOnly(labels, helpers, 'kernel body');
    assert.ok(labels.includes('kl-warp-sum') && labels.includes('kl-block-sum') && labels.includes('kl-pack-io'));
    expectOnly(await complete(vscode, cu, kernel('  if (n > 0) {\n    §\n  }')), helpers, 'nothing typed, in an if');
    expectOnly(await complete(vscode, cu, kernel('  __sh§')), [], 'a word no prefix matches');
  });

  await step('never in a comment, a string or a call\'s arguments', async () => {
    expectOnly(await complete(vscode, cu, kernel('  // kl-§')), [], 'comment in a body');
    expectOnly(await complete(vscode, cu, '/* kl-§ */\n' + kernel('')), [], 'comment at file scope');
    expectOnly(await complete(vscode, cu, kernel('  const char* s = "kl-§";')), [], 'string');
    expectOnly(await complete(vscode, cu, kernel('  scale<<<1, 1>>>(out,\n                  kl-§')), [], 'arguments');
    expectOnly(await complete(vscode, cu, '#include <kl-§>\n' + kernel('')), [], 'directive');
  });

  await step('torch-ext: the registration in the .cpp, the declaration in the .h', async () => {
    expectOnly(await complete(vscode, 'proj/torch-ext/torch_binding.cpp', '#include "registration.h"\n\nkl-§'),
      ['kl-torch-library'], 'cpp');
    expectOnly(await complete(vscode, 'proj/torch-ext/torch_binding.cpp',
      'TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {\n  kl-§\n}\n'), [], 'inside the registration block');
    expectOnly(await complete(vscode, 'proj/torch-ext/torch_binding.h', '#pragma once\n\nkl-§'), ['kl-torch-binding-h'], 'h');
  });

  await step('build.toml: the whole file when new, tables and kernel keys when not', async () => {
    expectOnly(await complete(vscode, 'newproj/build.toml', 'kl§\n'), ['kl-build-toml'], 'new build.toml');
    expectOnly(await complete(vscode, 'proj/build.toml', buildToml + 'kl-§\n'), ['kl-cuda-capabilities', 'kl-kernel-table'],
      'inside [kernel.k]');
    expectOnly(await complete(vscode, 'proj/build.toml', buildToml.replace('[torch]', 'kl-§\n[torch]')), ['kl-kernel-table'],
      'between tables');
    expectOnly(await complete(vscode, 'proj/build.toml', buildToml.replace('name = "k"', 'name = kl-§')), [], 'right of a key');
  });

  await step('Python of the kernel project: tests, benchmarks, the package; nothing elsewhere', async () => {
    expectOnly(await complete(vscode, 'proj/tests/test_k.py', 'import torch\n\n\nkl-§\n'), ['kl-pytest'], 'tests/');
    expectOnly(await complete(vscode, 'proj/tests/test_k.py', 'def helper():\n    kl-§\n'), [], 'indented, inside a def');
    expectOnly(await complete(vscode, 'proj/tests/test_k.py', '"""Tests.\nkl-§\n"""\n'), [], 'inside a docstring');
    expectOnly(await complete(vscode, 'proj/benchmarks/benchmark.py', '"""Benchmarks."""\n\nkl-§'), ['kl-benchmark'],
      'benchmarks/');
    expectOnly(await complete(vscode, 'proj/torch-ext/k/__init__.py', 'kl-§'), ['kl-init-py'], 'package');
    expectOnly(await complete(vscode, 'loose/script.py', 'kl-§'), [], 'outside a kernel project');
  });

  await step('snippet syntax and documentation for a client with snippetSupport', async () => {
    const items = await completeItems(vscode, cu, kernel('  float v = in[0];\n  kl-warp§'));
    const warp = items.find((i) => i.label === 'kl-warp-sum');
    assert.ok(warp, JSON.stringify(items.map((i) => i.label)));
    assert.match(warp.textEdit.newText, /\$\{1:v\}/);
    assert.equal(warp.documentation.kind, 'markdown');
    assert.match(warp.documentation.value, /__shfl_xor_sync/);
  });

  await step('a client without snippetSupport gets the same items as plain text', async () => {
    const plain = await startClient(false);
    expectOnly(await complete(plain, cu, kernel('', 'kl-§'), false), kernels, 'file scope, plain');
    expectOnly(await complete(plain, cu, kernel('  kl-§'), false), helpers, 'kernel body, plain');
    expectOnly(await complete(plain, 'proj/tests/test_k.py', 'kl-§', false), ['kl-pytest'], 'tests/, plain');
    expectOnly(await complete(plain, 'proj/build.toml', buildToml + 'kl-§', false),
      ['kl-cuda-capabilities', 'kl-kernel-table'], 'build.toml, plain');
  });

  await step('Python documents are tracked for completion only: no diagnostics', async () => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const client of servers)
      for (const uri of client.published) assert.ok(!uri.endsWith('.py'), `diagnostics published for ${uri}`);
  });

  for (const client of servers) {
    await client.connection.sendRequest(ShutdownRequest.type);
    client.expectingExit = true;
    const code = new Promise((resolve) => client.child.on('exit', resolve));
    client.connection.sendNotification(ExitNotification.type);
    assert.equal(await code, 0);
  }
}

const watchdog = setTimeout(() => { console.error('snippets: timed out'); fail(); }, 240000);
function fail() {
  for (const client of servers) {
    console.error('--- server log (tail) ---\n' + client.log.split('\n').slice(-40).join('\n'));
    client.child.kill('SIGKILL');
  }
  process.exit(1);
}
main().then(() => {
  clearTimeout(watchdog);
  for (const client of servers) client.connection.dispose();
  fs.rmSync(root, { recursive: true, force: true });
  console.log('snippets: passed');
  process.exit(0);
}, (e) => {
  console.error('snippets: FAILED:', e.stack || e);
  fail();
});
