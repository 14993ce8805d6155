// How the server's commands (kernel-lsp.build/.bench/.test/.cancel/.showUsage) run through the language
// client's executeCommand middleware, whoever started them: the extension's commands or a click
// on a code lens. A failure is reported here, once: the middleware shows one message that says
// what failed and what to do, and resolves instead of rejecting. A rejection would add a second
// toast (VS Code reports a code lens command's rejection itself; a command of the extension would
// report it again), and the language client's own "Request workspace/executeCommand failed." is
// switched off (revealOutputChannelOn: Never in src/serverClient.ts; the log still has it).
// No vscode import, so that the tests can drive it.
import { commandFailureMessage, isCancellation, serverCommands } from './commandFailure';
import { reportOfBenchResult } from './commands';
import type { RunningJob } from './statusBar';

export const showUsageCommand = 'kernel-lsp.showUsage';

export interface ServerCommandHooks {
  onJob(job: RunningJob, running: boolean): void;
  onBenchReport(reportPath: string): void;
  showError(message: string, ...actions: string[]): Thenable<string | undefined>;
  showLog(): void;
  // A resource lens's details (kernel-lsp.showUsage's argument).
  showUsage(usage: UsageDetails): void;
}

export interface UsageDetails {
  kernel: string;
  title: string;
  details: string;
}

function usageOf(args: unknown[]): UsageDetails | undefined {
  const first = args[0];
  if (typeof first !== 'object' || first === null) return undefined;
  const { kernel, title, details } = first as Record<string, unknown>;
  if (typeof details !== 'string') return undefined;
  return { kernel: typeof kernel === 'string' ? kernel : 'kernel', title: typeof title === 'string' ? title : '', details };
}

export async function runServerCommand(
  command: string, args: unknown[], next: (command: string, args: unknown[]) => unknown, hooks: ServerCommandHooks,
): Promise<unknown> {
  if (command === showUsageCommand) {
    // Shown here, with its lines kept: the server's fallback for other editors is a one-line toast.
    const usage = usageOf(args);
    if (usage) {
      hooks.showUsage(usage);
      return undefined;
    }
  }
  const jobs: Record<string, RunningJob> = { [serverCommands.build]: 'build', [serverCommands.bench]: 'bench', [serverCommands.test]: 'test' };
  const job: RunningJob | undefined = jobs[command];
  if (job) hooks.onJob(job, true);
  try {
    const result: unknown = await next(command, args);
    const report = job === 'bench' ? reportOfBenchResult(result) : undefined;
    if (report) hooks.onBenchReport(report);
    return result;
  } catch (error) {
    if (!isCancellation(error)) {
      void Promise.resolve(hooks.showError(commandFailureMessage(command, args, error), 'Show Log')).then((choice) => {
        if (choice === 'Show Log') hooks.showLog();
      });
    }
    return undefined;
  } finally {
    if (job) hooks.onJob(job, false);
  }
}

// The language client drops a Command's tooltip (LSP 3.18) when it converts a lens; the resource
// lens carries its details in its argument as well, which become its tooltip again here.
export interface LensLike {
  command?: { command: string; arguments?: unknown[]; tooltip?: string };
}

export function withUsageTooltips<T extends LensLike>(lenses: T[]): T[] {
  for (const lens of lenses) {
    if (lens.command?.command !== showUsageCommand || lens.command.tooltip) continue;
    const usage = usageOf(lens.command.arguments ?? []);
    if (usage) lens.command.tooltip = usage.details;
  }
  return lenses;
}
