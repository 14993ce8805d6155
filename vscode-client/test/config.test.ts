import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  defaultSettings, findProjectDir, initializationOptions, readSettings, serverCommand, wordAt,
} from '../src/config';

test('settings keep defaults for missing or mistyped values', () => {
  const values: Record<string, unknown> = {
    path: '/opt/kernel-lsp', extraFlags: ['-DX', 3], severities: { 'smem-limit': 'off', bad: 1 }, logLevel: 7,
  };
  const s = readSettings((key) => values[key]);
  assert.equal(s.path, '/opt/kernel-lsp');
  assert.deepEqual(s.extraFlags, ['-DX']);
  assert.deepEqual(s.severities, { 'smem-limit': 'off' });
  assert.equal(s.logLevel, 'info');
  assert.deepEqual(s.defaultArchs, []);
});

test('the server is kernel-lsp serve --stdio, found by setting, env, then PATH', () => {
  assert.deepEqual(serverCommand(defaultSettings, {}).command, 'kernel-lsp');
  assert.deepEqual(serverCommand(defaultSettings, {}).args, ['serve', '--stdio']);
  assert.equal(serverCommand(defaultSettings, { KERNEL_LSP_PATH: '/env/kl' }).command, '/env/kl');
  const configured = { ...defaultSettings, path: '${workspaceFolder}/build/cli/kernel-lsp', logLevel: 'debug' };
  const command = serverCommand(configured, { KERNEL_LSP_PATH: '/env/kl' }, '/ws');
  assert.equal(command.command, '/ws/build/cli/kernel-lsp');
  assert.deepEqual(command.env, { KERNEL_LSP_LOG: 'debug' });
  assert.equal(serverCommand({ ...defaultSettings, path: '~/bin/kl' }, { HOME: '/home/me' }).command, '/home/me/bin/kl');
});

test('initialization options carry what the server reads', () => {
  const options = initializationOptions({ ...defaultSettings, cudaPath: '/usr/local/cuda', defaultArchs: ['8.0'] });
  assert.deepEqual(options, {
    cudaPath: '/usr/local/cuda', extraFlags: [], defaultArchs: ['8.0'], severities: {}, disabledRules: [],
    workspaceTrusted: true,
  });
  assert.equal('cudaPath' in initializationOptions(defaultSettings), false);
  assert.equal('torchIncludePath' in initializationOptions(defaultSettings), false);
  assert.deepEqual(initializationOptions({ ...defaultSettings, torchIncludePath: ['/opt/torch/include'] })
    .torchIncludePath, ['/opt/torch/include']);
  assert.equal('cutlassPath' in initializationOptions(defaultSettings), false);
  assert.deepEqual(initializationOptions({ ...defaultSettings, cutlassPath: ['/opt/cutlass'] }).cutlassPath,
    ['/opt/cutlass']);
});

test('the project is the folder of the nearest build.toml above', () => {
  const files = new Set(['/p/build.toml', '/p/inner/build.toml']);
  const exists = (p: string) => files.has(p);
  assert.equal(findProjectDir('/p/csrc/k.cu', exists), '/p');
  assert.equal(findProjectDir('/p/inner/x/k.cu', exists), '/p/inner');
  assert.equal(findProjectDir('/elsewhere/k.cu', exists), undefined);
});

test('the word under the cursor includes dotted PTX names', () => {
  assert.equal(wordAt('  int s = __reduce_add_sync(m, v);', 14), '__reduce_add_sync');
  assert.equal(wordAt('asm("cp.async.ca.shared.global");', 10), 'cp.async.ca.shared.global');
  assert.equal(wordAt('a + b', 2), undefined);
  assert.equal(wordAt('x', 1), 'x');
});

test('the workspace trust and the benchmark runner reach the server', () => {
  assert.equal(initializationOptions(defaultSettings).workspaceTrusted, true);
  assert.equal(initializationOptions(defaultSettings, false).workspaceTrusted, false);
  assert.equal('benchRunner' in initializationOptions(defaultSettings), false);
  const settings = readSettings((key) => (key === 'benchRunner' ? 'ssh gpu-box sh' : undefined));
  assert.equal(initializationOptions(settings).benchRunner, 'ssh gpu-box sh');
});
