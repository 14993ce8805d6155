// The language client around one kernel-lsp process: finds the binary, starts it exactly as
// src/serverLaunch.ts says, follows its state for the status bar, and handles its end: how it
// ended (exit code or signal, the last lines of its log), automatic restarts within limits
// (src/crashPolicy.ts), and an offer to restart when they are used up. Its middleware sees every
// build and benchmark (the commands' and the code lenses'), reports a failed server command once
// (src/serverCommandRun.ts), opens benchmark reports in the report view, and answers the
// server's configuration requests with the extension's own settings.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as vscode from 'vscode';
import {
  CloseAction, ErrorAction, LanguageClient, ResponseError, RevealOutputChannelOn, State,
  type CloseHandlerResult, type ErrorHandlerResult, type LanguageClientOptions, type ServerOptions,
} from 'vscode-languageclient/node';
import { isBenchReport } from './commands';
import { crashMessage, RestartPolicy, type ServerExit } from './crashPolicy';
import { LogTail } from './logTail';
import { configurationSection, documentSelector, initializationOptions, serverLaunch, type ServerLaunch } from './serverLaunch';
import { runServerCommand, withUsageTooltips } from './serverCommandRun';
import { resolveServerPath, type ServerPath } from './serverPath';
import type { KernelLspSettings } from './settings';
import type { RunningJob, ServerState } from './statusBar';

