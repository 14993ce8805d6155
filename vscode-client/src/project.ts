// Where a file's kernel-builder project is (the folder of the nearest build.toml above it), and
// which open documents are worth starting the server for.
import * as path from 'node:path';

export function findProjectDir(file: string, exists: (p: string) => boolean): string | undefined {
  let dir = path.dirname(file);
  for (;;) {
    if (exists(path.join(dir, 'build.toml'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export interface DocumentFacts {
  scheme: string;
  languageId: string;
  fileName: string;  // absolute path
}

const cudaLanguages = new Set(['cuda-cpp', 'cuda']);
const cudaExtensions = new Set(['.cu', '.cuh']);
const projectLanguages = new Set(['cpp', 'c', 'python']);

// The extension activates on any TOML or Markdown file (VS Code activates an extension for every
// language it contributes), but the server starts only for a document it would analyse: a CUDA
// source, a build.toml, a SKILL.md, or C++/Python inside a kernel project.
export function startsServer(document: DocumentFacts, exists: (p: string) => boolean): boolean {
  if (document.scheme !== 'file') return false;
  const base = path.basename(document.fileName);
  if (base === 'build.toml' || base === 'SKILL.md') return true;
  if (cudaLanguages.has(document.languageId)) return true;
  if (cudaExtensions.has(path.extname(document.fileName).toLowerCase())) return true;
  return projectLanguages.has(document.languageId) && findProjectDir(document.fileName, exists) !== undefined;
}
