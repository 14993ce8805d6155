// The extension's client options against the real kernel-lsp binary, through the JSON-RPC and LSP
// packages that vscode-languageclient is built on: the server is found and started exactly as the
// extension does it (src/serverPath.ts, src/serverLaunch.ts), gets the extension's
// initializationOptions and configuration answers, and is asked what the extension asks: the
// diagnostics of a .cu with a known finding, kernel-lsp/guidance for it, kernel-lsp/fileStatus for
// the status bar, and kernel-lsp.cancel. The lint task's command line and problem matcher run
// against the same binary.
//
// The binary: $KERNEL_LSP_TEST_SERVER, else ../build/cli/kernel-lsp. Skipped when there is none,
// unless KERNEL_LSP_TEST_SERVER names one (CTest does): then a missing binary fails.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import * as lsp from 'vscode-languageserver-protocol/node';
import { fileStatusMethod, parseFileStatus } from '../src/fileStatus';
import { guidanceMethod, guidancePage, guidanceQueries, parseGuidance } from '../src/guidance';
import { lintLinePattern, lintTaskArgs } from '../src/lintTask';
import { LogTail } from '../src/logTail';
import { crashMessage } from '../src/crashPolicy';
import { configurationSection, documentSelector, initializationOptions, serverLaunch } from '../src/serverLaunch';
import { resolveServerPath } from '../src/serverPath';
import { readSettings } from '../src/settings';
import { statusView } from '../src/statusBar';

const repository = path.resolve(__dirname, '..', '..');
const given = process.env.KERNEL_LSP_TEST_SERVER;
const candidate = given || path.join(repository, 'build', 'cli', 'kernel-lsp');
const example = path.join(repository, 'examples', 'kernels', 'row-ops');
const available = fs.existsSync(candidate) && fs.existsSync(example);
if (given && !available) throw new Error(`KERNEL_LSP_TEST_SERVER=${given}: no such binary (or no ${example})`);
const skip = !available && `no kernel-lsp binary at ${candidate}; build it or set KERNEL_LSP_TEST_SERVER`;

const isExecutable = (file: string) => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

// The user's settings as the extension reads them: here, kernelLsp.path only.
const settings = readSettings((key) => (key === 'path' ? candidate : undefined));
let project = '';
let connection: lsp.ProtocolConnection;
let server: ReturnType<typeof spawn>;
const log = new LogTail(40);
const diagnostics = new Map<string, lsp.Diagnostic[]>();
const diagnosticWaiters: (() => void)[] = [];
const configurationAnswers: unknown[] = [];

