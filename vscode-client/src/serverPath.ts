// Which kernel-lsp binary the extension runs: the `kernelLsp.path` setting, else
// $KERNEL_LSP_PATH, else `kernel-lsp` on PATH. A setting or variable that names a missing file
// is an error, never a silent fall-through to another binary: the user asked for that one.
import * as path from 'node:path';

export type ServerPathSource = 'setting' | 'environment' | 'PATH';

export type ServerPath =
  | { found: true; path: string; source: ServerPathSource }
  | { found: false; message: string; fixInSettings: boolean };

export interface ServerPathInputs {
  setting: string;  // kernelLsp.path, possibly empty
  env: Record<string, string | undefined>;
  workspaceFolder?: string;
  isExecutable: (file: string) => boolean;  // fs.accessSync(file, X_OK) on a regular file
  platform?: NodeJS.Platform;
  // vscode.env.remoteName in a remote window (SSH, WSL, a container): kernelLsp.path is a
  // machine setting there, read from the Remote settings and never from the User settings.
  remoteName?: string;
}

// `~/` and `${workspaceFolder}` expanded; relative paths taken from the workspace folder.
export function expandPath(value: string, env: Record<string, string | undefined>, workspaceFolder?: string): string {
  let expanded = value.trim();
  const home = env.HOME ?? env.USERPROFILE;
  if ((expanded === '~' || expanded.startsWith('~/')) && home) expanded = path.join(home, expanded.slice(1));
  if (workspaceFolder) expanded = expanded.replace(/\$\{workspaceFolder\}/g, workspaceFolder);
  if (workspaceFolder && !path.isAbsolute(expanded) && expanded.includes('/'))
    expanded = path.join(workspaceFolder, expanded);
  return expanded;
}

function searchPath(name: string, inputs: ServerPathInputs): string | undefined {
  const windows = (inputs.platform ?? process.platform) === 'win32';
  const separator = windows ? ';' : ':';
  const suffixes = windows ? (inputs.env.PATHEXT ?? '.EXE').split(';').concat(['']) : [''];
  for (const dir of (inputs.env.PATH ?? inputs.env.Path ?? '').split(separator)) {
    if (!dir) continue;
    for (const suffix of suffixes) {
      const candidate = path.join(dir, name + suffix.toLowerCase());
      if (inputs.isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

export function resolveServerPath(inputs: ServerPathInputs): ServerPath {
  const given = (value: string | undefined, source: ServerPathSource, label: string): ServerPath | undefined => {
    if (!value?.trim()) return undefined;
    const expanded = expandPath(value, inputs.env, inputs.workspaceFolder);
    // A bare name ("kernel-lsp-dev") is looked up on PATH, like a shell would.
    const candidate = expanded.includes('/') || expanded.includes('\\') ? expanded : searchPath(expanded, inputs);
    if (candidate && inputs.isExecutable(candidate)) return { found: true, path: candidate, source };
    return {
      found: false,
      fixInSettings: source === 'setting',
      message: `${label} is "${value.trim()}", but ${candidate ?? expanded} is not an executable file.`,
    };
  };
  const fromSetting = given(inputs.setting, 'setting', 'The setting kernelLsp.path');
  if (fromSetting) return fromSetting;
  const fromEnv = given(inputs.env.KERNEL_LSP_PATH, 'environment', '$KERNEL_LSP_PATH');
  if (fromEnv) return fromEnv;
  const onPath = searchPath('kernel-lsp', inputs);
  if (onPath) return { found: true, path: onPath, source: 'PATH' };
  if (inputs.remoteName)
    return {
      found: false,
      fixInSettings: true,
      message: `kernel-lsp was not found on the remote machine (${inputs.remoteName}): kernelLsp.path is a machine ` +
        'setting, so in a remote window VS Code reads it from the Remote settings, not from your User settings, and ' +
        'it is empty there; $KERNEL_LSP_PATH is not set and there is no kernel-lsp on PATH. Set kernelLsp.path in ' +
        'the Remote settings (Open Setting) to the binary on that machine, or put kernel-lsp on its PATH.',
    };
  return {
    found: false,
    fixInSettings: true,
    message: 'kernel-lsp was not found: the setting kernelLsp.path is empty, $KERNEL_LSP_PATH is not set, ' +
      'and there is no kernel-lsp on PATH. Build it (tools/build.sh) or install a release, then set kernelLsp.path.',
  };
}
