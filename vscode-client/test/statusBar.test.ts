import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseFileStatus, smName } from '../src/fileStatus';
import { statusView } from '../src/statusBar';

const file = parseFileStatus({
  uri: 'file:///p/csrc/rms.cu', project: 'file:///p', buildToml: 'file:///p/build.toml',
  capabilities: ['8.0', '9.0a', '12.0+PTX'], capabilitiesFrom: 'build.toml line 9',
  lastBuild: { finishedAt: '2026-12-02T08:10:00Z', ok: true, cancelled: false, failedCompiles: 0, changedSince: [] },
});

test('capabilities are shown as nvcc names them', () => {
  assert.equal(smName('8.0'), 'sm_80');
  assert.equal(smName('9.0a'), 'sm_90a');
  assert.equal(smName('10.0f'), 'sm_100f');
  assert.equal(smName('12.0+PTX'), 'sm_120+PTX');
  assert.equal(smName('weird'), 'weird');
});

test('ready: state, the file\'s capabilities and where they come from', () => {
  const view = statusView({ state: 'ready', file });
  assert.equal(view.text, '$(check) kernel-lsp · sm_80 sm_90a sm_120+PTX');
  assert.match(view.tooltip, /checked for 8\.0, 9\.0a, 12\.0\+PTX \(from build\.toml line 9\)/);
  assert.match(view.tooltip, /Last build: 08:10 UTC, ok\./);
  assert.equal(view.alert, undefined);
});

test('a source changed since the last build makes it stale', () => {
  const stale = parseFileStatus({
    uri: 'file:///p/csrc/rms.cu', project: 'file:///p', capabilities: ['9.0'],
    lastBuild: { finishedAt: '2026-12-02T08:10:00Z', ok: false, cancelled: false, failedCompiles: 2,
      changedSince: ['file:///p/csrc/rms.cu', 'file:///p/csrc/a.cuh'] },
  });
  const view = statusView({ state: 'ready', file: stale, job: 'build' });
  assert.equal(view.text, '$(check) kernel-lsp · sm_90 · $(loading~spin) building · $(warning) build stale');
  assert.match(view.tooltip, /2 failed compiles/);
  assert.match(view.tooltip, /Changed since: rms\.cu, a\.cuh\./);
  assert.equal(view.alert, 'warning');
});

test('starting, stopped, crashed and not found say so, without stale file facts', () => {
  assert.equal(statusView({ state: 'starting', file }).text, '$(sync~spin) kernel-lsp');
  assert.equal(statusView({ state: 'stopped' }).text, '$(circle-slash) kernel-lsp: stopped');
  const crashed = statusView({ state: 'crashed', detail: 'kernel-lsp was killed by SIGSEGV.', file });
  assert.equal(crashed.text, '$(error) kernel-lsp: crashed');
  assert.match(crashed.tooltip, /SIGSEGV/);
  assert.equal(crashed.alert, 'error');
  assert.equal(statusView({ state: 'notFound' }).alert, 'error');
});

test('answers from older or newer servers are read field by field', () => {
  assert.equal(parseFileStatus(null), undefined);
  assert.equal(parseFileStatus({ capabilities: ['9.0'] }), undefined);
  const minimal = parseFileStatus({ uri: 'file:///x.cu', capabilities: null, lastBuild: null, extra: 1 });
  assert.deepEqual(minimal, { uri: 'file:///x.cu', project: undefined, buildToml: undefined, capabilities: undefined, capabilitiesFrom: undefined });
  assert.equal(statusView({ state: 'ready', file: minimal }).text, '$(check) kernel-lsp');
});
