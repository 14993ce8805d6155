// What the extension does when the server process ends without being asked to: says how it
// ended (exit code or signal, and the last lines of its log), restarts it a few times, and stops
// trying when it keeps crashing, so that a server that dies at start-up does not loop.

export interface ServerExit {
  code: number | null;
  signal: string | null;
}

export function describeExit(exit: ServerExit | undefined): string {
  if (!exit) return 'the connection to kernel-lsp closed (the process did not report how it ended)';
  if (exit.signal) return `kernel-lsp was killed by ${exit.signal}${exit.signal === 'SIGKILL' ? ' (out of memory?)' : ''}`;
  if (exit.code === 0) return 'kernel-lsp exited (code 0) without being asked to';
  return `kernel-lsp exited with code ${exit.code ?? 'unknown'}`;
}

// "kernel-lsp was killed by SIGSEGV. Last log lines: ..."; the lines are the end of stderr.
export function crashMessage(exit: ServerExit | undefined, lastLines: string[]): string {
  const tail = lastLines.slice(-3).map((l) => l.trim()).filter(Boolean);
  return `${describeExit(exit)}.` + (tail.length ? ` Last log lines: ${tail.join(' ⏎ ')}` : '');
}

export type CrashDecision =
  | { restart: true; attempt: number; of: number }
  | { restart: false; crashes: number; withinMinutes: number };

// At most `maxRestarts` automatic restarts within `windowMs`; a restart the user asks for starts
// the count again.
export class RestartPolicy {
  private crashes: number[] = [];

  constructor(private readonly maxRestarts = 3, private readonly windowMs = 3 * 60_000) {}

  onCrash(now: number): CrashDecision {
    this.crashes = this.crashes.filter((t) => now - t < this.windowMs);
    this.crashes.push(now);
    if (this.crashes.length <= this.maxRestarts)
      return { restart: true, attempt: this.crashes.length, of: this.maxRestarts };
    return { restart: false, crashes: this.crashes.length, withinMinutes: Math.round(this.windowMs / 60_000) };
  }

  reset(): void {
    this.crashes = [];
  }
}
