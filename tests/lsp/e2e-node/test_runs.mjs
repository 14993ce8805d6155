// End-to-end: test runs from the editor (kernel-lsp/test, kernel-lsp.test), through the npm
// packages VS Code's own client is built on. Usage: node test_runs.mjs SERVER SOURCE_DIR
//
// On a copy of the sync fixtures (tests/fixtures/sync):
//  1. kernel-lsp/test with the synccheck output of a GPU run (fromOutput) answers the finding at
//     sync_bugs.cu:153 and publishes it as a `compute-sanitizer` diagnostic of that file;
//  2. a plain run of a failing command answers testsFailed and its exit code;
//  3. kernel-lsp.cancel ends a running test (a project folder without build.toml);
//     an unknown tool is refused with a message; a missing project folder is invalid params;
//  4. an untrusted workspace starts nothing.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import lsp from 'vscode-languageserver-protocol/node.js';

const {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter, InitializeRequest, InitializedNotification,
  DidChangeConfigurationNotification, PublishDiagnosticsNotification, ShutdownRequest, ExitNotification,
  WorkDoneProgressCreateRequest, ResponseError, ExecuteCommandRequest,
} = lsp;

const [server, source] = process.argv.slice(2);
if (!server || !source) {
  console.error('usage: node test_runs.mjs SERVER SOURCE_DIR');
  process.exit(2);
}
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kl-e2e-test-'));
fs.cpSync(path.join(source, 'tests/fixtures/sync'), path.join(root, 'sync'), { recursive: true });
const output = path.join(source, 'tests/fixtures/sanitizer/sync_bugs.10.synccheck.txt');
const project = path.join(root, 'sync');
const fileUri = pathToFileURL(path.join(project, 'sync_bugs.cu')).href;

const child = spawn(server, ['serve', '--stdio'], { env: { ...process.env, KERNEL_LSP_LOG: 'info' } });
let log = '';
child.stderr.on('data', (d) => { log += d; });
const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
const published = new Map();
connection.onNotification(PublishDiagnosticsNotification.type, (p) => published.set(p.uri, p));
connection.onRequest(WorkDoneProgressCreateRequest.type, () => null);
connection.onNotification('$/progress', () => {});
connection.onNotification('window/logMessage', () => {});
connection.listen();

async function expectError(promise, pattern, what) {
  try {
    const result = await promise;
    assert.fail(`${what}: expected an error, got ${JSON.stringify(result).slice(0, 300)}`);
  } catch (e) {
    if (!(e instanceof ResponseError)) throw e;
    assert.match(e.message, pattern, what);
  }
}

async function until(predicate, what, ms = 20000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (predicate()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

try {
  const init = await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid, rootUri: pathToFileURL(root).href, workspaceFolders: null,
    capabilities: { window: { workDoneProgress: true }, textDocument: { publishDiagnostics: {} } },
    initializationOptions: { debounceMs: 0 },
  });
  assert.ok(init.capabilities.executeCommandProvider.commands.includes('kernel-lsp.test'));
  connection.sendNotification(InitializedNotification.type, {});

  const answer = await connection.sendRequest('kernel-lsp/test', { project, sanitize: ['synccheck'], fromOutput: output });
  assert.equal(answer.findings.length, 1, JSON.stringify(answer));
  assert.equal(answer.findings[0].line, 152);
  assert.equal(answer.findings[0].rule, 'compute-sanitizer');
  assert.match(answer.findings[0].message, /^synccheck: Barrier error detected/);
  assert.equal(answer.runs[0].reports, 3);
  await until(() => (published.get(fileUri)?.diagnostics ?? []).some((d) => d.code === 'compute-sanitizer'),
              'the compute-sanitizer diagnostic of sync_bugs.cu');
  const diagnostic = published.get(fileUri).diagnostics.find((d) => d.code === 'compute-sanitizer');
  assert.equal(diagnostic.range.start.line, 152);
  assert.equal(diagnostic.severity, 1);
  console.log('ok - a GPU run\'s synccheck report is a diagnostic at sync_bugs.cu:153');

  const failing = await connection.sendRequest(ExecuteCommandRequest.type, {
    command: 'kernel-lsp.test', arguments: [{ project, command: 'exit 4' }],
  });
  assert.equal(failing.testsFailed, true);
  assert.equal(failing.runs[0].exitCode, 4);
  console.log('ok - a failing plain run answers testsFailed and its exit code');

  // kernel-lsp.cancel ends a running test and everything it started.
  const started = Date.now();
  const long = connection.sendRequest('kernel-lsp/test', { project, command: 'sleep 60' });
  await new Promise((r) => setTimeout(r, 500));
  const cancel = await connection.sendRequest(ExecuteCommandRequest.type, {
    command: 'kernel-lsp.cancel', arguments: [{ project }],
  });
  assert.equal(cancel.cancelled, 1, JSON.stringify(cancel));
  const ended = await long;
  assert.equal(ended.cancelled, true, JSON.stringify(ended));
  assert.ok(Date.now() - started < 20000, 'the cancelled run ended at once');
  console.log('ok - kernel-lsp.cancel ends a running test');

  await expectError(connection.sendRequest('kernel-lsp/test', { project, command: 'true', sanitize: ['leakcheck'] }),
                    /unknown compute-sanitizer tool `leakcheck`/, 'unknown tool');
  await expectError(connection.sendRequest('kernel-lsp/test', { project: path.join(root, 'nowhere') }),
                    /not a folder/, 'missing folder');
  console.log('ok - bad requests are refused with a reason');

  connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { workspaceTrusted: false } });
  await new Promise((r) => setTimeout(r, 300));
  await expectError(connection.sendRequest('kernel-lsp/test', { project, command: 'touch ran' }), /untrusted/,
                    'untrusted workspace');
  assert.ok(!fs.existsSync(path.join(project, 'ran')), 'nothing ran in an untrusted workspace');
  console.log('ok - an untrusted workspace runs no tests');

  await connection.sendRequest(ShutdownRequest.type);
  connection.sendNotification(ExitNotification.type);
  console.log('e2e test runs: ok');
  process.exit(0);
} catch (e) {
  console.error(`e2e test runs: FAILED: ${e.stack}\n${log.slice(-3000)}`);
  child.kill();
  process.exit(1);
}
