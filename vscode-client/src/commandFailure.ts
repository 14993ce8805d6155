// The server's command ids, and how the failure of one is worded for the user: what failed
// (the build of which project) and what to do about it, in one message.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const serverCommands = {
  build: 'kernel-lsp.build', bench: 'kernel-lsp.bench', cancel: 'kernel-lsp.cancel', test: 'kernel-lsp.test',
} as const;

// JSON-RPC codes whose messages, from kernel-lsp, already say what to do (wait, cancel, trust
// the workspace, add a build.toml): RequestFailed and InvalidParams.
const selfExplainingCodes = new Set([-32803, -32602]);

function projectName(args: unknown[]): string | undefined {
  const first = args[0];
  if (typeof first !== 'object' || first === null) return undefined;
  const project = (first as Record<string, unknown>).project;
  if (typeof project !== 'string' || !project) return undefined;
  try {
    return path.basename(project.startsWith('file:') ? fileURLToPath(project) : project);
  } catch {
    return undefined;
  }
}

function whatFailed(command: string, args: unknown[]): string {
  const project = projectName(args);
  const of = project ? ` of ${project}` : '';
  if (command === serverCommands.build) return `the build${of}`;
  if (command === serverCommands.bench) return `the benchmark${of}`;
  if (command === serverCommands.test) return `the tests${of}`;
  if (command === serverCommands.cancel) return 'cancelling the build, benchmark or tests';
  return command;
}

export function isCancellation(error: unknown): boolean {
  return error instanceof Error && error.name === 'Canceled';
}

// "kernel-lsp: the build of row-ops failed: <the server's reason>", and where the reason may not
// say what to do, where to look.
export function commandFailureMessage(command: string, args: unknown[], error: unknown): string {
  const reason = (error instanceof Error ? error.message : String(error)).trim().replace(/\.$/, '') || 'no reason given';
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const hint = typeof code === 'number' && selfExplainingCodes.has(code) ? '.' : '. The kernel-lsp log (Show Log) has the details.';
  return `kernel-lsp: ${whatFailed(command, args)} failed: ${reason}${hint}`;
}
