// The commands against a recorded host: what they ask the server and the user, in which order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ActiveFile, CliResult, CommandHost, PickItem } from '../src/commandHost';
import { buildOrBench, cancelJobs, installSkill, isBenchReport, openBenchReport, reportOfBenchResult, runTests, showGuidance } from '../src/commands';
import { runServerCommand } from '../src/serverCommandRun';

class RecordingHost implements CommandHost {
  calls: string[] = [];
  file: ActiveFile | undefined;
  files = new Set<string>();
  running = true;
  answers = new Map<string, unknown>();  // "method json" → answer
  cliResults: CliResult[] = [];
  pickIndex = 0;
  text: string | undefined;
  choice: string | undefined;
  reports: string[] = [];

  activeFile() { return this.file; }
  workspaceFolder() { return '/ws'; }
  fileExists(p: string) { return this.files.has(p); }
  ensureServer() { return Promise.resolve(this.running); }
  executeServerCommand(command: string, args: unknown[]) {
    this.calls.push(`command ${command} ${JSON.stringify(args)}`);
    return Promise.resolve(this.answers.get(command));
  }
  request(method: string, params: unknown) {
    const key = `${method} ${JSON.stringify(params)}`;
    this.calls.push(`request ${key}`);
    return Promise.resolve(this.answers.get(key) ?? null);
  }
  binary() { return '/bin/kernel-lsp'; }
  runCli(args: string[], cwd: string | undefined) {
    this.calls.push(`cli ${args.join(' ')} in ${cwd ?? '-'}`);
    return Promise.resolve(this.cliResults.shift() ?? { code: 0, stdout: '', stderr: '' });
  }
  private say(kind: string, message: string, actions: string[]) {
    this.calls.push(`${kind} ${message}${actions.length ? ` [${actions.join('|')}]` : ''}`);
    return Promise.resolve(this.choice);
  }
  showInfo(m: string, ...a: string[]) { return this.say('info', m, a); }
  showWarning(m: string, ...a: string[]) { return this.say('warning', m, a); }
  showError(m: string, ...a: string[]) { return this.say('error', m, a); }
  pick<T extends PickItem>(items: T[], placeholder: string) {
    this.calls.push(`pick ${placeholder} (${items.map((i) => i.label).join(', ')})`);
    return Promise.resolve(items[this.pickIndex]);
  }
  askText(prompt: string) { this.calls.push(`ask ${prompt}`); return Promise.resolve(this.text); }
  showMarkdown(title: string, markdown: string) { this.calls.push(`markdown ${title}: ${markdown.split('\n')[0]}`); return Promise.resolve(); }
  openReport(p: string) { this.calls.push(`report ${p}`); return Promise.resolve(); }
  findReports() { return Promise.resolve(this.reports); }
  showLog() { this.calls.push('log'); }
  openFile(p: string, line: number) { this.calls.push(`open ${p}:${line}`); return Promise.resolve(); }
}

const kernelFile: ActiveFile = { uri: 'file:///p/csrc/k.cu', path: '/p/csrc/k.cu', position: { line: 4, character: 2 }, diagnosticsAtCursor: [] };

test('Build runs kernel-lsp.build for the project of the active file and reports a failure', async () => {
  const host = new RecordingHost();
  host.file = kernelFile;
  host.files.add('/p/build.toml');
  host.answers.set('kernel-lsp.build', { ok: false, cancelled: false });
  await buildOrBench(host, 'build');
  assert.deepEqual(host.calls, [
    'command kernel-lsp.build [{"project":"file:///p"}]',
    'warning kernel-lsp: the build of p failed; its errors are in the Problems view.',
  ]);
});

