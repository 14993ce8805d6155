import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configurationSection, documentSelector, initializationOptions, serverLaunch } from '../src/serverLaunch';
import { defaultSettings } from '../src/settings';

test('the server is started as kernel-lsp serve --stdio with the log level in its environment', () => {
  const launch = serverLaunch('/opt/kernel-lsp', { ...defaultSettings, logLevel: 'debug' });
  assert.deepEqual(launch, { command: '/opt/kernel-lsp', args: ['serve', '--stdio'], env: { KERNEL_LSP_LOG: 'debug' } });
});

test('initializationOptions carry every setting the server reads, empty meaning its default', () => {
  const options = initializationOptions({ ...defaultSettings, cudaPath: '/usr/local/cuda', defaultArchs: ['8.0'] }, true);
  assert.deepEqual(options, {
    cudaPath: '/usr/local/cuda', extraFlags: [], torchIncludePath: [], cutlassPath: [], defaultArchs: ['8.0'], severities: {},
    disabledRules: [], benchRunner: '', docsBaseUrl: '', workspaceTrusted: true,
  });
  assert.deepEqual(initializationOptions({ ...defaultSettings, cutlassPath: ['/opt/cutlass'] }, true).cutlassPath, ['/opt/cutlass']);
  assert.equal(initializationOptions({ ...defaultSettings, benchRunner: 'ssh gpu sh' }, true).benchRunner, 'ssh gpu sh');
  assert.equal(initializationOptions({ ...defaultSettings, docsBaseUrl: 'https://h/skills/cuda-kernels' }, true).docsBaseUrl, 'https://h/skills/cuda-kernels');
});

test('the workspace trust always comes from VS Code, at start and in configuration answers', () => {
  assert.equal(initializationOptions(defaultSettings, false).workspaceTrusted, false);
  assert.equal(configurationSection(defaultSettings, false).workspaceTrusted, false);
  assert.equal('path' in configurationSection({ ...defaultSettings, path: '/x' }, true), false);
});

test('the document selector covers CUDA, kernel-project C++, build.toml, SKILL.md and project Python', () => {
  const languages = [...new Set(documentSelector.map((f) => f.language).filter(Boolean))];
  assert.deepEqual(languages.sort(), ['c', 'cpp', 'cuda', 'cuda-cpp', 'python']);
  const patterns = documentSelector.map((f) => f.pattern).filter(Boolean);
  assert.ok(patterns.includes('**/build.toml') && patterns.includes('**/SKILL.md'));
  assert.ok(documentSelector.every((f) => f.scheme === 'file'));
});
