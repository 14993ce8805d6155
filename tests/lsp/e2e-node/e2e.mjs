// End-to-end: kernel-lsp driven by the JSON-RPC/LSP packages VS Code's own client is built on
// (vscode-jsonrpc, vscode-languageserver-protocol). Usage: node e2e.mjs SERVER FIXTURES_DIR
//
// 1. initialize like VS Code (utf-16, progress, configuration pull), open a build.toml with a
//    misspelt key and a kernel with an arch mismatch, receive both diagnostics;
// 2. fix both (the build.toml through the quick fix the server offered), see them cleared;
// 3. abuse the protocol (malformed JSON, unknown method, cancel, stale request) and check the
//    server keeps serving; 4. shutdown + exit → exit code 0.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import lsp from 'vscode-languageserver-protocol/node.js';

const {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter, CancellationTokenSource,
  InitializeRequest, InitializedNotification, DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification, DidChangeConfigurationNotification,
  PublishDiagnosticsNotification, CodeActionRequest, HoverRequest, DocumentDiagnosticRequest,
  ShutdownRequest, ExitNotification, ConfigurationRequest, WorkDoneProgressCreateRequest,
  RegistrationRequest, ResponseError, SocketMessageReader, SocketMessageWriter,
} = lsp;

const [server, fixtures] = process.argv.slice(2);
if (!server || !fixtures) {
  console.error('usage: node e2e.mjs SERVER FIXTURES_DIR');
  process.exit(2);
}
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kl-e2e-node-'));
fs.cpSync(fixtures, root, { recursive: true });
const uriOf = (p) => pathToFileURL(path.join(root, p)).href;

const child = spawn(server, ['serve', '--stdio'], { env: { ...process.env, KERNEL_LSP_LOG: 'debug' } });
let log = '';
child.stderr.on('data', (d) => { log += d; });
let expectingExit = false;
const exited = new Promise((resolve) => child.on('exit', (code, signal) => {
  if (!expectingExit) {
    console.error(`e2e: FAILED: the server died (code ${code}, signal ${signal})`);
    fail();
  }
  resolve(code ?? 128);
}));

const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
const published = new Map();  // uri → latest params
const listeners = [];
connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
  published.set(params.uri, params);
  for (const l of [...listeners]) l(params);
});
let clientSettings = {};
let configurationAsked = () => {};
connection.onRequest(ConfigurationRequest.type, () => {
  setImmediate(() => configurationAsked());
  return [clientSettings];
});
const progress = [];
connection.onRequest(WorkDoneProgressCreateRequest.type, (params) => { progress.push(params.token); return null; });
connection.onNotification('$/progress', () => {});
connection.onRequest(RegistrationRequest.type, () => null);
connection.onNotification('window/showMessage', (m) => console.log('server says:', m.message));
connection.listen();

function diagnosticsFor(uri, predicate, what, timeoutMs = 120000) {
  return new Promise((resolve, reject) => {
    const check = (params) => {
      if (params.uri !== uri || !predicate(params)) return false;
      clearTimeout(timer);
      listeners.splice(listeners.indexOf(check), 1);
      resolve(params);
      return true;
    };
    const timer = setTimeout(() => {
      listeners.splice(listeners.indexOf(check), 1);
      reject(new Error(`timed out waiting for ${what}; last for ${uri}: ${JSON.stringify(published.get(uri))}`));
    }, timeoutMs);
    listeners.push(check);
  });
}

async function expectError(promise, code, what) {
  try {
    const result = await promise;
    assert.fail(`${what}: expected error ${code}, got result ${JSON.stringify(result)}`);
  } catch (e) {
    if (!(e instanceof ResponseError)) throw e;
    assert.equal(e.code, code, `${what}: ${e.message}`);
  }
}

async function step(name, body) {
  const started = Date.now();
  await body();
  console.log(`ok - ${name} (${Date.now() - started} ms)`);
}

