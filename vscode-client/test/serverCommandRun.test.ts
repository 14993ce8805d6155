// The server's commands through the client's middleware: a failure is one message that says
// what failed and what to do, never a rejection (which VS Code or the caller would report again).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commandFailureMessage } from '../src/commandFailure';
import { runServerCommand, showUsageCommand, withUsageTooltips, type ServerCommandHooks, type UsageDetails } from '../src/serverCommandRun';

// What vscode-jsonrpc's ResponseError looks like to the middleware: an Error with a code.
function responseError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

class RecordingHooks implements ServerCommandHooks {
  calls: string[] = [];
  choice: string | undefined;
  onJob(job: string, running: boolean) { this.calls.push(`job ${job} ${running ? 'start' : 'end'}`); }
  onBenchReport(report: string) { this.calls.push(`report ${report}`); }
  showError(message: string, ...actions: string[]) {
    this.calls.push(`error ${message} [${actions.join('|')}]`);
    return Promise.resolve(this.choice);
  }
  showLog() { this.calls.push('log'); }
  showUsage(usage: UsageDetails) { this.calls.push(`usage ${usage.kernel}: ${usage.title} / ${usage.details}`); }
}

const project = [{ project: 'file:///work/examples/kernels/row-ops' }];

test('a server command that fails shows one message naming what failed and resolves', async () => {
  const hooks = new RecordingHooks();
  const busy = 'a build of /work/examples/kernels/row-ops is already running; wait for it or cancel it (kernel-lsp.cancel)';
  const result = await runServerCommand('kernel-lsp.build', project, () => Promise.reject(responseError(-32803, busy)), hooks);
  assert.equal(result, undefined);
  assert.deepEqual(hooks.calls, [
    'job build start',
    `error kernel-lsp: the build of row-ops failed: ${busy}. [Show Log]`,
    'job build end',
  ]);
});

test('a failure whose reason may not say what to do points at the log', async () => {
  const hooks = new RecordingHooks();
  hooks.choice = 'Show Log';
  await runServerCommand('kernel-lsp.bench', project, () => Promise.reject(responseError(-32603, 'bench crashed.')), hooks);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(hooks.calls, [
    'job bench start',
    'error kernel-lsp: the benchmark of row-ops failed: bench crashed. The kernel-lsp log (Show Log) has the details. [Show Log]',
    'job bench end',
    'log',
  ]);
  assert.equal(commandFailureMessage('kernel-lsp.cancel', [], new Error('')),
    'kernel-lsp: cancelling the build, benchmark or tests failed: no reason given. The kernel-lsp log (Show Log) has the details.');
});

test('a cancelled request is no failure: nothing is shown', async () => {
  const hooks = new RecordingHooks();
  const cancelled = Object.assign(new Error('Canceled'), { name: 'Canceled' });
  await runServerCommand('kernel-lsp.build', project, () => Promise.reject(cancelled), hooks);
  assert.deepEqual(hooks.calls, ['job build start', 'job build end']);
});

test('a benchmark result opens its report; other commands pass through untouched', async () => {
  const hooks = new RecordingHooks();
  const result = await runServerCommand('kernel-lsp.bench', project, () => Promise.resolve({ report: '/p/benchmarks/reports/report.md' }), hooks);
  assert.deepEqual(result, { report: '/p/benchmarks/reports/report.md' });
  assert.deepEqual(hooks.calls, ['job bench start', 'report /p/benchmarks/reports/report.md', 'job bench end']);
  const other = new RecordingHooks();
  assert.equal(await runServerCommand('kernel-lsp.guidance', [{ topic: 'x' }], () => 42, other), 42);
  assert.deepEqual(other.calls, []);
});

test('a resource lens\'s command shows its details here, without asking the server', async () => {
  const hooks = new RecordingHooks();
  let asked = false;
  const usage = { kernel: 'rms_norm', title: '48 regs · 4 KiB smem · 100% occupancy', details: 'rms_norm, per target:\nsm_90: 48 regs' };
  await runServerCommand(showUsageCommand, [usage], () => { asked = true; }, hooks);
  assert.equal(asked, false);
  assert.deepEqual(hooks.calls, ['usage rms_norm: 48 regs · 4 KiB smem · 100% occupancy / rms_norm, per target:\nsm_90: 48 regs']);
});

test('resource lenses get their details back as tooltip; other lenses are left alone', () => {
  const lenses = [
    { command: { command: 'kernel-lsp.build', arguments: project as unknown[] } },
    { command: { command: showUsageCommand, arguments: [{ kernel: 'k', title: 't', details: 'k, per target:\nsm_80: …' }] as unknown[] } },
    {},
  ];
  const out = withUsageTooltips(lenses);
  assert.equal((out[0].command as { tooltip?: string }).tooltip, undefined);
  assert.equal((out[1].command as { tooltip?: string }).tooltip, 'k, per target:\nsm_80: …');
});
