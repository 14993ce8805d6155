// The extension's contributed snippets, made at build time from the repository's snippet data
// (snippets/*.toml; format in snippets/README.md) with a TOML parser from npm, so that no
// kernel-lsp binary is needed to build the extension.
//
// Only whole-file templates are contributed, as `isFileTemplate` snippets without a prefix: VS
// Code offers them in "Snippets: Fill File with Snippet", in an empty file's hint and in "Insert
// Snippet", never in completion. Completion belongs to the server, which knows where a snippet
// makes sense (file scope of a .cu, a kernel body, torch-ext, build.toml, tests); contributed
// snippets are per language only, so they would show everywhere and twice.
//
// The C++ templates (the torch-ext binding source and header) are contributed without
// `isFileTemplate`: VS Code's "Fill File with Snippet" lists templates by language id in
// alphabetical order, so `cpp` came before `cuda-cpp` in a .cu, and picking one set the file's
// language to C++. They stay in "Insert Snippet" of a C++ file, and kernel-lsp's own "Fill File
// with Snippet" (src/fileTemplates.ts) offers every template, the file's language first.
import { parse, TomlError } from 'smol-toml';

export type VscodeLanguage = 'cuda-cpp' | 'cpp' | 'python' | 'toml';

// The data's languages → VS Code's language ids (the files the manifest contributes).
export const vscodeLanguageOf: Record<string, VscodeLanguage> = {
  cuda: 'cuda-cpp',
  cpp: 'cpp',
  python: 'python',
  toml: 'toml',
};

// Contexts (snippets/README.md) in which a snippet is a whole file: a kernel source's file scope
// (when it compiles on its own, without a compile_wrapper), a torch-ext binding source or header,
// a new build.toml, a kernel project's Python package, test or benchmark. The others (a kernel
// body, a host body, a table or key of an existing build.toml) are fragments.
const wholeFileContexts = new Set([
  'cuda-file-scope', 'torch-binding', 'torch-binding-header', 'build-toml-new',
  'python-package', 'python-test', 'python-benchmark',
]);

// The languages whose templates VS Code's own "Fill File with Snippet" offers (see above).
export const fileTemplateLanguages: ReadonlySet<VscodeLanguage> = new Set<VscodeLanguage>(['cuda-cpp', 'python', 'toml']);

export interface VscodeSnippet {
  body: string[];
  description: string;
  isFileTemplate?: true;
}

export type SnippetFiles = Record<VscodeLanguage, Record<string, VscodeSnippet>>;

export class SnippetDataError extends Error {}

export interface SnippetSource {
  name: string;  // file name, for messages
  text: string;
}

function contextsOf(table: Record<string, unknown>): string[] | undefined {
  const context = table.context ?? table.contexts;
  if (context === undefined) return undefined;
  if (typeof context === 'string') return [context];
  if (Array.isArray(context)) return context.filter((c): c is string => typeof c === 'string');
  return [];
}

export function isWholeFile(table: Record<string, unknown>): boolean {
  if (typeof table.compile_wrapper === 'string' && table.compile_wrapper.trim() !== '') return false;
  const contexts = contextsOf(table);
  // Without a context key a snippet keeps its language's old place: file scope, a whole file.
  if (contexts === undefined) return true;
  return contexts.some((c) => wholeFileContexts.has(c));
}

function parseToml(source: SnippetSource): Record<string, unknown> {
  try {
    return parse(source.text);
  } catch (error) {
    if (error instanceof TomlError)
      throw new SnippetDataError(`${source.name}:${error.line}:${error.column}: ${error.message.split('\n')[0]}`);
    throw error;
  }
}

// Every [[snippet]] of the sources → one snippet file per VS Code language. Throws
// SnippetDataError (with the file and the snippet) for data it cannot use.
export function snippetFiles(sources: SnippetSource[]): { files: SnippetFiles; templates: number; fragments: number } {
  const files: SnippetFiles = { 'cuda-cpp': {}, cpp: {}, python: {}, toml: {} };
  let templates = 0;
  let fragments = 0;
  for (const source of sources) {
    const document = parseToml(source);
    const snippets = document.snippet;
    if (snippets === undefined) continue;  // constructs.toml and other data
    if (!Array.isArray(snippets)) throw new SnippetDataError(`${source.name}: "snippet" must be an array of tables ([[snippet]])`);
    snippets.forEach((entry: unknown, index: number) => {
      const where = `${source.name}: snippet ${index + 1}`;
      if (typeof entry !== 'object' || entry === null) throw new SnippetDataError(`${where} is not a table`);
      const table = entry as Record<string, unknown>;
      const id = typeof table.id === 'string' ? table.id : `#${index + 1}`;
      for (const key of ['name', 'language', 'body'])
        if (typeof table[key] !== 'string' || table[key].trim() === '')
          throw new SnippetDataError(`${where} (${id}): "${key}" must be a non-empty string`);
      const language = vscodeLanguageOf[table.language as string];
      if (!language) throw new SnippetDataError(`${where} (${id}): unknown language "${String(table.language)}" (cuda, cpp, python, toml)`);
      if (!isWholeFile(table)) {
        fragments++;
        return;
      }
      const name = table.name as string;
      if (name in files[language]) throw new SnippetDataError(`${where} (${id}): a second ${language} snippet named "${name}"`);
      const description = typeof table.description === 'string' ? table.description : name;
      files[language][name] = {
        body: (table.body as string).replace(/\r\n/g, '\n').split('\n'),
        description,
        ...(fileTemplateLanguages.has(language) ? { isFileTemplate: true as const } : {}),
      };
      templates++;
    });
  }
  return { files, templates, fragments };
}
