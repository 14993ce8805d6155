// The part of the editor that the commands use, as a thin interface: src/vscodeHost.ts implements
// it with the vscode API and the language client, the unit tests with plain objects.
import type { DiagnosticAtCursor, Position } from './guidance';

export interface ActiveFile {
  uri: string;  // file URI
  path: string;
  position: Position;  // the cursor, in the client's (UTF-16) positions
  diagnosticsAtCursor: DiagnosticAtCursor[];
}

export interface PickItem {
  label: string;
  description?: string;
  detail?: string;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CommandHost {
  activeFile(): ActiveFile | undefined;
  workspaceFolder(): string | undefined;
  fileExists(path: string): boolean;
  // Starts the server when it has not been started (the extension starts it lazily); false when
  // it is not running afterwards.
  ensureServer(): Promise<boolean>;
  // workspace/executeCommand through the language client (its middleware sees builds and benchmarks).
  executeServerCommand(command: string, args: unknown[]): Promise<unknown>;
  request(method: string, params: unknown): Promise<unknown>;
  // The kernel-lsp binary the server runs, for CLI commands; undefined when none was found.
  binary(): string | undefined;
  runCli(args: string[], cwd: string | undefined): Promise<CliResult>;
  showInfo(message: string, ...actions: string[]): Promise<string | undefined>;
  showWarning(message: string, ...actions: string[]): Promise<string | undefined>;
  showError(message: string, ...actions: string[]): Promise<string | undefined>;
  pick<T extends PickItem>(items: T[], placeholder: string): Promise<T | undefined>;
  askText(prompt: string, value: string): Promise<string | undefined>;
  showMarkdown(title: string, markdown: string): Promise<void>;
  openReport(reportPath: string): Promise<void>;
  findReports(): Promise<string[]>;
  showLog(): void;
  // Opens a file in an editor with the cursor on `line` (0-based).
  openFile(path: string, line: number): Promise<void>;
}
