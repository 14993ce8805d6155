// The `kernel-lsp` task type: `kernel-lsp lint` over the workspace (or the given paths), read by
// the `$kernel-lsp` problem matcher (package.json) from its text output, one finding per line:
// `file:line:col: severity: message [rule]` (cli/report_text.cpp), followed by an excerpt
// indented by two spaces and `note:` lines, which the matcher does not take.

export interface LintTaskDefinition {
  type: 'kernel-lsp';
  paths?: string[];
  severity?: 'error' | 'warning' | 'info';
  args?: string[];
}

export function lintTaskArgs(definition: LintTaskDefinition): string[] {
  const args = ['lint', '--format', 'text', '--color', 'never'];
  if (definition.severity) args.push('--severity', definition.severity);
  args.push(...(definition.args ?? []));
  args.push(...(definition.paths && definition.paths.length > 0 ? definition.paths : ['.']));
  return args;
}

// The problem matcher's regular expression, here so that the tests run it on real output; the
// manifest test checks that package.json carries the same one.
export const lintLinePattern = '^([^\\s:][^:]*(?::[\\\\/][^:]*)?):(\\d+):(\\d+):\\s+(error|warning|info|hint):\\s+(.*?)(?:\\s+\\[([A-Za-z0-9_.-]+)\\])?$';
