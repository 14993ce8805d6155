import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lintLinePattern, lintTaskArgs } from '../src/lintTask';

test('the task runs kernel-lsp lint in plain text', () => {
  assert.deepEqual(lintTaskArgs({ type: 'kernel-lsp' }), ['lint', '--format', 'text', '--color', 'never', '.']);
  assert.deepEqual(lintTaskArgs({ type: 'kernel-lsp', paths: ['csrc', 'torch-ext'], severity: 'warning', args: ['--no-cache'] }),
    ['lint', '--format', 'text', '--color', 'never', '--severity', 'warning', '--no-cache', 'csrc', 'torch-ext']);
});

test('the problem matcher reads findings, and leaves excerpts, notes and the summary alone', () => {
  const pattern = new RegExp(lintLinePattern);
  const output = [
    'csrc/row_sum.cu:12:5: error: __reduce_add_sync needs sm_80; build.toml builds for sm_75 [arch-mismatch]',
    '    int s = __reduce_add_sync(0xffffffff, v);',
    '    ^~~~~~~~~~~~~~~~~',
    'build.toml:3:24: note: sm_75 is listed here',
    '/abs/path/k.cu:1:1: warning: a message with [brackets] inside [uncoalesced-access]',
    'C:\\work\\k.cu:7:9: info: windows path [misaligned-access]',
    'k.cu:2:3: error: first line of a message',
    'second line of it [frontend]',
    '1 error, 1 warning in 2 files (3 analysed in 0.4 s)',
  ];
  const matches = output.map((line) => pattern.exec(line)).filter((m): m is RegExpExecArray => m !== null);
  assert.deepEqual(matches.map((m) => [m[1], m[2], m[3], m[4], m[5], m[6]]), [
    ['csrc/row_sum.cu', '12', '5', 'error', '__reduce_add_sync needs sm_80; build.toml builds for sm_75', 'arch-mismatch'],
    ['/abs/path/k.cu', '1', '1', 'warning', 'a message with [brackets] inside', 'uncoalesced-access'],
    ['C:\\work\\k.cu', '7', '9', 'info', 'windows path', 'misaligned-access'],
    ['k.cu', '2', '3', 'error', 'first line of a message', undefined],
  ]);
});
