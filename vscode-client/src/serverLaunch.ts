// How the extension starts the server and what it tells it: the command line, the environment,
// the initializationOptions and the documents it sends. Pure, so that the tests can start the
// real binary exactly as the extension does (test/realServer.test.ts).
import type { KernelLspSettings } from './settings';

export interface ServerLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;  // added to the editor's environment
}

// `kernel-lsp serve --stdio`; the log level through KERNEL_LSP_LOG (the server's log goes to
// stderr, which the extension shows in its output channel and keeps the end of for crash reports).
export function serverLaunch(binary: string, settings: KernelLspSettings): ServerLaunch {
  return { command: binary, args: ['serve', '--stdio'], env: { KERNEL_LSP_LOG: settings.logLevel } };
}

// What the server reads from initializationOptions and workspace/configuration (docs/LSP.md,
// "Settings"). Every key is sent, empty meaning the server's default, so that clearing a setting
// takes effect at the next configuration request (the server keeps a value a request leaves out).
// `workspaceTrusted` is VS Code's workspace trust: in an untrusted workspace the server starts no
// build or benchmark.
export function initializationOptions(settings: KernelLspSettings, workspaceTrusted: boolean): Record<string, unknown> {
  return {
    cudaPath: settings.cudaPath,
    extraFlags: settings.extraFlags,
    torchIncludePath: settings.torchIncludePath,
    cutlassPath: settings.cutlassPath,
    defaultArchs: settings.defaultArchs,
    severities: settings.severities,
    disabledRules: settings.disabledRules,
    benchRunner: settings.benchRunner,
    docsBaseUrl: settings.docsBaseUrl,
    workspaceTrusted,
  };
}

export interface DocumentFilter {
  scheme: string;
  language?: string;
  pattern?: string;
}

// The documents the client sends to the server. The server decides what each is
// (lsp/workspace/document_kind.h): CUDA sources always; C++ only inside a kernel project;
// build.toml and SKILL.md by name whatever their language id; a kernel project's Python package,
// tests and benchmarks (as lsp/features/snippet_context.h finds them) for the snippet completion
// there.
export const documentSelector: DocumentFilter[] = [
  { scheme: 'file', language: 'cuda-cpp' },
  { scheme: 'file', language: 'cuda' },
  { scheme: 'file', language: 'cpp' },
  { scheme: 'file', language: 'c' },
  { scheme: 'file', pattern: '**/build.toml' },
  { scheme: 'file', pattern: '**/SKILL.md' },
  { scheme: 'file', language: 'python', pattern: '**/{torch-ext,tests,benchmarks}/**/*.py' },
  { scheme: 'file', language: 'python', pattern: '**/{test_*,*_test,bench*}.py' },
];

// The answer to the server's workspace/configuration request for the `kernelLsp` section. Built
// here rather than passed through from VS Code, so that a workspace's settings.json cannot slip
// keys the extension does not declare (`workspaceTrusted: true` in an untrusted folder) to the
// server: the trust always comes from VS Code.
export function configurationSection(settings: KernelLspSettings, workspaceTrusted: boolean): Record<string, unknown> {
  return initializationOptions(settings, workspaceTrusted);
}