test('a build that build.toml stopped says why and where, and opens it', async () => {
  const host = new RecordingHost();
  host.file = kernelFile;
  host.files.add('/p/build.toml');
  host.choice = 'Open build.toml';
  host.answers.set('kernel-lsp.build', {
    ok: false, cancelled: false, units: [],
    problems: [{ file: '/p/build.toml', line: 15, severity: 'error', message: 'unknown key `cuda-flag`; did you mean `cuda-flags`?' }],
  });
  await buildOrBench(host, 'build');
  assert.deepEqual(host.calls, [
    'command kernel-lsp.build [{"project":"file:///p"}]',
    'warning kernel-lsp: the build of p did not start: build.toml:16: unknown key `cuda-flag`; did you mean `cuda-flags`? [Open build.toml]',
    'open /p/build.toml:15',
  ]);
});

// The server command through the client's middleware, as in VS Code (src/serverClient.ts), with
// a server that refuses it.
class RefusingServerHost extends RecordingHost {
  override executeServerCommand(command: string, args: unknown[]) {
    this.calls.push(`command ${command} ${JSON.stringify(args)}`);
    const refusal = Object.assign(new Error('kernel-lsp starts no builds or benchmarks in an untrusted workspace. Trust the workspace to run them.'), { code: -32803 });
    return Promise.resolve(runServerCommand(command, args, () => Promise.reject(refusal), {
      onJob: () => undefined,
      onBenchReport: () => undefined,
      showError: (m, ...a) => this.showError(m, ...a),
      showLog: () => this.showLog(),
      showUsage: () => undefined,
    }));
  }
}

test('a build the server refuses is one message that says what failed and what to do', async () => {
  for (const kind of ['build', 'bench'] as const) {
    const host = new RefusingServerHost();
    host.file = kernelFile;
    host.files.add('/p/build.toml');
    await buildOrBench(host, kind);
    const messages = host.calls.filter((c) => /^(error|warning|info) /.test(c));
    assert.deepEqual(messages, [
      `error kernel-lsp: the ${kind === 'build' ? 'build' : 'benchmark'} of p failed: kernel-lsp starts no builds or benchmarks in an untrusted workspace. Trust the workspace to run them. [Show Log]`,
    ]);
  }
});

test('a server command that fails before reaching the server is reported once by the command', async () => {
  const host = new RecordingHost();
  host.file = kernelFile;
  host.files.add('/p/build.toml');
  host.executeServerCommand = () => Promise.reject(new Error("command 'kernel-lsp.build' not found"));
  await buildOrBench(host, 'build');
  assert.deepEqual(host.calls, [
    "error kernel-lsp: the build of p failed: command 'kernel-lsp.build' not found. The kernel-lsp log (Show Log) has the details. [Show Log]",
  ]);
});

test('Build without a build.toml above the file says so and runs nothing', async () => {
  const host = new RecordingHost();
  host.file = kernelFile;
  await buildOrBench(host, 'bench');
  assert.equal(host.calls.length, 1);
  assert.match(host.calls[0], /^warning kernel-lsp: no build\.toml above the active file.*benchmark/);
});

test('a server that is not running is reported, with the log on offer', async () => {
  const host = new RecordingHost();
  host.running = false;
  host.choice = 'Show Log';
  await cancelJobs(host);
  assert.deepEqual(host.calls, ['warning kernel-lsp is not running. [Show Log]', 'log']);
});

test('Cancel cancels every job of the server', async () => {
  const host = new RecordingHost();
  await cancelJobs(host);
  assert.deepEqual(host.calls, ['command kernel-lsp.cancel []']);
});

