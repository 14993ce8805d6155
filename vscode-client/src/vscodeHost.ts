// CommandHost (src/commandHost.ts) over the vscode API and the language client.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ActiveFile, CliResult, CommandHost, PickItem } from './commandHost';
import { templatesOf, type FileTemplate, type TemplateEditor, type TemplateHost } from './fileTemplates';
import type { ReportView } from './reportView';
import type { ServerClient } from './serverClient';

// Read-only documents for guidance sections: `kernel-lsp-guidance:<title>.md`.
export class GuidanceDocuments implements vscode.TextDocumentContentProvider {
  static readonly scheme = 'kernel-lsp-guidance';
  private readonly pages = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  put(title: string, markdown: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: GuidanceDocuments.scheme, path: `/${title.replace(/[\\/]/g, '-')}.md` });
    this.pages.set(uri.toString(), markdown);
    this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.pages.get(uri.toString()) ?? '';
  }
}

export class VscodeHost implements CommandHost {
  constructor(
    private readonly server: ServerClient,
    private readonly reports: ReportView,
    private readonly guidance: GuidanceDocuments,
    private readonly output: vscode.OutputChannel,
  ) {}

  activeFile(): ActiveFile | undefined {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.uri.scheme !== 'file') return undefined;
    const position = editor.selection.active;
    const diagnosticsAtCursor = vscode.languages.getDiagnostics(editor.document.uri)
      .filter((d) => d.range.contains(position))
      .map((d) => ({ source: d.source, code: d.code }));
    return { uri: editor.document.uri.toString(), path: editor.document.uri.fsPath, position: { line: position.line, character: position.character }, diagnosticsAtCursor };
  }

  workspaceFolder(): string | undefined {
    const active = vscode.window.activeTextEditor?.document.uri;
    const folder = (active && vscode.workspace.getWorkspaceFolder(active)) ?? vscode.workspace.workspaceFolders?.[0];
    return folder?.uri.fsPath;
  }

  fileExists(path: string): boolean {
    return fs.existsSync(path);
  }

  async ensureServer(): Promise<boolean> {
    if (!this.server.started) await this.server.start();
    return this.server.running;
  }

  async executeServerCommand(command: string, args: unknown[]): Promise<unknown> {
    // Through the command the language client registered, so that its middleware sees the job.
    return vscode.commands.executeCommand(command, ...args);
  }

  request(method: string, params: unknown): Promise<unknown> {
    return this.server.request(method, params);
  }

  binary(): string | undefined {
    if (this.server.binary) return this.server.binary;
    const resolved = this.server.resolveBinary();
    return resolved.found ? resolved.path : undefined;
  }

  runCli(args: string[], cwd: string | undefined): Promise<CliResult> {
    const binary = this.binary();
    if (!binary) return Promise.resolve({ code: 2, stdout: '', stderr: 'kernel-lsp binary not found' });
    this.output.appendLine(`$ ${binary} ${args.join(' ')}${cwd ? `   (in ${cwd})` : ''}`);
    return new Promise((resolve) => {
      execFile(binary, args, { cwd, maxBuffer: 4 << 20, timeout: 60_000 }, (error, stdout, stderr) => {
        if (stdout) this.output.append(stdout);
        if (stderr) this.output.append(stderr);
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  }

  showInfo(message: string, ...actions: string[]): Promise<string | undefined> {
    return Promise.resolve(vscode.window.showInformationMessage(message, ...actions));
  }

  showWarning(message: string, ...actions: string[]): Promise<string | undefined> {
    return Promise.resolve(vscode.window.showWarningMessage(message, ...actions));
  }

  showError(message: string, ...actions: string[]): Promise<string | undefined> {
    return Promise.resolve(vscode.window.showErrorMessage(message, ...actions));
  }

  pick<T extends PickItem>(items: T[], placeholder: string): Promise<T | undefined> {
    return Promise.resolve(vscode.window.showQuickPick(items, { placeHolder: placeholder }));
  }

  askText(prompt: string, value: string): Promise<string | undefined> {
    return Promise.resolve(vscode.window.showInputBox({ prompt, value }));
  }

  async showMarkdown(title: string, markdown: string): Promise<void> {
    await vscode.commands.executeCommand('markdown.showPreviewToSide', this.guidance.put(title, markdown));
  }

  openReport(reportPath: string): Promise<void> {
    return this.reports.show(reportPath);
  }

  async findReports(): Promise<string[]> {
    const found = await vscode.workspace.findFiles('**/benchmarks/reports/report.md', '**/node_modules/**', 50);
    return found.map((uri) => uri.fsPath).sort();
  }

  showLog(): void {
    this.output.show(true);
  }

  async openFile(path: string, line: number): Promise<void> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
    const at = new vscode.Position(line, 0);
    await vscode.window.showTextDocument(document, { selection: new vscode.Range(at, at) });
  }
}

// TemplateHost (src/fileTemplates.ts): the snippet files the extension contributes, read once.
export class VscodeTemplateHost implements TemplateHost {
  private loaded: FileTemplate[] | undefined;

  constructor(private readonly snippetsDir: string, private readonly output: vscode.OutputChannel) {}

  activeEditor(): TemplateEditor | undefined {
    const document = vscode.window.activeTextEditor?.document;
    return document ? { fileName: document.fileName, languageId: document.languageId } : undefined;
  }

  templates(): FileTemplate[] {
    if (this.loaded) return this.loaded;
    const files: Record<string, Record<string, { body?: unknown; description?: unknown }>> = {};
    for (const language of ['cuda-cpp', 'cpp', 'python', 'toml']) {
      const file = path.join(this.snippetsDir, `${language}.code-snippets`);
      try {
        files[language] = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, { body?: unknown; description?: unknown }>;
      } catch (error) {
        this.output.appendLine(`kernel-lsp: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    this.loaded = templatesOf(files);
    return this.loaded;
  }

  pick<T extends PickItem>(items: T[], placeholder: string): Promise<T | undefined> {
    return Promise.resolve(vscode.window.showQuickPick(items, { placeHolder: placeholder, matchOnDetail: true }));
  }

  showInfo(message: string): Promise<unknown> {
    return Promise.resolve(vscode.window.showInformationMessage(message));
  }

  async fill(body: string, language: string): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return;
    const document = editor.document;
    const whole = new vscode.Range(new vscode.Position(0, 0), document.lineAt(document.lineCount - 1).range.end);
    await editor.insertSnippet(new vscode.SnippetString(body), whole);
    if (document.languageId !== language) await vscode.languages.setTextDocumentLanguage(document, language);
  }
}
