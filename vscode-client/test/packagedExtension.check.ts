// Checks of the packaged .vsix (run after `npm run package`, by `npm run check:vsix`): what VS
// Code reads from it — the manifest's languages, commands, views, settings, task type, problem
// matcher, snippets, activation events and workspace-trust declaration — and that the bundle and the
// snippets are inside while sources and node_modules are not.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, test } from 'node:test';
import * as yauzl from 'yauzl';
import { lintLinePattern } from '../src/lintTask';
import { hasKernelProjectKey, refreshReportsCommand, reportPanelViewType, reportsViewId } from '../src/reportList';

const extensionDir = path.resolve(__dirname, '..');
const entries = new Map<string, Buffer>();
let vsixPath = '';
let vsixBytes = 0;

function readZip(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const out = new Map<string, Buffer>();
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => { out.set(entry.fileName, Buffer.concat(chunks)); zip.readEntry(); });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

interface Manifest {
  main: string;
  engines: { vscode: string };
  activationEvents: string[];
  contributes: {
    languages: { id: string; extensions?: string[]; filenames?: string[] }[];
    commands: { command: string; title: string; icon?: string }[];
    views?: Record<string, { id: string; name: string; when?: string }[]>;
    configuration: { properties: Record<string, unknown> };
    snippets: { language: string; path: string }[];
    taskDefinitions: { type: string; properties: Record<string, unknown> }[];
    problemMatchers: { name: string; owner: string; fileLocation: unknown; pattern: Record<string, unknown> }[];
    menus: Record<string, { command: string; when?: string }[]>;
  };
  capabilities: { untrustedWorkspaces: { supported: string | boolean; restrictedConfigurations?: string[]; description?: string } };
}

let manifest: Manifest;

before(async () => {
  const candidates = fs.readdirSync(extensionDir).filter((f) => f.endsWith('.vsix'))
    .map((f) => path.join(extensionDir, f)).sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  assert.ok(candidates.length > 0, 'no .vsix: run `npm run package` first');
  vsixPath = candidates[0];
  vsixBytes = fs.statSync(vsixPath).size;
  for (const [name, data] of await readZip(vsixPath)) entries.set(name, data);
  manifest = JSON.parse(entries.get('extension/package.json')?.toString('utf8') ?? '{}') as Manifest;
});

