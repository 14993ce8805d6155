// "Install the Skill for Agents": copies the bundled cuda-kernels skill where an agent looks for
// skills, with `kernel-lsp skills install` (cli/skills_command.cpp): Claude Code, Codex or
// OpenCode, for this project (run in the workspace folder, so the copy lands in the repository)
// or for the user (--global, under $HOME).

export interface SkillTarget {
  label: string;
  detail: string;
  args: string[];
  needsWorkspace: boolean;
}

export const skillTargets: SkillTarget[] = [
  { label: 'Claude Code: this project', detail: '.claude/skills/cuda-kernels', args: ['--claude'], needsWorkspace: true },
  { label: 'Claude Code: all my projects', detail: '~/.claude/skills/cuda-kernels', args: ['--claude', '--global'], needsWorkspace: false },
  { label: 'Codex: this project', detail: '.codex/skills/cuda-kernels', args: ['--codex'], needsWorkspace: true },
  { label: 'Codex: all my projects', detail: '~/.codex/skills/cuda-kernels', args: ['--codex', '--global'], needsWorkspace: false },
  { label: 'OpenCode: this project', detail: '.opencode/skills/cuda-kernels', args: ['--opencode'], needsWorkspace: true },
  { label: 'OpenCode: all my projects', detail: '~/.config/opencode/skills/cuda-kernels', args: ['--opencode', '--global'], needsWorkspace: false },
];

export function skillInstallArgs(target: SkillTarget, force: boolean): string[] {
  return ['skills', 'install', ...target.args, ...(force ? ['--force'] : [])];
}

// The CLI refuses to overwrite a copy that differs without --force; the extension then asks.
export function needsForce(stderr: string): boolean {
  return /--force/.test(stderr);
}
