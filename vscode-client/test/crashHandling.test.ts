import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crashMessage, describeExit, RestartPolicy } from '../src/crashPolicy';
import { LogTail } from '../src/logTail';

test('how the server ended is said in words', () => {
  assert.equal(describeExit({ code: null, signal: 'SIGSEGV' }), 'kernel-lsp was killed by SIGSEGV');
  assert.match(describeExit({ code: null, signal: 'SIGKILL' }), /out of memory/);
  assert.equal(describeExit({ code: 1, signal: null }), 'kernel-lsp exited with code 1');
  assert.match(describeExit({ code: 0, signal: null }), /without being asked/);
  assert.match(describeExit(undefined), /connection .* closed/);
});

test('the crash message ends with the last log lines', () => {
  const log = new LogTail(5);
  log.append('[info] started\n[error] worker 2 ');
  log.append('died: SIGSEGV in the access model\n\n[error] giving up\npartial');
  assert.deepEqual(log.last(), ['[info] started', '[error] worker 2 died: SIGSEGV in the access model', '[error] giving up', 'partial']);
  const message = crashMessage({ code: 134, signal: null }, log.last());
  assert.equal(message, 'kernel-lsp exited with code 134. Last log lines: [error] worker 2 died: SIGSEGV in the access model ⏎ [error] giving up ⏎ partial');
  assert.equal(crashMessage({ code: 2, signal: null }, []), 'kernel-lsp exited with code 2.');
});

test('the log tail keeps only the newest lines', () => {
  const log = new LogTail(3);
  for (let i = 1; i <= 10; i++) log.append(`line ${i}\n`);
  assert.deepEqual(log.last(), ['line 8', 'line 9', 'line 10']);
  log.clear();
  assert.deepEqual(log.last(), []);
});

test('automatic restarts stop after three crashes within three minutes', () => {
  const policy = new RestartPolicy(3, 180_000);
  const t0 = 1_000_000;
  assert.deepEqual(policy.onCrash(t0), { restart: true, attempt: 1, of: 3 });
  assert.deepEqual(policy.onCrash(t0 + 1000), { restart: true, attempt: 2, of: 3 });
  assert.deepEqual(policy.onCrash(t0 + 2000), { restart: true, attempt: 3, of: 3 });
  assert.deepEqual(policy.onCrash(t0 + 3000), { restart: false, crashes: 4, withinMinutes: 3 });
  // Crashes far apart are each restarted.
  assert.equal(policy.onCrash(t0 + 10 * 60_000).restart, true);
  // A restart by the user starts the count again.
  policy.onCrash(t0 + 10 * 60_000 + 1);
  policy.onCrash(t0 + 10 * 60_000 + 2);
  policy.reset();
  assert.equal(policy.onCrash(t0 + 10 * 60_000 + 3).restart, true);
});
