// End-to-end, crash isolation: a document whose analysis crashes (or hangs) does not take the server,
// or any other document, down. Driven by the same npm packages VS Code's client is built on.
// Usage: node isolation.mjs SERVER
//
// The server runs with KERNEL_LSP_TEST_FAULT (a test hook of its analysis workers) so that the
// analysis of any text containing a marker segfaults, or hangs for the `hang` marker:
// 1. a good file and a crashing file are opened together; the good file's findings arrive,
//    the crashing file gets one error diagnostic naming the signal;
// 2. the crash is not re-run in a loop; an edit that keeps the marker crashes once more and
//    says so; the good file's diagnostics are never withdrawn; hover and symbols still answer;
// 3. removing the marker brings the crashing file's real findings back (a fresh worker);
// 4. a hanging file is stopped at the configured analysisTimeout and said so;
// 5. shutdown + exit → exit code 0.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import lsp from 'vscode-languageserver-protocol/node.js';

const {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter, InitializeRequest,
  InitializedNotification, DidOpenTextDocumentNotification, DidChangeTextDocumentNotification,
  PublishDiagnosticsNotification, HoverRequest, DocumentSymbolRequest, ShutdownRequest,
  ExitNotification, ConfigurationRequest, WorkDoneProgressCreateRequest, RegistrationRequest,
} = lsp;

const [server] = process.argv.slice(2);
if (!server) {
  console.error('usage: node isolation.mjs SERVER');
  process.exit(2);
}
const CRASH = 'KL-E2E-CRASH-MARKER';
const HANG = 'KL-E2E-HANG-MARKER';
// Two uncoalesced accesses on line 3 for every arch: a result that must survive a neighbour's crash.
const GOOD = `__global__ void copy(const float4 *in, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i * 2] = in[i * 2];
}
`;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kl-e2e-isolation-'));
const uriOf = (name) => pathToFileURL(path.join(root, name)).href;
for (const name of ['good.cu', 'crash.cu', 'hang.cu']) fs.writeFileSync(path.join(root, name), GOOD);

// Two faults at once through one variable: `segv:` for the crash marker; the hang marker is
// served by a second server below.
function startServer(fault) {
  const child = spawn(server, ['serve', '--stdio'], {
    env: { ...process.env, KERNEL_LSP_LOG: 'debug', KERNEL_LSP_TEST_FAULT: fault },
  });
  const state = { child, log: '', expectingExit: false, published: new Map(), counts: new Map(), listeners: [] };
  child.stderr.on('data', (d) => { state.log += d; });
  state.exited = new Promise((resolve) => child.on('exit', (code, signal) => {
    if (!state.expectingExit) {
      console.error(`isolation: FAILED: the server died (code ${code}, signal ${signal})`);
      fail(state);
    }
    resolve(code ?? 128);
  }));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    state.published.set(params.uri, params);
    state.counts.set(params.uri, (state.counts.get(params.uri) ?? 0) + 1);
    for (const l of [...state.listeners]) l(params);
  });
  connection.onRequest(ConfigurationRequest.type, () => [{}]);
  connection.onRequest(WorkDoneProgressCreateRequest.type, () => null);
  connection.onNotification('$/progress', () => {});
  connection.onRequest(RegistrationRequest.type, () => null);
  connection.listen();
  state.connection = connection;
  return state;
}

function diagnosticsFor(state, uri, predicate, what, timeoutMs = 120000) {
  return new Promise((resolve, reject) => {
    const current = state.published.get(uri);
    if (current && predicate(current)) return resolve(current);
    const check = (params) => {
      if (params.uri !== uri || !predicate(params)) return;
      clearTimeout(timer);
      state.listeners.splice(state.listeners.indexOf(check), 1);
      resolve(params);
    };
    const timer = setTimeout(() => {
      state.listeners.splice(state.listeners.indexOf(check), 1);
      reject(new Error(`timed out waiting for ${what}; last for ${uri}: ${JSON.stringify(state.published.get(uri))}`));
    }, timeoutMs);
    state.listeners.push(check);
  });
}

const failedWith = (reason) => (p) =>
  p.diagnostics.length === 1 && p.diagnostics[0].severity === 1 && p.diagnostics[0].code === 'frontend' &&
  p.diagnostics[0].message.startsWith('analysis of this file failed: ' + reason);
const hasTwoUncoalesced = (p) => p.diagnostics.filter((d) => d.code === 'uncoalesced-access').length === 2;

async function initialize(state, initializationOptions) {
  await state.connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    capabilities: { textDocument: { publishDiagnostics: { relatedInformation: true } } },
    initializationOptions,
  });
  state.connection.sendNotification(InitializedNotification.type, {});
}

