// kernel-lsp: Fill File with Snippet (kernelLsp.fillFileWithSnippet): the contributed whole-file
// templates (snippets/*.code-snippets), those of the active file's language first, written over
// the file without changing its language. VS Code's own "Snippets: Fill File with Snippet" lists
// templates by language id in alphabetical order (C++ before CUDA C++) and sets the file's
// language to the picked template's, so that a binding template picked in a .cu turned it into
// C++. No vscode import, so that the tests can drive it.
import * as path from 'node:path';
import type { PickItem } from './commandHost';

export type TemplateLanguage = 'cuda-cpp' | 'cpp' | 'python' | 'toml';

export interface FileTemplate {
  language: TemplateLanguage;
  name: string;
  description: string;
  body: string;  // VS Code snippet syntax
}

export interface TemplatePick extends PickItem {
  template: FileTemplate;
}

// The order of the languages after the file's own: kernels, then their bindings, the Python
// package and tests, build.toml.
const languageOrder: TemplateLanguage[] = ['cuda-cpp', 'cpp', 'python', 'toml'];

const languageNames: Record<TemplateLanguage, string> = { 'cuda-cpp': 'CUDA C++', cpp: 'C++', python: 'Python', toml: 'TOML' };

const languageOfExtension: Record<string, TemplateLanguage> = {
  '.cu': 'cuda-cpp', '.cuh': 'cuda-cpp',
  '.cpp': 'cpp', '.cc': 'cpp', '.cxx': 'cpp', '.h': 'cpp', '.hpp': 'cpp', '.hh': 'cpp',
  '.py': 'python', '.toml': 'toml',
};

function isTemplateLanguage(id: string): id is TemplateLanguage {
  return (languageOrder as string[]).includes(id);
}

// A file's language as its name says it (a .cu is CUDA C++ whatever the editor was told), else
// the editor's language id.
export function fileLanguage(fileName: string, languageId: string): string {
  return languageOfExtension[path.extname(fileName).toLowerCase()] ?? languageId;
}

// The language the file keeps after a template is written: its own, unless it has none yet
// (an untitled plain-text file), which takes the template's, as VS Code's command does.
export function languageAfterFill(fileName: string, languageId: string, template: FileTemplate): string {
  const own = fileLanguage(fileName, languageId);
  return own === 'plaintext' ? template.language : own;
}

interface SnippetFileEntry {
  body?: unknown;
  description?: unknown;
}

// The templates of the generated snippet files (language → the file's JSON object).
export function templatesOf(files: Partial<Record<string, Record<string, SnippetFileEntry>>>): FileTemplate[] {
  const templates: FileTemplate[] = [];
  for (const language of languageOrder) {
    for (const [name, entry] of Object.entries(files[language] ?? {})) {
      const body = Array.isArray(entry.body) ? entry.body.join('\n') : typeof entry.body === 'string' ? entry.body : undefined;
      if (body === undefined) continue;
      templates.push({ language, name, description: typeof entry.description === 'string' ? entry.description : name, body });
    }
  }
  return templates;
}

// The picks, the file's language first (CUDA C++ kernels in a .cu, C++ bindings in a .cpp), then
// the others in languageOrder; each says its language.
export function templatePicks(templates: FileTemplate[], language: string): TemplatePick[] {
  const first = isTemplateLanguage(language) ? [language] : [];
  const order = [...first, ...languageOrder.filter((l) => l !== language)];
  return order.flatMap((l) => templates.filter((t) => t.language === l).map((template) => ({
    label: template.name,
    description: languageNames[template.language],
    detail: template.description,
    template,
  })));
}

export interface TemplateEditor {
  fileName: string;
  languageId: string;
}

export interface TemplateHost {
  activeEditor(): TemplateEditor | undefined;
  templates(): FileTemplate[];
  pick<T extends PickItem>(items: T[], placeholder: string): Promise<T | undefined>;
  showInfo(message: string): Promise<unknown>;
  // Replaces the active editor's whole text with the snippet and sets its language to `language`
  // when it is another.
  fill(body: string, language: string): Promise<void>;
}

export async function fillFileWithSnippet(host: TemplateHost): Promise<void> {
  const editor = host.activeEditor();
  if (!editor) {
    await host.showInfo('kernel-lsp: open a file to fill with a snippet.');
    return;
  }
  const language = fileLanguage(editor.fileName, editor.languageId);
  const picked = await host.pick(templatePicks(host.templates(), language), `Fill ${path.basename(editor.fileName)} with which snippet?`);
  if (!picked) return;
  await host.fill(picked.template.body, languageAfterFill(editor.fileName, editor.languageId, picked.template));
}
