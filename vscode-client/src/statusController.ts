// Keeps the status bar item (src/statusBar.ts computes what it says) up to date: the server's
// state from the client, running jobs from its middleware, and the active file's capabilities and
// build staleness from the server's kernel-lsp/fileStatus, asked again when the editor, a save or
// an edit (after a pause) may have changed the answer.
import * as vscode from 'vscode';
import { fileStatusMethod, parseFileStatus, type FileStatus } from './fileStatus';
import { statusView, type RunningJob, type ServerState } from './statusBar';

export class StatusController implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('kernelLsp.status', vscode.StatusBarAlignment.Left, 10);
  private readonly subscriptions: vscode.Disposable[] = [];
  private state: ServerState = 'stopped';
  private detail: string | undefined;
  private readonly jobs = new Map<RunningJob, number>();
  private file: FileStatus | undefined;
  private timer: NodeJS.Timeout | undefined;
  private asked = 0;  // the newest question; older answers are dropped

  constructor(private readonly ask: (method: string, params: unknown) => Promise<unknown>) {
    this.item.name = 'kernel-lsp';
    this.item.command = 'kernelLsp.statusMenu';
    this.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh(0)),
      vscode.workspace.onDidSaveTextDocument(() => this.refresh(200)),
      vscode.workspace.onDidChangeTextDocument((e) => { if (e.contentChanges.length > 0) this.refresh(1500); }),
      // The editor can become active before the language client has sent didOpen: the server
      // then answers without capabilities. Its first diagnostics for the file say the analysis
      // is there, so ask again then.
      vscode.languages.onDidChangeDiagnostics((e) => {
        const active = vscode.window.activeTextEditor?.document.uri.toString();
        if (active && this.file?.capabilities === undefined && e.uris.some((u) => u.toString() === active)) this.refresh(0);
      }),
    );
  }

  setState(state: ServerState, detail?: string): void {
    this.state = state;
    this.detail = detail;
    if (state !== 'ready') this.jobs.clear();
    this.render();
    this.item.show();
    if (state === 'ready') this.refresh(0);
  }

  setJob(job: RunningJob, running: boolean): void {
    const count = (this.jobs.get(job) ?? 0) + (running ? 1 : -1);
    if (count > 0) this.jobs.set(job, count);
    else this.jobs.delete(job);
    this.render();
    if (!running) this.refresh(0);
  }

  refresh(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), delayMs);
  }

  private async update(): Promise<void> {
    const document = vscode.window.activeTextEditor?.document;
    const question = ++this.asked;
    if (this.state !== 'ready' || !document || document.uri.scheme !== 'file') {
      this.file = undefined;
      this.render();
      return;
    }
    try {
      const answer = parseFileStatus(await this.ask(fileStatusMethod, { textDocument: { uri: document.uri.toString() } }));
      if (question !== this.asked) return;
      this.file = answer;
    } catch {
      // ContentModified (an edit came first: the next refresh asks again), an older server
      // without the request, or a server that stopped: show what is known without the file.
      if (question !== this.asked) return;
      if (this.file?.uri !== document.uri.toString()) this.file = undefined;  // else keep what was known
    }
    this.render();
  }

  private render(): void {
    const job = this.jobs.has('bench') ? 'bench' : this.jobs.has('build') ? 'build' : undefined;
    const view = statusView({ state: this.state, detail: this.detail, file: this.file, job });
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor = view.alert ? new vscode.ThemeColor(`statusBarItem.${view.alert}Background`) : undefined;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
    this.item.dispose();
  }
}