async function main() {
  await step('initialize', async () => {
    const result = await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToFileURL(root).href,
      workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'fixtures' }],
      capabilities: {
        general: { positionEncodings: ['utf-16'] },
        window: { workDoneProgress: true },
        workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true } },
        textDocument: {
          publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true, dataSupport: true },
          codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } },
          hover: { contentFormat: ['markdown'] },
        },
      },
      initializationOptions: { debounceMs: 0 },
    });
    assert.equal(result.capabilities.positionEncoding, 'utf-16');
    assert.equal(result.serverInfo.name, 'kernel-lsp');
    connection.sendNotification(InitializedNotification.type, {});
  });

  const tomlUri = uriOf('typo/build.toml');
  const tomlText = fs.readFileSync(path.join(root, 'typo/build.toml'), 'utf8');
  let tomlDiagnostics;
  await step('a misspelt build.toml key is reported with its fix', async () => {
    const wait = diagnosticsFor(tomlUri, (p) => p.diagnostics.some((d) => /bakend/.test(d.message)), 'build-toml');
    connection.sendNotification(DidOpenTextDocumentNotification.type,
      { textDocument: { uri: tomlUri, languageId: 'toml', version: 1, text: tomlText } });
    tomlDiagnostics = (await wait).diagnostics;
    const typo = tomlDiagnostics.find((d) => /bakend/.test(d.message));
    assert.equal(typo.code, 'build-toml');
    assert.equal(typo.source, 'kernel-lsp');
    assert.match(typo.codeDescription.href, /build-toml\.md$/);
    assert.equal(typo.data.fixes.length, 1);
  });

  const cuUri = uriOf('reduce/csrc/reduce.cu');
  const cuText = fs.readFileSync(path.join(root, 'reduce/csrc/reduce.cu'), 'utf8');
  await step('the arch mismatch in the kernel is reported, pointing at build.toml', async () => {
    const wait = diagnosticsFor(cuUri, (p) => p.diagnostics.length > 0, 'arch-mismatch');
    connection.sendNotification(DidOpenTextDocumentNotification.type,
      { textDocument: { uri: cuUri, languageId: 'cuda-cpp', version: 1, text: cuText } });
    const { diagnostics, version } = await wait;
    assert.equal(version, 1);
    const d = diagnostics.find((x) => x.code === 'arch-mismatch');
    assert.ok(d, JSON.stringify(diagnostics));
    assert.equal(d.severity, 1);
    assert.deepEqual(d.range.start, { line: 6, character: 10 });
    assert.match(d.message, /__CUDA_ARCH__ >= 800/);
    assert.equal(d.relatedInformation[0].location.uri, uriOf('reduce/build.toml'));
  });

  await step('hover explains the intrinsic', async () => {
    const hover = await connection.sendRequest(HoverRequest.type,
      { textDocument: { uri: cuUri }, position: { line: 6, character: 14 } });
    assert.match(hover.contents.value, /8\.0/);
    assert.match(hover.contents.value, /sm_75 ✗/);
  });

  await step('editing the bug away clears the kernel diagnostic', async () => {
    const wait = diagnosticsFor(cuUri, (p) => p.version === 2, 'cleared arch-mismatch');
    connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: cuUri, version: 2 },
      contentChanges: [{
        range: { start: { line: 6, character: 10 }, end: { line: 6, character: 43 } },
        text: '__shfl_down_sync(0xffffffffu, v, 16) + v',
      }],
    });
    const { diagnostics } = await wait;
    assert.deepEqual(diagnostics.filter((d) => d.code === 'arch-mismatch'), []);
  });

  await step('the build.toml quick fix clears the typo', async () => {
    const typo = tomlDiagnostics.find((d) => /bakend/.test(d.message));
    const actions = await connection.sendRequest(CodeActionRequest.type,
      { textDocument: { uri: tomlUri }, range: typo.range, context: { diagnostics: [typo] } });
    const fix = actions.find((a) => a.title.includes('backend'));
    assert.ok(fix, JSON.stringify(actions));
    const edits = fix.edit.changes[tomlUri];
    assert.equal(edits.length, 1);
    const wait = diagnosticsFor(tomlUri, (p) => p.version === 2, 'fixed build.toml');
    connection.sendNotification(DidChangeTextDocumentNotification.type,
      { textDocument: { uri: tomlUri, version: 2 }, contentChanges: [{ range: edits[0].range, text: edits[0].newText }] });
    const { diagnostics } = await wait;
    assert.deepEqual(diagnostics, []);
  });

  await step('malformed JSON gets a parse error and the server keeps serving', async () => {
    child.stdin.write('Content-Length: 10\r\n\r\n{"bad": }\n');
    const hover = await connection.sendRequest(HoverRequest.type,
      { textDocument: { uri: cuUri }, position: { line: 3, character: 42 } });
    assert.ok(hover === null || typeof hover.contents.value === 'string');
    assert.match(log, /malformed JSON/);
  });

  await step('an unknown method is MethodNotFound', async () => {
    await expectError(connection.sendRequest('kernelLsp/noSuchMethod', {}), -32601, 'unknown method');
  });

  await step('cancel answers RequestCancelled; an edit makes a waiting request ContentModified', async () => {
    // Make edits wait 10 s so the pull requests below stay open.
    clientSettings = { debounceMs: 10000 };
    const asked = new Promise((resolve) => { configurationAsked = resolve; });
    connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    await asked;
    connection.sendNotification(DidChangeTextDocumentNotification.type,
      { textDocument: { uri: tomlUri, version: 3 }, contentChanges: [{ text: tomlText }] });
    const source = new CancellationTokenSource();
    const cancelled = connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: tomlUri } }, source.token);
    setTimeout(() => source.cancel(), 100);
    await expectError(cancelled, -32800, 'cancelled pull');

    const stale = connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: tomlUri } });
    await new Promise((r) => setTimeout(r, 100));
    connection.sendNotification(DidChangeTextDocumentNotification.type,
      { textDocument: { uri: tomlUri, version: 4 }, contentChanges: [{ text: tomlText }] });
    await expectError(stale, -32801, 'stale pull');
  });

  await step('shutdown and exit end the server with code 0', async () => {
    await connection.sendRequest(ShutdownRequest.type);
    expectingExit = true;
    connection.sendNotification(ExitNotification.type);
    const code = await exited;
    assert.equal(code, 0);
  });

  await step('the same server over TCP (--listen 127.0.0.1:0)', async () => {
    const tcp = spawn(server, ['serve', '--listen', '127.0.0.1:0']);
    const port = await new Promise((resolve, reject) => {
      let err = '';
      tcp.stderr.on('data', (d) => {
        err += d;
        const m = /listening on 127\.0\.0\.1:(\d+)/.exec(err);
        if (m) resolve(Number(m[1]));
      });
      tcp.on('exit', (code) => reject(new Error(`exited ${code} before listening: ${err}`)));
    });
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.on('connect', resolve));
    const remote = createProtocolConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
    remote.listen();
    const result = await remote.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, capabilities: {} });
    assert.equal(result.serverInfo.name, 'kernel-lsp');
    await remote.sendRequest(ShutdownRequest.type);
    const code = new Promise((resolve) => tcp.on('exit', resolve));
    remote.sendNotification(ExitNotification.type);
    assert.equal(await code, 0);
    remote.dispose();
    socket.destroy();
  });

  await step('the server ends when the client process dies (--clientProcessId)', async () => {
    const editor = spawn('sleep', ['60']);
    const orphan = spawn(server, ['serve', '--stdio', `--clientProcessId=${editor.pid}`]);
    const code = new Promise((resolve) => orphan.on('exit', resolve));
    const started = Date.now();
    editor.kill('SIGKILL');
    assert.equal(await code, 1);
    assert.ok(Date.now() - started < 5000, 'took too long to notice');
    orphan.stdin.destroy();
  });
}

const watchdog = setTimeout(() => { console.error('e2e: timed out'); fail(); }, 480000);
function fail() {
  console.error('--- server log (tail) ---\n' + log.split('\n').slice(-60).join('\n'));
  child.kill('SIGKILL');
  process.exit(1);
}
main().then(() => {
  clearTimeout(watchdog);
  connection.dispose();
  fs.rmSync(root, { recursive: true, force: true });
  console.log(`e2e: passed (${progress.length} progress report(s) created)`);
  process.exit(0);
}, (e) => {
  console.error('e2e: FAILED:', e.stack || e);
  fail();
});