test('the bundle and the snippets are inside; sources, tests and node_modules are not', () => {
  assert.ok(entries.has('extension/dist/extension.js'), [...entries.keys()].join(', '));
  assert.equal(manifest.main, './dist/extension.js');
  const names = [...entries.keys()];
  for (const bad of [/node_modules\//, /\.ts$/, /\.map$/, /^extension\/(src|test|tools|out-)/, /\.vsix$/])
    assert.ok(!names.some((n) => bad.test(n)), `${bad}: ${names.filter((n) => bad.test(n)).join(', ')}`);
  const bundle = entries.get('extension/dist/extension.js')?.toString('utf8') ?? '';
  assert.ok(/require\("vscode"\)/.test(bundle), 'vscode stays external');
  assert.ok(!/require\("vscode-languageclient/.test(bundle), 'the language client is bundled');
  assert.ok(vsixBytes < 1_000_000, `${vsixPath} is ${vsixBytes} bytes`);
});

test('languages: CUDA sources and build.toml', () => {
  const cuda = manifest.contributes.languages.find((l) => l.id === 'cuda-cpp');
  assert.deepEqual(cuda?.extensions, ['.cu', '.cuh']);
  const toml = manifest.contributes.languages.find((l) => l.id === 'toml');
  assert.deepEqual(toml?.filenames, ['build.toml']);
});

test('activation on CUDA files, build.toml and SKILL.md, and to restore a report panel', () => {
  for (const event of ['onLanguage:cuda-cpp', 'onLanguage:toml', 'onLanguage:markdown', 'workspaceContains:**/build.toml', 'workspaceContains:**/SKILL.md', 'onTaskType:kernel-lsp',
    `onWebviewPanel:${reportPanelViewType}`])
    assert.ok(manifest.activationEvents.includes(event), event);
  // The panel's viewType in the bundle is the one the activation event names.
  assert.ok(entries.get('extension/dist/extension.js')?.toString('utf8').includes(`"${reportPanelViewType}"`), reportPanelViewType);
});

test('views: Benchmark Reports in the Explorer of kernel projects, with a refresh button', () => {
  const view = manifest.contributes.views?.explorer?.find((v) => v.id === reportsViewId);
  assert.ok(view, JSON.stringify(manifest.contributes.views));
  assert.equal(view.name, 'Benchmark Reports');
  assert.equal(view.when, hasKernelProjectKey);
  const refresh = manifest.contributes.commands.find((c) => c.command === refreshReportsCommand);
  assert.equal(refresh?.icon, '$(refresh)');
  assert.ok(manifest.contributes.menus['view/title']?.some((m) => m.command === refreshReportsCommand && m.when === `view == ${reportsViewId}`),
    JSON.stringify(manifest.contributes.menus['view/title']));
  // The bundle registers the tree under the view's id and sets the key the view's `when` reads.
  const bundle = entries.get('extension/dist/extension.js')?.toString('utf8') ?? '';
  for (const id of [reportsViewId, refreshReportsCommand, hasKernelProjectKey]) assert.ok(bundle.includes(`"${id}"`), id);
});

test('commands: build, benchmark, tests, cancel, guidance, skill install, report, log, restart', () => {
  const commands = manifest.contributes.commands.map((c) => c.command);
  for (const c of ['kernelLsp.build', 'kernelLsp.bench', 'kernelLsp.test', 'kernelLsp.cancel', 'kernelLsp.showGuidance', 'kernelLsp.installSkill',
    'kernelLsp.openBenchReport', 'kernelLsp.showLog', 'kernelLsp.restartServer'])
    assert.ok(commands.includes(c), c);
  // The report view opens from a report's editor title and the explorer.
  for (const menu of ['editor/title', 'explorer/context'])
    assert.ok(manifest.contributes.menus[menu]?.some((m) => m.command === 'kernelLsp.openBenchReport' && m.when?.includes('report.md')), menu);
  assert.ok(manifest.contributes.menus.commandPalette.some((m) => m.command === 'kernelLsp.statusMenu' && m.when === 'false'));
});

test('settings: the server path and what the server reads', () => {
  const keys = Object.keys(manifest.contributes.configuration.properties);
  for (const k of ['path', 'cudaPath', 'extraFlags', 'torchIncludePath', 'cutlassPath', 'defaultArchs', 'severities', 'disabledRules', 'logLevel', 'trace.server', 'benchRunner', 'docsBaseUrl'])
    assert.ok(keys.includes(`kernelLsp.${k}`), k);
});

test('the kernel-lsp task type and its problem matcher', () => {
  const task = manifest.contributes.taskDefinitions.find((t) => t.type === 'kernel-lsp');
  assert.deepEqual(Object.keys(task?.properties ?? {}).sort(), ['args', 'paths', 'severity']);
  const matcher = manifest.contributes.problemMatchers.find((m) => m.name === 'kernel-lsp');
  assert.ok(matcher);
  assert.equal(matcher.pattern.regexp, lintLinePattern);
  assert.deepEqual([matcher.pattern.file, matcher.pattern.line, matcher.pattern.column, matcher.pattern.severity, matcher.pattern.message, matcher.pattern.code], [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(matcher.fileLocation, ['autoDetect', '${workspaceFolder}']);
});

test('snippets: one file template file per language, each inside the package and not empty', () => {
  assert.deepEqual(manifest.contributes.snippets.map((s) => s.language).sort(), ['cpp', 'cuda-cpp', 'python', 'toml']);
  for (const s of manifest.contributes.snippets) {
    const data = entries.get(`extension/${s.path.replace(/^\.\//, '')}`);
    assert.ok(data, s.path);
    const snippets = JSON.parse(data.toString('utf8')) as Record<string, { isFileTemplate?: boolean; prefix?: string; body: string[] }>;
    assert.ok(Object.keys(snippets).length > 0, `${s.path} is empty`);
    for (const [name, snippet] of Object.entries(snippets)) {
      // C++ templates are offered by kernelLsp.fillFileWithSnippet, not VS Code's command (tools/snippetTemplates.ts).
      assert.equal(snippet.isFileTemplate, s.language === 'cpp' ? undefined : true, name);
      assert.equal(snippet.prefix, undefined, name);
    }
  }
  // isFileTemplate needs VS Code 1.80.
  assert.match(manifest.engines.vscode, /^\^1\.(8\d|9\d|1\d\d)\./);
});

test('untrusted workspaces: limited, and the settings that run programs are the user\'s only', () => {
  const trust = manifest.capabilities.untrustedWorkspaces;
  assert.equal(trust.supported, 'limited');
  assert.ok((trust.description ?? '').length > 20);
  for (const k of ['kernelLsp.path', 'kernelLsp.benchRunner', 'kernelLsp.cudaPath', 'kernelLsp.extraFlags'])
    assert.ok(trust.restrictedConfigurations?.includes(k), k);
});