export interface ServerClientHooks {
  settings(): KernelLspSettings;
  workspaceFolder(): string | undefined;
  onState(state: ServerState, detail?: string): void;
  onJob(job: RunningJob, running: boolean): void;
  onBenchReport(reportPath: string): void;
  showLog(): void;
  openPathSetting(): void;
  remoteName(): string | undefined;  // vscode.env.remoteName
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export class ServerClient {
  private client: LanguageClient | undefined;
  private binaryPath: string | undefined;
  private exit: Promise<ServerExit> | undefined;  // of the current process
  private readonly log = new LogTail(40);
  private readonly policy = new RestartPolicy();
  private crashed = false;
  private attempted = false;  // start() ran (whether or not a binary was found) and stop() did not

  constructor(private readonly output: vscode.OutputChannel, private readonly hooks: ServerClientHooks) {}

  get binary(): string | undefined {
    return this.binaryPath;
  }

  get running(): boolean {
    return this.client?.state === State.Running;
  }

  // Whether start() was called since the last stop(): a missing binary is reported once, not
  // again for every document opened.
  get started(): boolean {
    return this.attempted;
  }

  resolveBinary(): ServerPath {
    return resolveServerPath({
      setting: this.hooks.settings().path, env: process.env, workspaceFolder: this.hooks.workspaceFolder(), isExecutable,
      remoteName: this.hooks.remoteName(),
    });
  }

  async start(): Promise<void> {
    if (this.attempted) return;
    this.attempted = true;
    const settings = this.hooks.settings();
    const resolved = this.resolveBinary();
    if (!resolved.found) {
      this.binaryPath = undefined;
      this.hooks.onState('notFound', resolved.message);
      this.output.appendLine(resolved.message);
      const actions = resolved.fixInSettings ? ['Open Setting', 'Show Log'] : ['Show Log'];
      void vscode.window.showErrorMessage(resolved.message, ...actions).then((choice) => {
        if (choice === 'Open Setting') this.hooks.openPathSetting();
        else if (choice === 'Show Log') this.hooks.showLog();
      });
      return;
    }
    this.binaryPath = resolved.path;
    this.output.appendLine(`kernel-lsp: starting ${resolved.path} (from ${resolved.source})`);
    const launch = serverLaunch(resolved.path, settings);
    const serverOptions: ServerOptions = () => this.spawnServer(launch);
    const client = new LanguageClient('kernelLsp', 'kernel-lsp', serverOptions, this.clientOptions(settings));
    this.client = client;
    this.crashed = false;
    client.onDidChangeState((event) => {
      if (event.newState === State.Starting) this.hooks.onState('starting');
      else if (event.newState === State.Running) this.hooks.onState('ready');
      else if (!this.crashed) this.hooks.onState('stopped');
    });
    this.hooks.onState('starting');
    try {
      await client.start();
    } catch (error) {
      // The close handler has said what happened when the process died; this is the rest.
      this.output.appendLine(`kernel-lsp: start failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.attempted = false;
    if (client && client.state !== State.Stopped) {
      try {
        await client.stop(5000);
      } catch (error) {
        this.output.appendLine(`kernel-lsp: stop: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    await client?.dispose().catch(() => undefined);
  }

  // A restart the user asked for: the crash count starts again.
  async restart(): Promise<void> {
    this.policy.reset();
    await this.stop();
    await this.start();
  }

  async request(method: string, params: unknown): Promise<unknown> {
    if (!this.client || !this.running) throw new Error('kernel-lsp is not running');
    return this.client.sendRequest(method, params);
  }

  private clientOptions(settings: KernelLspSettings): LanguageClientOptions {
    return {
      documentSelector,
      initializationOptions: initializationOptions(settings, vscode.workspace.isTrusted),
      outputChannel: this.output,
      // The client's own toast for a failed request ("Request workspace/executeCommand failed.")
      // would come on top of the extension's message that says what failed and what to do; the
      // output channel still logs it. Failures the client must show (a start that fails, a
      // connection lost) are shown whatever this says.
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      errorHandler: {
        error: (_error, _message, count): ErrorHandlerResult =>
          ({ action: count !== undefined && count <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown }),
        closed: () => this.onClosed(),
      },
      middleware: {
        executeCommand: (command, args, next) => runServerCommand(command, args, next, {
          onJob: (job, running) => this.hooks.onJob(job, running),
          onBenchReport: (report) => this.hooks.onBenchReport(report),
          showError: (message, ...actions) => vscode.window.showErrorMessage(message, ...actions),
          showLog: () => this.hooks.showLog(),
          showUsage: (usage) => void vscode.window.showInformationMessage(
            `kernel-lsp: ${usage.kernel}: ${usage.title}`, { modal: true, detail: usage.details }),
        }),
        provideCodeLenses: async (document, token, next) => {
          const lenses = await next(document, token);
          return lenses ? withUsageTooltips(lenses) : lenses;
        },
        window: {
          // The server shows a benchmark's Markdown report; the report view shows it better.
          showDocument: async (params, next) => {
            let file: string | undefined;
            try {
              file = params.uri.startsWith('file:') ? fileURLToPath(params.uri) : undefined;
            } catch {
              file = undefined;
            }
            if (file && isBenchReport(file)) {
              this.hooks.onBenchReport(file);
              return { success: true };
            }
            const shown = await next(params, new vscode.CancellationTokenSource().token);
            return shown instanceof ResponseError ? { success: false } : shown;
          },
        },
        workspace: {
          configuration: async (params, token, next) => {
            const answer = await next(params, token);
            if (!Array.isArray(answer)) return answer;
            const current = this.hooks.settings();
            return params.items.map((item, i) =>
              item.section === 'kernelLsp' ? configurationSection(current, vscode.workspace.isTrusted) : answer[i] as unknown);
          },
        },
      },
    };
  }

  private spawnServer(launch: ServerLaunch): Promise<ChildProcess> {
    this.log.clear();
    const child = spawn(launch.command, launch.args, {
      env: { ...process.env, ...launch.env },
      cwd: this.hooks.workspaceFolder(),
      stdio: 'pipe',
    });
    this.exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    child.stderr.on('data', (data: Buffer) => this.log.append(data.toString()));
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve(child));
      child.once('error', reject);
    });
  }

  private async onClosed(): Promise<CloseHandlerResult> {
    // The pipe usually closes just before the process's exit is reported; wait a moment for it.
    const exit = this.exit ? await Promise.race([this.exit, new Promise<undefined>((r) => setTimeout(r, 2000, undefined))]) : undefined;
    const message = crashMessage(exit, this.log.last());
    this.output.appendLine(`kernel-lsp: ${message}`);
    const decision = this.policy.onCrash(Date.now());
    if (decision.restart) {
      this.hooks.onState('starting', message);
      void vscode.window.showWarningMessage(`${message} Restarting it (${decision.attempt} of ${decision.of}).`, 'Show Log')
        .then((choice) => { if (choice === 'Show Log') this.hooks.showLog(); });
      return { action: CloseAction.Restart, handled: true };
    }
    this.crashed = true;
    this.hooks.onState('crashed', message);
    void vscode.window.showErrorMessage(
      `${message} It stopped ${decision.crashes} times within ${decision.withinMinutes} minutes, so it is not restarted again.`,
      'Restart', 'Show Log').then((choice) => {
      if (choice === 'Restart') void this.restart();
      else if (choice === 'Show Log') this.hooks.showLog();
    });
    return { action: CloseAction.DoNotRestart, handled: true };
  }
}