test('Show Guidance tries the rule of the diagnostic, then the cursor, then asks for a topic', async () => {
  const host = new RecordingHost();
  host.file = { ...kernelFile, diagnosticsAtCursor: [{ source: 'kernel-lsp', code: 'arch-mismatch' }] };
  host.text = 'cp.async';
  host.answers.set('kernel-lsp/guidance {"topic":"cp.async"}', {
    title: 'cp.async', markdown: '## cp.async\ntext', file: '/s/references/constructs.md', uri: 'file:///s/references/constructs.md', line: 3, skill: 'cuda-kernels',
  });
  await showGuidance(host);
  assert.deepEqual(host.calls, [
    'request kernel-lsp/guidance {"ruleId":"arch-mismatch"}',
    'request kernel-lsp/guidance {"uri":"file:///p/csrc/k.cu","position":{"line":4,"character":2}}',
    'ask Guidance on which rule, construct or topic? (e.g. cp.async, arch-mismatch, launch bounds)',
    'request kernel-lsp/guidance {"topic":"cp.async"}',
    'markdown cp.async: ## cp.async',
  ]);
});

test('Show Guidance stops at the first answer', async () => {
  const host = new RecordingHost();
  host.file = { ...kernelFile, diagnosticsAtCursor: [{ source: 'kernel-lsp', code: 'smem-limit' }] };
  host.answers.set('kernel-lsp/guidance {"ruleId":"smem-limit"}', { title: 'smem-limit', markdown: '# smem', file: '/s/rules/smem-limit.md' });
  await showGuidance(host);
  assert.deepEqual(host.calls, ['request kernel-lsp/guidance {"ruleId":"smem-limit"}', 'markdown smem-limit: # smem']);
});

test('the skill install runs the CLI in the workspace and asks before replacing a changed copy', async () => {
  const host = new RecordingHost();
  host.pickIndex = 0;  // Claude Code: this project
  host.choice = 'Replace';
  host.cliResults = [
    { code: 1, stdout: '', stderr: 'kernel-lsp: .claude/skills/cuda-kernels exists and differs; use --force to replace it\n' },
    { code: 0, stdout: 'replaced .claude/skills/cuda-kernels with cuda-kernels (12 files)\n', stderr: '' },
  ];
  await installSkill(host);
  assert.equal(host.calls[0].startsWith('pick Install the cuda-kernels skill for which agent? (Claude Code: this project, Claude Code: all my projects'), true);
  assert.deepEqual(host.calls.slice(1), [
    'cli skills install --claude in /ws',
    'warning kernel-lsp: .claude/skills/cuda-kernels exists and differs; use --force to replace it [Replace]',
    'cli skills install --claude --force in /ws',
    'info kernel-lsp: replaced .claude/skills/cuda-kernels with cuda-kernels (12 files).',
  ]);
});

test('a user-wide install runs outside the workspace with --global', async () => {
  const host = new RecordingHost();
  host.pickIndex = 1;
  await installSkill(host);
  assert.equal(host.calls[1], 'cli skills install --claude --global in -');
});

test('Open Benchmark Report opens the active project\'s report, else one of the workspace\'s', async () => {
  const host = new RecordingHost();
  host.file = kernelFile;
  host.files.add('/p/build.toml');
  host.files.add('/p/benchmarks/reports/report.md');
  await openBenchReport(host);
  assert.deepEqual(host.calls, ['report /p/benchmarks/reports/report.md']);
  const other = new RecordingHost();
  other.reports = ['/a/benchmarks/reports/report.md', '/b/benchmarks/reports/report.md'];
  other.pickIndex = 1;
  await openBenchReport(other);
  assert.deepEqual(other.calls.slice(-1), ['report /b/benchmarks/reports/report.md']);
  const none = new RecordingHost();
  await openBenchReport(none);
  assert.match(none.calls[0], /^info kernel-lsp: no benchmark report/);
});

test('benchmark results and shown documents are recognised as reports', () => {
  assert.equal(reportOfBenchResult({ report: '/p/benchmarks/reports/report.md' }), '/p/benchmarks/reports/report.md');
  assert.equal(reportOfBenchResult({ reportUri: 'file:///p/benchmarks/reports/report%20x.md' }), '/p/benchmarks/reports/report x.md');
  assert.equal(reportOfBenchResult({ exitCode: 1 }), undefined);
  assert.equal(isBenchReport('/p/benchmarks/reports/report.md'), true);
  assert.equal(isBenchReport('/p/README.md'), false);
});

