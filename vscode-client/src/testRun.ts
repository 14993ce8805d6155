// Run Tests: the project's tests through the server's kernel-lsp.test command, plain or under
// compute-sanitizer's tools, and what to tell the user afterwards. The server publishes each
// report as a diagnostic at its source line (and the tests' output in the log); the answer says
// how the run went, which is all the message here needs.
import type { PickItem } from './commandHost';

export interface TestChoice extends PickItem {
  sanitize: string[];
}

// In the order a user reaches for them: out-of-bounds first (the tail of a rounded-up grid).
export const testChoices: TestChoice[] = [
  { label: 'memcheck', description: 'out-of-bounds and misaligned global and shared accesses', sanitize: ['memcheck'] },
  { label: 'memcheck, racecheck, synccheck', description: 'also shared-memory races and barriers not all threads reach',
    sanitize: ['memcheck', 'racecheck', 'synccheck'] },
  { label: 'racecheck', description: 'shared-memory races', sanitize: ['racecheck'] },
  { label: 'synccheck', description: 'barriers in divergent code', sanitize: ['synccheck'] },
  { label: 'initcheck', description: 'reads of uninitialised global memory', sanitize: ['initcheck'] },
  { label: 'no sanitizer', description: 'the tests alone', sanitize: [] },
];

interface TestCounts { passed?: number; failed?: number; skipped?: number; errors?: number }
interface TestRunResult { tool?: string; timedOut?: boolean; reports?: number; tests?: TestCounts | null }
export interface TestOutcome {
  testsFailed?: boolean;
  cancelled?: boolean;
  runs?: TestRunResult[];
  findings?: unknown[];
  shapeNotes?: string[];  // operators the tests only ever called at multiples of a block's size
}

export interface TestMessage {
  severity: 'info' | 'warning';
  text: string;
}

function counted(counts: TestCounts): string {
  const parts = [`${counts.passed ?? 0} passed`];
  for (const key of ['failed', 'errors', 'skipped'] as const)
    if (counts[key]) parts.push(`${counts[key]} ${key === 'errors' ? 'errors' : key}`);
  return parts.join(', ');
}

// One line per outcome: "kernel-lsp: the tests of row-ops under memcheck: 12 passed; 2 reports
// from memcheck are in the Problems view."
export function testMessage(project: string, choice: TestChoice, outcome: TestOutcome): TestMessage {
  const under = choice.sanitize.length ? ` under ${choice.sanitize.join(', ')}` : '';
  const head = `kernel-lsp: the tests of ${project}${under}`;
  if (outcome.cancelled) return { severity: 'info', text: `${head} were cancelled.` };
  const runs = outcome.runs ?? [];
  const timedOut = runs.filter((r) => r.timedOut).map((r) => r.tool || 'the tests');
  const counts = runs.map((r) => r.tests).find((t): t is TestCounts => !!t);
  const findings = (outcome.findings ?? []).length;
  const parts: string[] = [];
  if (counts) parts.push(counted(counts));
  else if (outcome.testsFailed) parts.push('failed');
  else parts.push('passed');
  if (timedOut.length) parts.push(`${timedOut.join(', ')} ran out of time`);
  if (findings) parts.push(`${findings} ${findings === 1 ? 'report is' : 'reports are'} in the Problems view, at their source lines`);
  else if (choice.sanitize.length) parts.push('no report');
  // "every call of `ns::op` in the tests ... add a size such as 1027": the tail never ran.
  const notes = outcome.shapeNotes ?? [];
  if (notes.length) parts.push(notes.join('; '));
  const bad = findings > 0 || !!outcome.testsFailed || timedOut.length > 0 || notes.length > 0;
  return { severity: bad ? 'warning' : 'info', text: `${head}: ${parts.join('; ')}.` };
}
