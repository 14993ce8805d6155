import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultSettings, readSettings } from '../src/settings';

test('settings keep their defaults for missing or mistyped values', () => {
  const values: Record<string, unknown> = {
    path: '/opt/kernel-lsp', extraFlags: ['-DX', 3], severities: { 'smem-limit': 'off', bad: 1 }, logLevel: 7,
    defaultArchs: 'not a list',
  };
  const s = readSettings((key) => values[key]);
  assert.equal(s.path, '/opt/kernel-lsp');
  assert.deepEqual(s.extraFlags, ['-DX']);
  assert.deepEqual(s.severities, { 'smem-limit': 'off' });
  assert.equal(s.logLevel, 'info');
  assert.deepEqual(s.defaultArchs, []);
  assert.deepEqual(readSettings(() => undefined), defaultSettings);
});

test('an unknown log level falls back to info rather than reaching the server', () => {
  assert.equal(readSettings((key) => (key === 'logLevel' ? 'verbose' : undefined)).logLevel, 'info');
  assert.equal(readSettings((key) => (key === 'logLevel' ? 'debug' : undefined)).logLevel, 'debug');
});
