// The contributed snippets, made from the repository's snippet data by tools/snippetTemplates.ts
// (and written by tools/generateSnippets.ts, run here as the build runs it).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { buildSync } from 'esbuild';
import { fileTemplateLanguages, isWholeFile, SnippetDataError, snippetFiles, type SnippetSource } from '../tools/snippetTemplates';

const extensionDir = path.resolve(__dirname, '..');
const dataDir = path.resolve(extensionDir, '..', 'snippets');
const sources: SnippetSource[] = fs.existsSync(dataDir)
  ? fs.readdirSync(dataDir).filter((f) => f.endsWith('.toml')).map((f) => ({ name: f, text: fs.readFileSync(path.join(dataDir, f), 'utf8') }))
  : [];
const noData = sources.length === 0 && 'no snippets/ data beside the extension';

test('every snippet of the data is either a contributed file template or left to the server', { skip: noData }, () => {
  const { files, templates, fragments } = snippetFiles(sources);
  const declared = sources.reduce((n, s) => n + (s.text.match(/^\[\[snippet\]\]/gm) ?? []).length, 0);
  assert.equal(templates + fragments, declared);
  assert.ok(templates > 0 && fragments > 0, `${templates} templates, ${fragments} fragments`);
  for (const [language, snippets] of Object.entries(files)) {
    for (const [name, snippet] of Object.entries(snippets)) {
      // C++ templates would come before CUDA C++ ones in VS Code's Fill File with Snippet and
      // turn a .cu into C++: kernel-lsp's own command offers them.
      assert.equal(snippet.isFileTemplate, language === 'cpp' ? undefined : true, name);
      assert.equal('prefix' in snippet, false, `${name}: a prefix would put it in completion beside the server's`);
      assert.ok(snippet.body.length > 1 && snippet.description.length > 0, name);
      if (language === 'cuda-cpp') assert.ok(snippet.body.some((l) => l.startsWith('#include')), `${name} is not a whole translation unit`);
    }
  }
});

test('kernel templates, bindings, a new build.toml and tests are templates; device helpers and build.toml tables are not', { skip: noData }, () => {
  const byId = new Map<string, Record<string, unknown>>();
  for (const source of sources)
    for (const block of source.text.split(/^\[\[snippet\]\]/m).slice(1)) {
      const id = /^id\s*=\s*"([^"]+)"/m.exec(block)?.[1];
      const context = /^context\s*=\s*"([^"]+)"/m.exec(block)?.[1];
      const wrapper = /^compile_wrapper\s*=/m.test(block);
      if (id) byId.set(id, { context, ...(wrapper ? { compile_wrapper: 'x' } : {}) });
    }
  const expectations: [string, boolean][] = [
    ['rmsnorm-row', true], ['torch-library-expand', true], ['build-toml', true], ['python-init', true],
    ['pytest-float64', true], ['warp-sum', false], ['build-toml-kernel-table', false], ['build-toml-capabilities', false],
  ];
  for (const [id, whole] of expectations) {
    const table = byId.get(id);
    if (!table) continue;  // renamed in the data: the count test above still covers it
    assert.equal(isWholeFile(table), whole, id);
  }
  assert.equal(isWholeFile({}), true, 'no context: the language\'s old place, a whole file');
  assert.equal(isWholeFile({ context: ['cuda-device-code', 'cuda-host-code'] }), false);
  assert.equal(isWholeFile({ context: 'cuda-file-scope', compile_wrapper: '__global__ void k() {\n{{snippet}}\n}' }), false);
  assert.equal(isWholeFile({ context: 'some-future-context' }), false);
});

test('bad data is an error that names the file, the line and the snippet', () => {
  assert.throws(() => snippetFiles([{ name: 'broken.toml', text: '[[snippet]]\nid = "x"\nname = \n' }]),
    (e: unknown) => e instanceof SnippetDataError && /^broken\.toml:3:\d+: /.test(e.message));
  assert.throws(() => snippetFiles([{ name: 'a.toml', text: '[[snippet]]\nid = "x"\nname = "X"\nlanguage = "rust"\nbody = "b"\n' }]),
    (e: unknown) => e instanceof SnippetDataError && e.message === 'a.toml: snippet 1 (x): unknown language "rust" (cuda, cpp, python, toml)');
  assert.throws(() => snippetFiles([{ name: 'a.toml', text: '[[snippet]]\nid = "x"\nlanguage = "cuda"\nbody = "b"\n' }]),
    (e: unknown) => e instanceof SnippetDataError && /"name" must be a non-empty string/.test(e.message));
  // Unknown keys are the data's business, not the extension's.
  const { templates } = snippetFiles([{ name: 'a.toml', text: '[[snippet]]\nid = "x"\nname = "X"\nlanguage = "toml"\nbody = "a\\nb"\nfuture = 1\n' }]);
  assert.equal(templates, 1);
});

function generator(): string {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'kl-snippets-tool-'));
  const outfile = path.join(out, 'tools', 'generateSnippets.js');
  buildSync({ entryPoints: [path.join(extensionDir, 'tools', 'generateSnippets.ts')], bundle: true, platform: 'node', format: 'cjs', outfile, logLevel: 'silent', absWorkingDir: extensionDir });
  return outfile;
}

test('the build step fails, saying what to do, when it has no data', () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'kl-no-snippets-'));
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'kl-snippets-out-'));
  const run = spawnSync(process.execPath, [generator(), '--snippets', empty, '--out', out], { encoding: 'utf8', env: { ...process.env, KERNEL_LSP_SNIPPETS_DIR: '' } });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /no snippet data \(\*\.toml\) in .*KERNEL_LSP_SNIPPETS_DIR/);
  assert.deepEqual(fs.readdirSync(out), [], 'nothing written');
});

test('the build step writes one file per language from data given outside the repository', { skip: noData }, () => {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'kl-data-'));
  for (const s of sources) fs.writeFileSync(path.join(copy, s.name), s.text);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'kl-snippets-out-'));
  const run = spawnSync(process.execPath, [generator(), '--out', out], { encoding: 'utf8', env: { ...process.env, KERNEL_LSP_SNIPPETS_DIR: copy } });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(fs.readdirSync(out).sort(), ['cpp.code-snippets', 'cuda-cpp.code-snippets', 'python.code-snippets', 'toml.code-snippets']);
  for (const file of fs.readdirSync(out)) {
    const snippets = JSON.parse(fs.readFileSync(path.join(out, file), 'utf8')) as Record<string, unknown>;
    assert.ok(Object.keys(snippets).length > 0, `${file} is empty`);
  }
});

test('no template language sorts before CUDA C++ in VS Code\'s Fill File with Snippet, which orders by language id', () => {
  const ids = [...fileTemplateLanguages].sort();
  assert.equal(ids[0], 'cuda-cpp');
  assert.equal(fileTemplateLanguages.has('cpp'), false);
});
