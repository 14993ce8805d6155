// The extension's commands, written against CommandHost (src/commandHost.ts) so that the tests
// can drive them without VS Code. Build, Benchmark, Run Tests and Cancel go through the server
// (kernel-lsp.build/.bench/.test/.cancel over workspace/executeCommand: progress, compile errors
// and sanitizer reports as diagnostics, resource usage as lenses); Show Guidance through its kernel-lsp/guidance request;
// the skill install through the CLI (`kernel-lsp skills install`), which owns the copy.
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CommandHost } from './commandHost';
import { commandFailureMessage, isCancellation, serverCommands } from './commandFailure';
import { guidanceMethod, guidancePage, guidanceQueries, parseGuidance, type GuidanceParams } from './guidance';
import { findProjectDir } from './project';
import { needsForce, skillInstallArgs, skillTargets } from './skillInstall';
import { testChoices, testMessage } from './testRun';

export { serverCommands };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function needsServer(host: CommandHost): Promise<boolean> {
  if (await host.ensureServer()) return true;
  const choice = await host.showWarning('kernel-lsp is not running.', 'Show Log');
  if (choice === 'Show Log') host.showLog();
  return false;
}

// The project of the active file (the folder of the nearest build.toml above it).
function activeProject(host: CommandHost): string | undefined {
  const file = host.activeFile();
  return file ? findProjectDir(file.path, (p) => host.fileExists(p)) : undefined;
}

export interface BuildProblem {
  file?: string;
  line?: number;  // 0-based
  severity?: string;
  message?: string;
}

export interface BuildOutcome {
  ok?: boolean;
  cancelled?: boolean;
  units?: unknown[];
  problems?: BuildProblem[];  // build.toml's: an error there stops the build before any compile
}

// A build that build.toml stopped: its first error, where it is, with a way to it. The compile
// errors of a build that ran are diagnostics; these are not, so the message must carry them.
async function reportBuildTomlProblem(host: CommandHost, project: string, problem: BuildProblem): Promise<void> {
  const where = problem.file ? `${path.basename(problem.file)}:${(problem.line ?? 0) + 1}: ` : '';
  const choice = await host.showWarning(
    `kernel-lsp: the build of ${path.basename(project)} did not start: ${where}${problem.message ?? 'build.toml has an error'}`,
    ...(problem.file ? ['Open build.toml'] : []));
  if (choice === 'Open build.toml' && problem.file) await host.openFile(problem.file, problem.line ?? 0);
}

export async function buildOrBench(host: CommandHost, kind: 'build' | 'bench'): Promise<void> {
  if (!(await needsServer(host))) return;
  const project = activeProject(host);
  if (!project) {
    await host.showWarning(`kernel-lsp: no build.toml above the active file, so there is no kernel project to ${kind === 'build' ? 'build' : 'benchmark'}.`);
    return;
  }
  const args = [{ project: pathToFileURL(project).href }];
  try {
    // A failure of the server's command is reported by the client's middleware
    // (src/serverCommandRun.ts), which then resolves to nothing; what rejects here failed before
    // the request was sent (the command is not registered yet, the client stopped).
    const result = await host.executeServerCommand(serverCommands[kind], args);
    if (kind === 'build') {
      const outcome = (result ?? {}) as BuildOutcome;
      if (outcome.cancelled) await host.showInfo(`kernel-lsp: the build of ${path.basename(project)} was cancelled.`);
      else if (outcome.ok === false) {
        const stopping = (outcome.problems ?? []).find((p) => p.severity === 'error');
        if (stopping && (outcome.units ?? []).length === 0) await reportBuildTomlProblem(host, project, stopping);
        else await host.showWarning(`kernel-lsp: the build of ${path.basename(project)} failed; its errors are in the Problems view.`);
      }
    }
    // A benchmark's report is opened by the client's middleware (src/serverClient.ts), for the
    // code lenses' runs as well as this command's.
  } catch (error) {
    if (isCancellation(error)) return;
    const choice = await host.showError(commandFailureMessage(serverCommands[kind], args, error), 'Show Log');
    if (choice === 'Show Log') host.showLog();
  }
}

