import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandPath, resolveServerPath } from '../src/serverPath';

const executables = (...files: string[]) => (file: string) => files.includes(file);

test('the setting wins, then $KERNEL_LSP_PATH, then PATH', () => {
  const isExecutable = executables('/opt/kl/kernel-lsp', '/env/kernel-lsp', '/usr/local/bin/kernel-lsp');
  const env = { KERNEL_LSP_PATH: '/env/kernel-lsp', PATH: '/usr/bin:/usr/local/bin' };
  assert.deepEqual(resolveServerPath({ setting: '/opt/kl/kernel-lsp', env, isExecutable, platform: 'linux' }),
    { found: true, path: '/opt/kl/kernel-lsp', source: 'setting' });
  assert.deepEqual(resolveServerPath({ setting: '', env, isExecutable, platform: 'linux' }),
    { found: true, path: '/env/kernel-lsp', source: 'environment' });
  assert.deepEqual(resolveServerPath({ setting: ' ', env: { PATH: env.PATH }, isExecutable, platform: 'linux' }),
    { found: true, path: '/usr/local/bin/kernel-lsp', source: 'PATH' });
});

test('in a remote window an empty setting is explained as the machine setting it is', () => {
  const result = resolveServerPath({ setting: '', env: { PATH: '/usr/bin' }, isExecutable: () => false, platform: 'linux', remoteName: 'ssh-remote' });
  assert.ok(!result.found && result.fixInSettings);
  assert.match(result.message, /remote machine \(ssh-remote\).*Remote settings, not from your User settings/);
});

test('a setting that names a missing file is an error, not a fall-through to PATH', () => {
  const result = resolveServerPath({
    setting: '/nowhere/kernel-lsp', env: { PATH: '/usr/local/bin' }, platform: 'linux',
    isExecutable: executables('/usr/local/bin/kernel-lsp'),
  });
  assert.equal(result.found, false);
  assert.ok(!result.found && result.fixInSettings && /kernelLsp\.path.*\/nowhere\/kernel-lsp.*not an executable/.test(result.message));
  const fromEnv = resolveServerPath({ setting: '', env: { KERNEL_LSP_PATH: '/gone' }, platform: 'linux', isExecutable: () => false });
  assert.ok(!fromEnv.found && !fromEnv.fixInSettings && fromEnv.message.includes('$KERNEL_LSP_PATH'));
});

test('nothing anywhere: the message names all three places', () => {
  const result = resolveServerPath({ setting: '', env: { PATH: '/usr/bin' }, platform: 'linux', isExecutable: () => false });
  assert.ok(!result.found);
  assert.match(result.message, /kernelLsp\.path is empty, \$KERNEL_LSP_PATH is not set, and there is no kernel-lsp on PATH/);
});

test('~, ${workspaceFolder} and workspace-relative paths are expanded; bare names are looked up on PATH', () => {
  assert.equal(expandPath('~/bin/kernel-lsp', { HOME: '/home/me' }), '/home/me/bin/kernel-lsp');
  assert.equal(expandPath('${workspaceFolder}/build/cli/kernel-lsp', {}, '/ws'), '/ws/build/cli/kernel-lsp');
  assert.equal(expandPath('build/cli/kernel-lsp', {}, '/ws'), '/ws/build/cli/kernel-lsp');
  const result = resolveServerPath({ setting: 'kernel-lsp-dev', env: { PATH: '/a:/b' }, platform: 'linux', isExecutable: executables('/b/kernel-lsp-dev') });
  assert.deepEqual(result, { found: true, path: '/b/kernel-lsp-dev', source: 'setting' });
});

test('Windows: PATH is split at ; and PATHEXT suffixes are tried', () => {
  const result = resolveServerPath({
    setting: '', env: { Path: 'C:\\tools;C:\\kl', PATHEXT: '.COM;.EXE' }, platform: 'win32',
    isExecutable: (f) => f.endsWith('kernel-lsp.exe') && f.startsWith('C:\\kl'),
  });
  assert.ok(result.found && result.source === 'PATH');
});