test('Run Tests asks for a tool, runs kernel-lsp.test on the project and sums up the sanitizer reports', async () => {
  const host = new RecordingHost();
  host.file = kernelFile;
  host.files.add('/p/build.toml');
  host.answers.set('kernel-lsp.test', {
    testsFailed: false, cancelled: false,
    runs: [{ tool: 'memcheck', timedOut: false, reports: 2, tests: { passed: 12, failed: 0, skipped: 1, errors: 0 } }],
    findings: [{ line: 14 }, { line: 20 }],
  });
  await runTests(host);
  assert.equal(host.calls[0], 'pick Run the tests of p under which tool? (memcheck, memcheck, racecheck, synccheck, racecheck, synccheck, initcheck, no sanitizer)');
  assert.deepEqual(host.calls.slice(1), [
    'command kernel-lsp.test [{"project":"file:///p","sanitize":["memcheck"]}]',
    'warning kernel-lsp: the tests of p under memcheck: 12 passed, 1 skipped; 2 reports are in the Problems view, at their source lines. [Show Log]',
  ]);
});

test('Run Tests reports a clean run, a failed one, a timeout and a cancellation in words', async () => {
  const clean = new RecordingHost();
  clean.pickIndex = 1;
  clean.answers.set('kernel-lsp.test', { testsFailed: false, runs: [
    { tool: 'memcheck', tests: { passed: 3 } }, { tool: 'racecheck', tests: { passed: 3 } }, { tool: 'synccheck', tests: null }], findings: [] });
  await runTests(clean);  // no active file: the workspace folder
  assert.deepEqual(clean.calls.slice(1), [
    'command kernel-lsp.test [{"project":"file:///ws","sanitize":["memcheck","racecheck","synccheck"]}]',
    'info kernel-lsp: the tests of ws under memcheck, racecheck, synccheck: 3 passed; no report.',
  ]);

  const failing = new RecordingHost();
  failing.pickIndex = 5;
  failing.answers.set('kernel-lsp.test', { testsFailed: true, runs: [{ tool: '', timedOut: true, tests: null }], findings: [] });
  await runTests(failing);
  assert.equal(failing.calls.at(-1), 'warning kernel-lsp: the tests of ws: failed; the tests ran out of time. [Show Log]');

  const oneShape = new RecordingHost();
  oneShape.pickIndex = 5;
  oneShape.answers.set('kernel-lsp.test', { testsFailed: false, runs: [{ tool: '', tests: { passed: 2 } }], findings: [],
    shapeNotes: ['every call of `ns::scale` in the tests (2 shapes) has a last dimension that is a multiple of 256 (256, 1024)'] });
  await runTests(oneShape);
  assert.equal(oneShape.calls.at(-1), 'warning kernel-lsp: the tests of ws: 2 passed; every call of `ns::scale` in the tests ' +
    '(2 shapes) has a last dimension that is a multiple of 256 (256, 1024). [Show Log]');

  const cancelled = new RecordingHost();
  cancelled.answers.set('kernel-lsp.test', { cancelled: true, runs: [], findings: [] });
  await runTests(cancelled);
  assert.equal(cancelled.calls.at(-1), 'info kernel-lsp: the tests of ws under memcheck were cancelled.');
});

test('Run Tests does nothing more when the user picks no tool or the middleware reported a failure', async () => {
  const none = new RecordingHost();
  none.pickIndex = 99;  // dismissed
  await runTests(none);
  assert.equal(none.calls.length, 1);
  const failed = new RecordingHost();  // the middleware showed the error and resolved to nothing
  await runTests(failed);
  assert.deepEqual(failed.calls.slice(1), ['command kernel-lsp.test [{"project":"file:///ws","sanitize":["memcheck"]}]']);
});
