// The Explorer's Benchmark Reports view over src/reportList.ts: one item per kernel project, which
// opens the project's report in the report panel (src/reportView.ts). It is reloaded by its
// refresh button, when a build.toml comes or goes, and when a benchmark writes a report: the
// watchers see results.json written in place and the reports folder swapped in whole
// (runner/bench_report.h), and the client reports every benchmark it ran.
import * as vscode from 'vscode';
import { hasKernelProjectKey, projectReports, reportItemText, type ProjectReport } from './reportList';

// Folders that hold other people's projects or environments, not the workspace's.
const excluded = '**/{node_modules,.git,.venv}/**';

export class ReportTree implements vscode.TreeDataProvider<ProjectReport>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [this.changed];
  private projects: Promise<ProjectReport[]> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor() {
    const reload = () => this.refresh(300);  // a benchmark writes several files at once
    for (const glob of ['**/build.toml', '**/benchmarks/reports', '**/benchmarks/reports/results.json']) {
      const watcher = vscode.workspace.createFileSystemWatcher(glob);
      this.subscriptions.push(watcher, watcher.onDidCreate(reload), watcher.onDidChange(reload), watcher.onDidDelete(reload));
    }
    this.subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(reload));
  }

  // Reads the workspace again after `delayMs` (a burst of changes reads it once).
  refresh(delayMs = 0): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.projects = this.load();
      this.changed.fire(undefined);
    }, delayMs);
  }

  private async load(): Promise<ProjectReport[]> {
    const buildTomls = await vscode.workspace.findFiles('**/build.toml', excluded, 500);
    const projects = projectReports(buildTomls.map((uri) => uri.fsPath));
    // The view is shown only in workspaces with a kernel project.
    await vscode.commands.executeCommand('setContext', hasKernelProjectKey, projects.length > 0);
    return projects;
  }

  getChildren(element?: ProjectReport): Promise<ProjectReport[]> {
    if (element) return Promise.resolve([]);
    this.projects ??= this.load();
    return this.projects;
  }

  getTreeItem(project: ProjectReport): vscode.TreeItem {
    const text = reportItemText(project);
    const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
    item.id = project.projectDir;
    item.description = text.description;
    item.tooltip = text.tooltip;
    item.iconPath = new vscode.ThemeIcon(project.reportPath ? 'graph' : 'circle-outline');
    item.contextValue = project.reportPath ? 'report' : 'noReport';
    if (project.reportPath)
      item.command = { command: 'kernelLsp.openBenchReport', title: 'Open Benchmark Report', arguments: [vscode.Uri.file(project.reportPath)] };
    return item;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
  }
}