// Run Tests: the tests of the active file's project (else of the workspace folder), with the
// sanitizer the user picks; the reports arrive as diagnostics, the summary as a message.
export async function runTests(host: CommandHost): Promise<void> {
  if (!(await needsServer(host))) return;
  const project = activeProject(host) ?? host.workspaceFolder();
  if (!project) {
    await host.showWarning('kernel-lsp: open a file of a kernel project (or a folder) to run its tests.');
    return;
  }
  const choice = await host.pick(testChoices, `Run the tests of ${path.basename(project)} under which tool?`);
  if (!choice) return;
  const args = [{ project: pathToFileURL(project).href, sanitize: choice.sanitize }];
  try {
    // A failure of the request itself is reported by the client's middleware, as for builds.
    const result = await host.executeServerCommand(serverCommands.test, args);
    if (result === undefined || result === null) return;
    const message = testMessage(path.basename(project), choice, result);
    if (message.severity === 'warning') {
      const action = await host.showWarning(message.text, 'Show Log');
      if (action === 'Show Log') host.showLog();
    } else {
      await host.showInfo(message.text);
    }
  } catch (error) {
    if (isCancellation(error)) return;
    const action = await host.showError(commandFailureMessage(serverCommands.test, args, error), 'Show Log');
    if (action === 'Show Log') host.showLog();
  }
}

export async function cancelJobs(host: CommandHost): Promise<void> {
  if (!(await needsServer(host))) return;
  // Without an argument the server cancels every job it runs: all of them are this editor's.
  try {
    await host.executeServerCommand(serverCommands.cancel, []);
  } catch (error) {
    if (isCancellation(error)) return;
    const choice = await host.showError(commandFailureMessage(serverCommands.cancel, [], error), 'Show Log');
    if (choice === 'Show Log') host.showLog();
  }
}

export async function showGuidance(host: CommandHost): Promise<void> {
  if (!(await needsServer(host))) return;
  const file = host.activeFile();
  const queries: GuidanceParams[] = file ? guidanceQueries(file.uri, file.position, file.diagnosticsAtCursor) : [];
  try {
    for (const query of queries) {
      const result = parseGuidance(await host.request(guidanceMethod, query));
      if (result) return await host.showMarkdown(result.title, guidancePage(result));
    }
    const topic = await host.askText('Guidance on which rule, construct or topic? (e.g. cp.async, arch-mismatch, launch bounds)', '');
    if (!topic?.trim()) return;
    const result = parseGuidance(await host.request(guidanceMethod, { topic: topic.trim() }));
    if (result) await host.showMarkdown(result.title, guidancePage(result));
    else await host.showInfo(`kernel-lsp: the cuda-kernels skill has no section on "${topic.trim()}".`);
  } catch (error) {
    await host.showError(`kernel-lsp: guidance failed: ${messageOf(error)}`);
  }
}

export async function installSkill(host: CommandHost): Promise<void> {
  const binary = host.binary();
  if (!binary) {
    await host.showError('kernel-lsp: the kernel-lsp binary was not found; set kernelLsp.path.');
    return;
  }
  const folder = host.workspaceFolder();
  const targets = skillTargets.filter((t) => folder !== undefined || !t.needsWorkspace);
  const target = await host.pick(targets, 'Install the cuda-kernels skill for which agent?');
  if (!target) return;
  const cwd = target.needsWorkspace ? folder : undefined;
  let result = await host.runCli(skillInstallArgs(target, false), cwd);
  if (result.code !== 0 && needsForce(result.stderr)) {
    const choice = await host.showWarning(`kernel-lsp: ${result.stderr.trim().replace(/^kernel-lsp: /, '')}`, 'Replace');
    if (choice !== 'Replace') return;
    result = await host.runCli(skillInstallArgs(target, true), cwd);
  }
  if (result.code === 0) await host.showInfo(`kernel-lsp: ${result.stdout.trim() || 'skill installed'}.`);
  else await host.showError(`kernel-lsp skills install failed: ${(result.stderr || result.stdout).trim()}`);
}

// The newest report of the active file's project, else one picked from the workspace's.
export async function openBenchReport(host: CommandHost): Promise<void> {
  const project = activeProject(host);
  if (project) {
    const report = path.join(project, 'benchmarks', 'reports', 'report.md');
    if (host.fileExists(report)) return host.openReport(report);
  }
  const reports = await host.findReports();
  if (reports.length === 0) {
    await host.showInfo('kernel-lsp: no benchmark report (benchmarks/reports/report.md) in this workspace yet; run Benchmark first.');
    return;
  }
  const picked = reports.length === 1 ? { label: reports[0] }
    : await host.pick(reports.map((r) => ({ label: r })), 'Open which benchmark report?');
  if (picked) await host.openReport(picked.label);
}

// A bench result's report (lsp: `report` path or `reportUri`), for the middleware.
export function reportOfBenchResult(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const r = result as Record<string, unknown>;
  if (typeof r.report === 'string' && r.report) return r.report;
  if (typeof r.reportUri === 'string' && r.reportUri.startsWith('file:')) {
    try {
      return fileURLToPath(r.reportUri);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

// A Markdown report that `kernel-lsp bench` wrote (window/showDocument from the server).
export function isBenchReport(file: string): boolean {
  return /[\\/]benchmarks[\\/]reports[\\/][^\\/]+\.md$/.test(file);
}
