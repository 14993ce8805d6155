// What the Explorer's Benchmark Reports view lists (src/reportTree.ts shows it): every kernel
// project of the workspace (a folder with a build.toml) and its benchmark report, if it has one,
// with the date of the run. Plain file reads, no vscode: the tests run it on real folders.
import * as fs from 'node:fs';
import * as path from 'node:path';

// Ids the manifest (package.json) names too; test/packagedExtension.check.ts compares them.
export const reportsViewId = 'kernelLsp.reports';
export const refreshReportsCommand = 'kernelLsp.refreshReports';
export const reportPanelViewType = 'kernelLsp.benchReport';
// The context key the view's `when` clause reads: the workspace has a build.toml.
export const hasKernelProjectKey = 'kernelLsp.hasKernelProject';

export interface ProjectReport {
  name: string;  // the project folder's name, as the report panel's title has it
  projectDir: string;
  // benchmarks/reports/report.md (the report panel's argument, even when only results.json is
  // there); undefined when the project has no report yet.
  reportPath?: string;
  date?: string;  // "2026-12-02 07:33 UTC"
}

export interface ReportItemText {
  label: string;
  description: string;
  tooltip: string;
}

function utcMinutes(when: Date): string {
  const iso = when.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

const historyName = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z(?:-\d+)?\.json$/;

// When the reported run happened: results.json's date_utc when the benchmark recorded one, else
// the newest history/ entry's name (`kernel-lsp bench` names each by when it wrote the report),
// else when results.json was last written.
export function reportDate(dateUtc: unknown, historyFiles: string[], modified?: Date): string | undefined {
  if (typeof dateUtc === 'string' && dateUtc.trim()) {
    const when = new Date(dateUtc);
    return Number.isNaN(when.getTime()) ? dateUtc.trim() : utcMinutes(when);
  }
  const stamps = historyFiles.map((f) => historyName.exec(f)).filter((m) => m !== null)
    .map((m) => `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`).sort();
  if (stamps.length > 0) return utcMinutes(new Date(stamps[stamps.length - 1]));
  return modified ? utcMinutes(modified) : undefined;
}

// The projects of a list of build.toml files: their folders, each once, by name then path.
export function projectDirs(buildTomls: string[]): string[] {
  const dirs = [...new Set(buildTomls.filter((f) => path.basename(f) === 'build.toml').map((f) => path.dirname(f)))];
  return dirs.sort((a, b) => path.basename(a).localeCompare(path.basename(b)) || a.localeCompare(b));
}

function dateUtcOf(resultsFile: string): unknown {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>).date_utc : undefined;
  } catch {
    return undefined;  // unreadable or not JSON: the date comes from history/ or the file's time
  }
}

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

// A project's report: benchmarks/reports/results.json, or a report.md written without one.
export function readProjectReport(projectDir: string): ProjectReport {
  const folder = path.join(projectDir, 'benchmarks', 'reports');
  const project: ProjectReport = { name: path.basename(projectDir), projectDir };
  const reportPath = path.join(folder, 'report.md');
  const results = path.join(folder, 'results.json');
  const dated = fs.existsSync(results) ? results : fs.existsSync(reportPath) ? reportPath : undefined;
  if (!dated) return project;
  let modified: Date | undefined;
  try {
    modified = fs.statSync(dated).mtime;
  } catch {
    modified = undefined;
  }
  const dateUtc = dated === results ? dateUtcOf(results) : undefined;
  return { ...project, reportPath, date: reportDate(dateUtc, listDir(path.join(folder, 'history')), modified) };
}

export function projectReports(buildTomls: string[]): ProjectReport[] {
  return projectDirs(buildTomls).map(readProjectReport);
}

export function reportItemText(project: ProjectReport): ReportItemText {
  if (!project.reportPath)
    return {
      label: project.name, description: 'no report yet',
      tooltip: `${project.projectDir}\nNo benchmark report yet: run "kernel-lsp: Benchmark Kernel Project" from a file of this project.`,
    };
  return {
    label: project.name, description: project.date ?? 'report',
    tooltip: `${project.projectDir}\nBenchmark report${project.date ? ` of ${project.date}` : ''}: ${project.reportPath}`,
  };
}
