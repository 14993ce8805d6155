// kernel-lsp: Fill File with Snippet: the file's language first, and the file keeps its language.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { PickItem } from '../src/commandHost';
import { fileLanguage, fillFileWithSnippet, templatePicks, templatesOf, type FileTemplate, type TemplateHost } from '../src/fileTemplates';
import { snippetFiles } from '../tools/snippetTemplates';

const templates: FileTemplate[] = [
  { language: 'cpp', name: 'TORCH_LIBRARY_EXPAND registration', description: 'binding', body: '#include <torch/library.h>' },
  { language: 'cuda-cpp', name: 'RMSNorm row kernel', description: 'kernel', body: '#include <cuda_runtime.h>\n__global__ void ${1:k}() {}' },
  { language: 'python', name: 'pytest', description: 'test', body: 'import torch' },
  { language: 'toml', name: 'build.toml', description: 'toml', body: '[general]' },
];

class RecordingTemplateHost implements TemplateHost {
  calls: string[] = [];
  offered: PickItem[] = [];
  constructor(private readonly editor: { fileName: string; languageId: string } | undefined, private readonly choose: (items: PickItem[]) => PickItem | undefined) {}
  activeEditor() { return this.editor; }
  templates() { return templates; }
  pick<T extends PickItem>(items: T[], placeholder: string) {
    this.offered = items;
    this.calls.push(`pick ${placeholder}`);
    return Promise.resolve(this.choose(items) as T | undefined);
  }
  showInfo(message: string) { this.calls.push(`info ${message}`); return Promise.resolve(); }
  fill(body: string, language: string) { this.calls.push(`fill ${language}: ${body.split('\n')[0]}`); return Promise.resolve(); }
}

test('in a .cu the kernel templates come first, in a .cpp the binding templates', () => {
  assert.deepEqual(templatePicks(templates, 'cuda-cpp').map((p) => p.description), ['CUDA C++', 'C++', 'Python', 'TOML']);
  assert.deepEqual(templatePicks(templates, 'cpp').map((p) => p.description), ['C++', 'CUDA C++', 'Python', 'TOML']);
  assert.deepEqual(templatePicks(templates, 'plaintext').map((p) => p.description), ['CUDA C++', 'C++', 'Python', 'TOML']);
  assert.equal(fileLanguage('/p/csrc/k.cu', 'cpp'), 'cuda-cpp', 'a .cu is CUDA C++ whatever the editor was told');
  assert.equal(fileLanguage('/p/torch-ext/torch_binding.cpp', 'cpp'), 'cpp');
  assert.equal(fileLanguage('Untitled-1', 'plaintext'), 'plaintext');
});

test('filling a .cu keeps it CUDA C++, even with a C++ template', async () => {
  const host = new RecordingTemplateHost({ fileName: '/p/csrc/k.cu', languageId: 'cuda-cpp' }, (items) => items.find((i) => i.description === 'C++'));
  await fillFileWithSnippet(host);
  assert.equal(host.offered[0].label, 'RMSNorm row kernel');
  assert.deepEqual(host.calls, ['pick Fill k.cu with which snippet?', 'fill cuda-cpp: #include <torch/library.h>']);
  // A .cu that VS Code's own command had turned into C++ gets its language back.
  const switched = new RecordingTemplateHost({ fileName: '/p/csrc/k.cu', languageId: 'cpp' }, (items) => items[0]);
  await fillFileWithSnippet(switched);
  assert.deepEqual(switched.calls.slice(1), ['fill cuda-cpp: #include <cuda_runtime.h>']);
});

test('an untitled plain-text file takes the template\'s language; no editor, no pick', async () => {
  const host = new RecordingTemplateHost({ fileName: 'Untitled-1', languageId: 'plaintext' }, (items) => items.find((i) => i.description === 'Python'));
  await fillFileWithSnippet(host);
  assert.deepEqual(host.calls.slice(1), ['fill python: import torch']);
  const none = new RecordingTemplateHost(undefined, (items) => items[0]);
  await fillFileWithSnippet(none);
  assert.deepEqual(none.calls, ['info kernel-lsp: open a file to fill with a snippet.']);
  const dismissed = new RecordingTemplateHost({ fileName: '/p/k.cu', languageId: 'cuda-cpp' }, () => undefined);
  await fillFileWithSnippet(dismissed);
  assert.equal(dismissed.calls.length, 1);
});

const dataDir = path.resolve(__dirname, '..', '..', 'snippets');
const hasData = fs.existsSync(dataDir);

test('every contributed template is offered, the C++ ones included', { skip: !hasData && 'no snippets/ data' }, () => {
  const sources = fs.readdirSync(dataDir).filter((f) => f.endsWith('.toml')).map((f) => ({ name: f, text: fs.readFileSync(path.join(dataDir, f), 'utf8') }));
  const { files, templates: count } = snippetFiles(sources);
  const offered = templatesOf(files);
  assert.equal(offered.length, count);
  assert.ok(offered.some((t) => t.language === 'cpp'), 'the binding templates');
  const picks = templatePicks(offered, 'cuda-cpp');
  assert.equal(picks[0].template.language, 'cuda-cpp');
  assert.ok(picks.every((p) => !p.template.body.includes('\r')));
});
