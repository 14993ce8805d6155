// The benchmark report view: one webview panel that shows a report folder's plot and tables
// (src/reportPage.ts). No scripts; it may load only files of the report's own folder
// (localResourceRoots), and the page's Content-Security-Policy allows nothing else. A page without
// scripts cannot keep a webview state, so the report shown is remembered in the workspace state,
// and after a window reload the panel VS Code restores is drawn again from it (restore()).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { reportPanelViewType } from './reportList';
import { parseBenchResults, reportPage, resolveImageSources, type BenchResults } from './reportPage';

function readResults(folder: string): BenchResults | undefined {
  try {
    return parseBenchResults(JSON.parse(fs.readFileSync(path.join(folder, 'results.json'), 'utf8')));
  } catch {
    return undefined;
  }
}

// The project's name: the folder above benchmarks/reports/.
function projectName(reportPath: string): string {
  return path.basename(path.dirname(path.dirname(path.dirname(reportPath))));
}

// No scripts, no command links, and files of the report's folder only.
function panelOptions(folder: string): vscode.WebviewOptions {
  return { enableScripts: false, enableCommandUris: false, localResourceRoots: [vscode.Uri.file(folder)] };
}

// The workspace state's key of the report last shown (its report.md path).
const shownReportKey = 'kernelLsp.reportPanel.report';

export class ReportView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private folder: string | undefined;

  constructor(private readonly memory: vscode.Memento) {}

  async show(reportPath: string): Promise<void> {
    const folder = path.dirname(reportPath);
    if (!this.panel || this.folder !== folder) {
      this.adopt(vscode.window.createWebviewPanel(reportPanelViewType, `Benchmark: ${projectName(reportPath)}`,
        vscode.ViewColumn.Beside, panelOptions(folder)), folder);
    }
    const panel = this.panel;
    if (!panel) return;
    await this.render(panel, reportPath);
    panel.reveal(vscode.ViewColumn.Beside, true);
  }

  // The WebviewPanelSerializer's part: a panel VS Code restored after a reload shows the report
  // remembered again, with the same options; when that report is gone the panel closes.
  async restore(panel: vscode.WebviewPanel): Promise<void> {
    const reportPath = this.memory.get<string>(shownReportKey);
    const folder = reportPath ? path.dirname(reportPath) : undefined;
    if (!reportPath || !folder || !fs.existsSync(folder)) {
      panel.dispose();
      return;
    }
    panel.webview.options = panelOptions(folder);
    this.adopt(panel, folder);
    await this.render(panel, reportPath);
  }

  private adopt(panel: vscode.WebviewPanel, folder: string): void {
    this.panel?.dispose();
    this.panel = panel;
    this.folder = folder;
    panel.onDidDispose(() => { if (this.panel === panel) this.panel = undefined; });
  }

  private async render(panel: vscode.WebviewPanel, reportPath: string): Promise<void> {
    const folder = path.dirname(reportPath);
    const title = `Benchmark: ${projectName(reportPath)}`;
    const webview = panel.webview;
    const results = readResults(folder);
    const plot = path.join(folder, 'speedup.svg');
    const plotSrc = fs.existsSync(plot) ? webview.asWebviewUri(vscode.Uri.file(plot)).toString() : undefined;
    let markdownHtml: string | undefined;
    if (!results && fs.existsSync(reportPath)) {
      const markdown = fs.readFileSync(reportPath, 'utf8');
      try {
        // The Markdown renderer VS Code (and Cursor) ship with its Markdown extension.
        markdownHtml = await vscode.commands.executeCommand<string>('markdown.api.render', markdown);
      } catch {
        markdownHtml = undefined;
      }
      markdownHtml = resolveImageSources(markdownHtml ?? `<pre>${markdown.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`)}</pre>`,
        (relative) => {
          const file = path.resolve(folder, relative);
          return file.startsWith(folder + path.sep) ? webview.asWebviewUri(vscode.Uri.file(file)).toString() : undefined;
        });
    }
    if (this.panel !== panel) return;  // closed, or another report shown, while the Markdown rendered
    panel.title = title;
    webview.html = reportPage({
      title, cspSource: webview.cspSource, nonce: randomBytes(16).toString('base64'), plotSrc, results, markdownHtml, reportPath,
    });
    await this.memory.update(shownReportKey, reportPath);
  }

  dispose(): void {
    this.panel?.dispose();
  }
}

export function registerReportSerializer(view: ReportView): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(reportPanelViewType, {
    deserializeWebviewPanel: (panel) => view.restore(panel),
  });
}