function open(state, name, text, version = 1) {
  state.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: uriOf(name), languageId: 'cuda-cpp', version, text },
  });
}

async function shutdown(state) {
  await state.connection.sendRequest(ShutdownRequest.type);
  state.expectingExit = true;
  state.connection.sendNotification(ExitNotification.type);
  const code = await state.exited;
  assert.equal(code, 0, 'exit code after shutdown + exit');
}

async function step(name, body) {
  const started = Date.now();
  await body();
  console.log(`ok - ${name} (${Date.now() - started} ms)`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let active = null;
function fail(state = active) {
  if (state) {
    console.error('--- server log (tail) ---\n' + state.log.split('\n').slice(-60).join('\n'));
    state.child.kill('SIGKILL');
  }
  process.exit(1);
}

async function main() {
  const s = startServer(`segv:${CRASH}`);
  active = s;
  await step('initialize', () => initialize(s, { debounceMs: 0 }));

  await step('a good file and a crashing file opened together: each gets its own result', async () => {
    open(s, 'good.cu', GOOD);
    open(s, 'crash.cu', GOOD + `// ${CRASH}\n`);
    const good = await diagnosticsFor(s, uriOf('good.cu'), hasTwoUncoalesced, 'the good file\'s findings');
    assert.equal(good.diagnostics[0].range.start.line, 2);
    const crash = await diagnosticsFor(s, uriOf('crash.cu'), failedWith('SIGSEGV'), 'the crash diagnostic');
    assert.match(crash.diagnostics[0].message, /please report it/);
  });

  await step('the crash is not re-run in a loop, and the good file keeps its diagnostics', async () => {
    const before = s.counts.get(uriOf('crash.cu'));
    await sleep(1500);
    assert.equal(s.counts.get(uriOf('crash.cu')), before, 'crash.cu re-published without an edit');
    assert.ok(hasTwoUncoalesced(s.published.get(uriOf('good.cu'))), 'good.cu lost its diagnostics');
  });

  await step('an edit that keeps the fault fails again, and says so', async () => {
    const before = s.counts.get(uriOf('crash.cu'));
    s.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: uriOf('crash.cu'), version: 2 },
      contentChanges: [{ text: GOOD + `// ${CRASH} again\n` }],
    });
    await diagnosticsFor(s, uriOf('crash.cu'), (p) => s.counts.get(uriOf('crash.cu')) > before && failedWith('SIGSEGV')(p),
      'the second crash diagnostic');
  });

  await step('requests on the good file are still answered', async () => {
    const hover = await s.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: uriOf('good.cu') }, position: { line: 0, character: 17 },
    });
    assert.ok(hover && JSON.stringify(hover.contents).includes('copy'), `hover: ${JSON.stringify(hover)}`);
    const symbols = await s.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: uriOf('good.cu') } });
    assert.ok(symbols.some((x) => x.name.includes('copy')), `symbols: ${JSON.stringify(symbols)}`);
    // An edit of the good file is analysed by a live worker.
    s.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: uriOf('good.cu'), version: 2 },
      contentChanges: [{ text: GOOD.replace('i * 2', 'i') }],
    });
    await diagnosticsFor(s, uriOf('good.cu'), (p) => p.diagnostics.filter((d) => d.code === 'uncoalesced-access').length === 1,
      'the edited good file\'s findings');
  });

  await step('without the fault the file\'s real findings come back', async () => {
    s.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: uriOf('crash.cu'), version: 3 },
      contentChanges: [{ text: GOOD }],
    });
    await diagnosticsFor(s, uriOf('crash.cu'), hasTwoUncoalesced, 'crash.cu\'s real findings');
  });

  await step('shutdown and exit end the server with code 0', () => shutdown(s));

  const h = startServer(`hang:${HANG}`);
  active = h;
  await step('a hanging analysis is stopped at analysisTimeout', async () => {
    await initialize(h, { debounceMs: 0, analysisTimeout: 2 });
    open(h, 'hang.cu', GOOD + `// ${HANG}\n`);
    open(h, 'good.cu', GOOD);
    await diagnosticsFor(h, uriOf('good.cu'), hasTwoUncoalesced, 'the good file beside a hang');
    await diagnosticsFor(h, uriOf('hang.cu'), failedWith('it ran past the 2 s limit'), 'the time-out diagnostic', 30000);
  });
  await step('the second server exits with code 0', () => shutdown(h));
}

const watchdog = setTimeout(() => { console.error('isolation: timed out'); fail(); }, 300000);
main().then(() => {
  clearTimeout(watchdog);
  fs.rmSync(root, { recursive: true, force: true });
  console.log('isolation: all steps passed');
  process.exit(0);
}).catch((e) => {
  console.error('isolation: FAILED:', e);
  fail();
});
