// The extension's settings (the `kernelLsp` section), read without the vscode module so that the
// unit tests can load it: `get` is vscode's WorkspaceConfiguration.get.

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
  docsBaseUrl: string;
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
  docsBaseUrl: '',
};

const logLevels = new Set(['trace', 'debug', 'info', 'warn', 'error', 'off']);

// Keeps the default for anything missing or of the wrong type (a hand-edited settings.json can
// hold anything), so that the server never receives a value of the wrong shape.
export function readSettings(get: (key: string) => unknown): KernelLspSettings {
  const text = (key: keyof KernelLspSettings, fallback: string): string => {
    const value = get(key);
    return typeof value === 'string' ? value : fallback;
  };
  const list = (key: keyof KernelLspSettings): string[] => {
    const value = get(key);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  };
  const severities: Record<string, string> = {};
  const raw = get('severities');
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [rule, level] of Object.entries(raw as Record<string, unknown>))
      if (typeof level === 'string') severities[rule] = level;
  }
  const logLevel = text('logLevel', 'info');
  return {
    path: text('path', ''),
    cudaPath: text('cudaPath', ''),
    extraFlags: list('extraFlags'),
    torchIncludePath: list('torchIncludePath'),
    cutlassPath: list('cutlassPath'),
    defaultArchs: list('defaultArchs'),
    severities,
    disabledRules: list('disabledRules'),
    logLevel: logLevels.has(logLevel) ? logLevel : 'info',
    benchRunner: text('benchRunner', ''),
    docsBaseUrl: text('docsBaseUrl', ''),
  };
}
