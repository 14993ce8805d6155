// Pure logic of the extension (no `vscode` import, so node's test runner can load it): how the
// server is started, what the settings become for the server, where a file's project is.
import * as path from 'node:path';

export interface KernelLspSettings {
  path: string;
  cudaPath: string;
  extraFlags: string[];
  torchIncludePath: string[];
  cutlassPath: string[];
  defaultArchs: string[];
  severities: Record<string, string>;
  disabledRules: string[];
  logLevel: string;
  benchRunner: string;
}

export const defaultSettings: KernelLspSettings = {
  path: '',
  cudaPath: '',
  extraFlags: [],
  torchIncludePath: [],
  cutlassPath: [],
  defaultArchs: [],
  severities: {},
  disabledRules: [],
  logLevel: 'info',
  benchRunner: '',
};

// Reads the `kernelLsp` section through `get` (vscode's WorkspaceConfiguration.get), keeping
// the default for anything missing or of the wrong type.
export function readSettings(get: (key: string) => unknown): KernelLspSettings {
  const stringOr = (key: keyof KernelLspSettings, fallback: string) => {
    const value = get(key);
    return typeof value === 'string' ? value : fallback;
  };
  const list = (key: keyof KernelLspSettings) => {
    const value = get(key);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  };
  const severities: Record<string, string> = {};
  const raw = get('severities');
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [rule, level] of Object.entries(raw as Record<string, unknown>))
      if (typeof level === 'string') severities[rule] = level;
  }
  return {
    path: stringOr('path', ''),
    cudaPath: stringOr('cudaPath', ''),
    extraFlags: list('extraFlags'),
    torchIncludePath: list('torchIncludePath'),
    cutlassPath: list('cutlassPath'),
    defaultArchs: list('defaultArchs'),
    severities,
    disabledRules: list('disabledRules'),
    logLevel: stringOr('logLevel', 'info'),
    benchRunner: stringOr('benchRunner', ''),
  };
}

export interface ServerCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

// `kernel-lsp serve --stdio`, found through the setting, then $KERNEL_LSP_PATH, then PATH.
// `~` and `${workspaceFolder}` in the setting are expanded.
export function serverCommand(settings: KernelLspSettings, env: Record<string, string | undefined>,
                              workspaceFolder?: string): ServerCommand {
  let command = settings.path.trim() || env.KERNEL_LSP_PATH?.trim() || 'kernel-lsp';
  if (command.startsWith('~/') && env.HOME) command = path.join(env.HOME, command.slice(2));
  if (workspaceFolder) command = command.replace(/\$\{workspaceFolder\}/g, workspaceFolder);
  return { command, args: ['serve', '--stdio'], env: { KERNEL_LSP_LOG: settings.logLevel } };
}

// What the server reads from initializationOptions (and from workspace/configuration).
// `workspaceTrusted` is VS Code's workspace trust: the server starts no build or benchmark in
// an untrusted workspace.
export function initializationOptions(settings: KernelLspSettings, workspaceTrusted = true): Record<string, unknown> {
  const options: Record<string, unknown> = {
    extraFlags: settings.extraFlags,
    defaultArchs: settings.defaultArchs,
    severities: settings.severities,
    disabledRules: settings.disabledRules,
    workspaceTrusted,
  };
  if (settings.benchRunner) options.benchRunner = settings.benchRunner;
  if (settings.cudaPath) options.cudaPath = settings.cudaPath;
  if (settings.torchIncludePath.length) options.torchIncludePath = settings.torchIncludePath;
  if (settings.cutlassPath.length) options.cutlassPath = settings.cutlassPath;
  return options;
}

// The folder of the nearest build.toml at or above `file`'s folder, or undefined.
export function findProjectDir(file: string, exists: (p: string) => boolean): string | undefined {
  let dir = path.dirname(file);
  for (;;) {
    if (exists(path.join(dir, 'build.toml'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

// The identifier (or dotted PTX-like word, e.g. cp.async) around `character` in `line`.
export function wordAt(line: string, character: number): string | undefined {
  const isWord = (c: string) => /[A-Za-z0-9_.]/.test(c);
  let start = Math.min(character, line.length);
  let end = start;
  while (start > 0 && isWord(line[start - 1])) start--;
  while (end < line.length && isWord(line[end])) end++;
  const word = line.slice(start, end).replace(/^\.+|\.+$/g, '');
  return word.length > 0 ? word : undefined;
}
