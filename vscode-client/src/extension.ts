// The VS Code / Cursor side of kernel-lsp: starts `kernel-lsp serve --stdio` through
// vscode-languageclient for CUDA sources, kernel-project C++ and build.toml, and adds commands
// (restart, guidance for the word under the cursor, build, benchmark and cancel through the server).
import * as fs from 'node:fs';
import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import { findProjectDir, initializationOptions, readSettings, serverCommand, wordAt } from './config';

let client: LanguageClient | undefined;

function settings() {
  const section = vscode.workspace.getConfiguration('kernelLsp');
  return readSettings((key) => section.get(key));
}

function workspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

function createClient(output: vscode.OutputChannel): LanguageClient {
  const current = settings();
  const server = serverCommand(current, process.env, workspaceFolder());
  const serverOptions: ServerOptions = {
    command: server.command,
    args: server.args,
    options: { env: { ...process.env, ...server.env } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'cuda-cpp' },
      { scheme: 'file', language: 'cpp' },
      { scheme: 'file', language: 'c' },
      { scheme: 'file', pattern: '**/build.toml' },
    ],
    initializationOptions: initializationOptions(current, vscode.workspace.isTrusted),
    outputChannel: output,
  };
  return new LanguageClient('kernelLsp', 'kernel-lsp', serverOptions, clientOptions);
}

function projectDirOfActiveEditor(): string | undefined {
  const file = vscode.window.activeTextEditor?.document.uri.fsPath;
  const dir = file ? findProjectDir(file, fs.existsSync) : undefined;
  if (!dir) void vscode.window.showWarningMessage('kernel-lsp: no build.toml above the active file.');
  return dir;
}

// Build and Benchmark go through the server (kernel-lsp.build / .bench over
// workspace/executeCommand): it reports progress, streams compiler output to the log, shows
// compile errors as diagnostics and resource usage as code lenses, and opens the benchmark report.
async function runThroughServer(command: 'kernel-lsp.build' | 'kernel-lsp.bench') {
  const dir = projectDirOfActiveEditor();
  if (!dir || !client) return;
  try {
    const result = await vscode.commands.executeCommand<{ ok?: boolean; exitCode?: number }>(
      command, { project: vscode.Uri.file(dir).toString() });
    if (command === 'kernel-lsp.build' && result && result.ok === false)
      void vscode.window.showWarningMessage('kernel-lsp: the build failed; see the Problems view.');
  } catch (error) {
    void vscode.window.showErrorMessage(`kernel-lsp: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function showGuidance() {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return;
  const position = editor.selection.active;
  const word = wordAt(editor.document.lineAt(position.line).text, position.character);
  if (!word) return;
  const { command } = serverCommand(settings(), process.env, workspaceFolder());
  execFile(command, ['skills', 'show', word], { maxBuffer: 4 << 20 }, async (error, stdout, stderr) => {
    if (error && !stdout) {
      void vscode.window.showInformationMessage(`kernel-lsp: no guidance for ${word}. ${stderr.trim()}`);
      return;
    }
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: stdout });
    await vscode.commands.executeCommand('markdown.showPreview', document.uri);
  });
}

export async function activate(context: vscode.ExtensionContext) {
  const output = vscode.window.createOutputChannel('kernel-lsp');
  client = createClient(output);
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('kernelLsp.restartServer', async () => {
      if (client) await client.stop();
      client = createClient(output);
      await client.start();
    }),
    vscode.commands.registerCommand('kernelLsp.showGuidance', showGuidance),
    vscode.commands.registerCommand('kernelLsp.build', () => runThroughServer('kernel-lsp.build')),
    vscode.commands.registerCommand('kernelLsp.bench', () => runThroughServer('kernel-lsp.bench')),
    vscode.commands.registerCommand('kernelLsp.cancel', () => vscode.commands.executeCommand('kernel-lsp.cancel')),
    // Trust granted later: the server learns it at the next start.
    vscode.workspace.onDidGrantWorkspaceTrust(() => vscode.commands.executeCommand('kernelLsp.restartServer')),
    vscode.workspace.onDidChangeConfiguration((event) => {
      // The server pulls analysis settings itself; a new binary or log level needs a restart.
      if (event.affectsConfiguration('kernelLsp.path') || event.affectsConfiguration('kernelLsp.logLevel'))
        void vscode.commands.executeCommand('kernelLsp.restartServer');
    }),
  );
  await client.start();
}

export async function deactivate() {
  if (client) await client.stop();
  client = undefined;
}
