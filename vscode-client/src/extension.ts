// The VS Code / Cursor side of kernel-lsp: wires the language client (src/serverClient.ts), the
// status bar, the commands (src/commands.ts), the lint task, the benchmark report panel and the
// Explorer's Benchmark Reports view. The server starts with the first document it would analyse,
// not at activation: VS Code activates the extension for every TOML and Markdown file, and most
// of those are not kernel-lsp's.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { buildOrBench, cancelJobs, installSkill, openBenchReport, runTests, showGuidance } from './commands';
import { fillFileWithSnippet } from './fileTemplates';
import { startsServer } from './project';
import { refreshReportsCommand, reportsViewId } from './reportList';
import { ReportTree } from './reportTree';
import { ReportView, registerReportSerializer } from './reportView';
import { ServerClient } from './serverClient';
import { readSettings } from './settings';
import { StatusController } from './statusController';
import { LintTaskProvider, lintTaskType } from './taskProvider';
import { GuidanceDocuments, VscodeHost, VscodeTemplateHost } from './vscodeHost';

let server: ServerClient | undefined;

function settings() {
  const section = vscode.workspace.getConfiguration('kernelLsp');
  return readSettings((key) => section.get(key));
}

function workspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

const statusMenu = [
  { label: '$(tools) Build Kernel Project', command: 'kernelLsp.build' },
  { label: '$(dashboard) Benchmark Kernel Project', command: 'kernelLsp.bench' },
  { label: '$(beaker) Run Tests (compute-sanitizer)', command: 'kernelLsp.test' },
  { label: '$(debug-stop) Cancel Build, Benchmark or Tests', command: 'kernelLsp.cancel' },
  { label: '$(book) Show Guidance', command: 'kernelLsp.showGuidance' },
  { label: '$(new-file) Fill File with Snippet', command: 'kernelLsp.fillFileWithSnippet' },
  { label: '$(graph) Open Benchmark Report', command: 'kernelLsp.openBenchReport' },
  { label: '$(output) Show Server Log', command: 'kernelLsp.showLog' },
  { label: '$(debug-restart) Restart Server', command: 'kernelLsp.restartServer' },
];

export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('kernel-lsp');
  const reports = new ReportView(context.workspaceState);
  const reportTree = new ReportTree();
  const guidance = new GuidanceDocuments();
  const status = new StatusController((method, params) => client.request(method, params));
  const showLog = () => output.show(true);
  const client = new ServerClient(output, {
    settings,
    workspaceFolder,
    onState: (state, detail) => status.setState(state, detail),
    onJob: (job, running) => status.setJob(job, running),
    onBenchReport: (report) => {
      void reports.show(report);
      reportTree.refresh();
    },
    showLog,
    // In a remote window the machine-scoped setting lives in the Remote settings, which the
    // User tab does not list. openRemoteSettings takes its search only as `{ query }` (a plain
    // string, which openSettings accepts, is dropped and the editor opens on Commonly Used).
    openPathSetting: () => void (vscode.env.remoteName
      ? vscode.commands.executeCommand('workbench.action.openRemoteSettings', { query: 'kernelLsp.path' })
      : vscode.commands.executeCommand('workbench.action.openSettings', 'kernelLsp.path')),
    remoteName: () => vscode.env.remoteName,
  });
  server = client;
  const host = new VscodeHost(client, reports, guidance, output);
  const templates = new VscodeTemplateHost(path.join(context.extensionPath, 'snippets'), output);

  const startFor = (document: vscode.TextDocument) => {
    if (!client.started && startsServer({ scheme: document.uri.scheme, languageId: document.languageId, fileName: document.fileName }, fs.existsSync))
      void client.start();
  };
  const restartIfStarted = () => { if (client.started) void client.restart(); };

  context.subscriptions.push(
    output, reports, reportTree, status,
    registerReportSerializer(reports),
    vscode.window.registerTreeDataProvider(reportsViewId, reportTree),
    vscode.commands.registerCommand(refreshReportsCommand, () => reportTree.refresh()),
    vscode.workspace.registerTextDocumentContentProvider(GuidanceDocuments.scheme, guidance),
    vscode.tasks.registerTaskProvider(lintTaskType, new LintTaskProvider(() => host.binary())),
    vscode.commands.registerCommand('kernelLsp.restartServer', () => client.restart()),
    vscode.commands.registerCommand('kernelLsp.showLog', showLog),
    vscode.commands.registerCommand('kernelLsp.showGuidance', () => showGuidance(host)),
    vscode.commands.registerCommand('kernelLsp.build', () => buildOrBench(host, 'build')),
    vscode.commands.registerCommand('kernelLsp.bench', () => buildOrBench(host, 'bench')),
    vscode.commands.registerCommand('kernelLsp.test', () => runTests(host)),
    vscode.commands.registerCommand('kernelLsp.cancel', () => cancelJobs(host)),
    vscode.commands.registerCommand('kernelLsp.installSkill', () => installSkill(host)),
    vscode.commands.registerCommand('kernelLsp.fillFileWithSnippet', () => fillFileWithSnippet(templates)),
    vscode.commands.registerCommand('kernelLsp.openBenchReport', (uri?: vscode.Uri) =>
      uri?.scheme === 'file' ? reports.show(uri.fsPath) : openBenchReport(host)),
    vscode.commands.registerCommand('kernelLsp.statusMenu', async () => {
      const choice = await vscode.window.showQuickPick(statusMenu, { placeHolder: 'kernel-lsp' });
      if (choice) await vscode.commands.executeCommand(choice.command);
    }),
    vscode.workspace.onDidOpenTextDocument(startFor),
    // The server learns the workspace trust at start (initializationOptions) and on every
    // configuration request; a restart makes a grant take effect for jobs already refused.
    vscode.workspace.onDidGrantWorkspaceTrust(restartIfStarted),
    vscode.workspace.onDidChangeConfiguration((event) => {
      // The server pulls analysis settings itself; another binary or log level needs a restart.
      if (event.affectsConfiguration('kernelLsp.path') || event.affectsConfiguration('kernelLsp.logLevel')) restartIfStarted();
    }),
  );
  for (const document of vscode.workspace.textDocuments) startFor(document);
  reportTree.refresh();  // sets the context key that shows the view
}

export async function deactivate(): Promise<void> {
  await server?.stop();
  server = undefined;
}
