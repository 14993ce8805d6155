// The benchmark report view: one webview panel that shows a report folder's plot and tables
// (src/reportPage.ts). No scripts; it may load only files of the report's own folder
// (localResourceRoots), and the page's Content-Security-Policy allows nothing else.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
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

export class ReportView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private folder: string | undefined;

  async show(reportPath: string): Promise<void> {
    const folder = path.dirname(reportPath);
    const title = `Benchmark: ${projectName(reportPath)}`;
    if (!this.panel || this.folder !== folder) {
      this.panel?.dispose();
      this.panel = vscode.window.createWebviewPanel('kernelLsp.benchReport', title, vscode.ViewColumn.Beside, {
        enableScripts: false,
        enableCommandUris: false,
        localResourceRoots: [vscode.Uri.file(folder)],
      });
      this.panel.onDidDispose(() => { this.panel = undefined; });
      this.folder = folder;
    }
    const webview = this.panel.webview;
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
    this.panel.title = title;
    webview.html = reportPage({
      title, cspSource: webview.cspSource, nonce: randomBytes(16).toString('base64'), plotSrc, results, markdownHtml, reportPath,
    });
    this.panel.reveal(vscode.ViewColumn.Beside, true);
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