function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 180_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const value = probe();
      if (value === undefined) return false;
      clearTimeout(timer);
      resolve(value);
      return true;
    };
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; server log:\n${log.last().join('\n')}`)), timeoutMs);
    if (!check()) diagnosticWaiters.push(() => void check());
  });
}

before(async () => {
  if (skip) return;
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'kl-vscode-'));
  fs.cpSync(example, project, { recursive: true });
  const resolved = resolveServerPath({ setting: settings.path, env: process.env, workspaceFolder: project, isExecutable });
  assert.ok(resolved.found, 'the extension finds the binary through kernelLsp.path');
  const launch = serverLaunch(resolved.path, settings);
  server = spawn(launch.command, launch.args, { env: { ...process.env, ...launch.env }, cwd: project, stdio: 'pipe' });
  server.stderr?.on('data', (d: Buffer) => log.append(d.toString()));
  connection = lsp.createProtocolConnection(new lsp.StreamMessageReader(server.stdout!), new lsp.StreamMessageWriter(server.stdin!));
  connection.onRequest(lsp.ConfigurationRequest.type, (params) => params.items.map((item) => {
    const answer = item.section === 'kernelLsp' ? configurationSection(settings, true) : null;
    configurationAnswers.push(answer);
    return answer;
  }));
  connection.onRequest(lsp.RegistrationRequest.type, () => null);
  connection.onRequest(lsp.WorkDoneProgressCreateRequest.type, () => null);
  connection.onRequest(lsp.CodeLensRefreshRequest.type, () => null);
  connection.onNotification(lsp.PublishDiagnosticsNotification.type, (params) => {
    diagnostics.set(params.uri, params.diagnostics);
    for (const w of [...diagnosticWaiters]) w();
  });
  connection.onNotification('$/progress', () => undefined);
  connection.onNotification(lsp.LogMessageNotification.type, () => undefined);
  connection.listen();
  const init = await connection.sendRequest(lsp.InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToFileURL(project).href,
    workspaceFolders: [{ uri: pathToFileURL(project).href, name: 'row-ops' }],
    // What VS Code's client declares, as far as kernel-lsp reads it.
    capabilities: {
      general: { positionEncodings: ['utf-16'] },
      window: { workDoneProgress: true, showDocument: { support: true } },
      workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true },
        didChangeWatchedFiles: { dynamicRegistration: true }, codeLens: { refreshSupport: true },
        executeCommand: { dynamicRegistration: true } },
      textDocument: {
        synchronization: { didSave: true, dynamicRegistration: true },
        publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true, dataSupport: true, versionSupport: false },
        completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] } },
        hover: { contentFormat: ['markdown', 'plaintext'] },
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } },
        codeLens: {},
      },
    },
    initializationOptions: initializationOptions(settings, true),
  });
  assert.equal(init.serverInfo?.name, 'kernel-lsp');
  const commands = init.capabilities.executeCommandProvider?.commands ?? [];
  for (const c of ['kernel-lsp.build', 'kernel-lsp.bench', 'kernel-lsp.cancel']) assert.ok(commands.includes(c), c);
  await connection.sendNotification(lsp.InitializedNotification.type, {});
});

after(async () => {
  if (skip || !connection) return;
  await connection.sendRequest(lsp.ShutdownRequest.type).catch(() => undefined);
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  await connection.sendNotification(lsp.ExitNotification.type);
  assert.equal(await exited, 0, 'shutdown then exit: exit code 0');
  connection.dispose();
  fs.rmSync(project, { recursive: true, force: true });
});

test('a .cu with an arch mismatch gets its diagnostic, and its guidance through kernel-lsp/guidance', { skip }, async () => {
  const file = path.join(project, 'row_ops_cuda', 'row_sum.cu');
  const uri = pathToFileURL(file).href;
  assert.ok(documentSelector.some((f) => f.language === 'cuda-cpp'), 'the extension sends cuda-cpp documents');
  await connection.sendNotification(lsp.DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: 'cuda-cpp', version: 1, text: fs.readFileSync(file, 'utf8') },
  });
  const finding = await waitFor('the arch-mismatch diagnostic of row_sum.cu', () =>
    diagnostics.get(uri)?.find((d) => d.code === 'arch-mismatch' && d.source === 'kernel-lsp'));
  assert.equal(finding.severity, lsp.DiagnosticSeverity.Error);
  assert.match(finding.message, /__reduce_add_sync/);

  // Show Guidance with the cursor on the finding: the rule's section first.
  const queries = guidanceQueries(uri, finding.range.start, [{ source: finding.source, code: finding.code }]);
  assert.deepEqual(queries[0], { ruleId: 'arch-mismatch' });
  const byRule = parseGuidance(await connection.sendRequest(guidanceMethod, queries[0]));
  assert.ok(byRule, 'the server has guidance for arch-mismatch');
  assert.ok(fs.existsSync(byRule.file), byRule.file);
  assert.ok(byRule.markdown.length > 100);
  assert.match(guidancePage(byRule), /\n---\n\*cuda-kernels: \[/);

  // ... and the construct under the cursor, with no diagnostic there.
  const byPosition = parseGuidance(await connection.sendRequest(guidanceMethod, queries[queries.length - 1]));
  assert.ok(byPosition, 'the server finds the construct at the finding (__reduce_add_sync)');
  assert.notEqual(byPosition.title, '');
});

test('kernel-lsp/fileStatus gives the status bar the file\'s capabilities and project', { skip }, async () => {
  const file = path.join(project, 'row_ops_cuda', 'row_sum.cu');
  const status = parseFileStatus(await connection.sendRequest(fileStatusMethod, { textDocument: { uri: pathToFileURL(file).href } }));
  assert.ok(status, 'a fileStatus answer');
  assert.equal(status.project, pathToFileURL(project).href);
  assert.equal(status.buildToml, pathToFileURL(path.join(project, 'build.toml')).href);
  assert.ok(status.capabilities?.includes('8.0') && status.capabilities.includes('9.0'), JSON.stringify(status));
  assert.match(status.capabilitiesFrom ?? '', /build\.toml/);
  assert.equal(status.lastBuild, undefined, 'no build yet');
  assert.match(statusView({ state: 'ready', file: status }).text, /sm_80 .*sm_90/);
  // A build.toml (not a kernel source) is answered at once, without capabilities.
  const toml = parseFileStatus(await connection.sendRequest(fileStatusMethod, { textDocument: { uri: pathToFileURL(path.join(project, 'build.toml')).href } }));
  assert.equal(toml?.capabilities, undefined);
  assert.equal(toml?.project, pathToFileURL(project).href);
});

test('the server pulls the extension\'s own configuration section, and Cancel with nothing running succeeds', { skip }, async () => {
  await waitFor('a workspace/configuration request', () => (configurationAnswers.length > 0 ? true : undefined), 30_000);
  assert.deepEqual(configurationAnswers[0], configurationSection(settings, true));
  await connection.sendRequest(lsp.ExecuteCommandRequest.type, { command: 'kernel-lsp.cancel', arguments: [] });
});

test('the lint task\'s command line and problem matcher find the same finding', { skip }, () => {
  const run = spawnSync(candidate, lintTaskArgs({ type: 'kernel-lsp' }), { cwd: project, encoding: 'utf8', timeout: 300_000 });
  assert.equal(run.status, 1, `findings → exit code 1; stderr: ${run.stderr}`);
  const pattern = new RegExp(lintLinePattern);
  const problems = run.stdout.split('\n').map((l) => pattern.exec(l)).filter((m): m is RegExpExecArray => m !== null);
  const mismatch = problems.find((m) => m[6] === 'arch-mismatch');
  assert.ok(mismatch, run.stdout);
  assert.equal(mismatch[1], path.join('row_ops_cuda', 'row_sum.cu'));
  assert.equal(mismatch[4], 'error');
  assert.ok(!run.stdout.includes('\u001b['), 'no colour codes in a task');
});

test('a server that is killed is described with its signal and its last log lines', { skip }, async () => {
  const launch = serverLaunch(candidate, { ...settings, logLevel: 'debug' });
  const child = spawn(launch.command, launch.args, { env: { ...process.env, ...launch.env }, stdio: 'pipe' });
  const tail = new LogTail();
  child.stderr.on('data', (d: Buffer) => tail.append(d.toString()));
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const c = lsp.createProtocolConnection(new lsp.StreamMessageReader(child.stdout), new lsp.StreamMessageWriter(child.stdin));
  c.listen();
  await c.sendRequest(lsp.InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} });
  child.kill('SIGSEGV');
  const message = crashMessage(await exit, tail.last());
  c.dispose();
  assert.match(message, /^kernel-lsp was killed by SIGSEGV\. Last log lines: /);
});
