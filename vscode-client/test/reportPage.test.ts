import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { contentSecurityPolicy, parseBenchResults, reportPage, resolveImageSources } from '../src/reportPage';

const kernels = path.resolve(__dirname, '..', '..', 'kernels');
const reportFolders = fs.existsSync(kernels)
  ? fs.readdirSync(kernels).map((k) => path.join(kernels, k, 'benchmarks', 'reports')).filter((d) => fs.existsSync(path.join(d, 'results.json')))
  : [];

test('the reference kernels\' results.json files become a plot and one table per op', { skip: reportFolders.length === 0 && 'no kernels/*/benchmarks/reports here' }, () => {
  for (const folder of reportFolders) {
    const raw = JSON.parse(fs.readFileSync(path.join(folder, 'results.json'), 'utf8')) as { rows: { op: string; shape: string }[] };
    const results = parseBenchResults(raw);
    assert.ok(results, folder);
    assert.equal(results.rows.length, raw.rows.length, folder);
    const html = reportPage({ title: 'Benchmark', cspSource: 'vscode-webview://x', nonce: 'n0nce', plotSrc: 'vscode-webview://x/speedup.svg', results, reportPath: path.join(folder, 'report.md') });
    for (const op of new Set(raw.rows.map((r) => r.op))) assert.ok(html.includes(`<h2>${op.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</h2>`), `${folder}: ${op}`);
    for (const row of raw.rows) assert.ok(html.includes(`<td>${row.shape}</td>`), `${folder}: ${row.shape}`);
    assert.ok(html.includes('<img class="plot" src="vscode-webview://x/speedup.svg"'));
    assert.ok(!/<script/i.test(html));
  }
});

test('a row: time, bandwidth, % of copy, speedups with the best peer in bold and close calls marked', () => {
  const results = parseBenchResults({
    copy_gbs: 4273.3, machine: { gpu: 'NVIDIA H200', capability: '9.0', sm_count: 132 }, peers: ['eager', 'compile'],
    rows: [{ op: 'rms <norm>', shape: '2x4096', time_us: 16.83, gbs: 2990.7, pct_copy: 69.98, rounds: 3,
      speedup: { eager: 13.0, compile: 0.95 }, best_peer: 'compile', errors: { liger: 'not installed' } }, { op: 'bad' }],
  });
  assert.ok(results);
  assert.equal(results.rows.length, 1);
  const html = reportPage({ title: 'Benchmark: <x>', cspSource: 'src', nonce: 'abc', results, reportPath: '/p/benchmarks/reports/report.md' });
  assert.ok(html.includes('<tr><td>2x4096</td><td class="num">16.8 †</td><td class="num">2991</td><td class="num">70.0</td><td class="num">13.00×</td><td class="num slower"><strong>0.95×</strong></td><td class="num" title="not installed">failed</td></tr>'));
  assert.ok(html.includes('<h2>rms &lt;norm&gt;</h2>') && html.includes('<title>Benchmark: &lt;x&gt;</title>'));
  assert.ok(html.includes('NVIDIA H200 · capability 9.0 · 132 SMs · copy 4273 GB/s'));
});

test('the page allows no script, and images only from the webview\'s resource origin', () => {
  const csp = contentSecurityPolicy('https://file+.vscode-resource.vscode-cdn.net', 'n1');
  assert.match(csp, /^default-src 'none'; img-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net; style-src 'nonce-n1'; script-src 'none'/);
  const html = reportPage({ title: 't', cspSource: 'S', nonce: 'n1', reportPath: '/r.md', markdownHtml: '<p>x</p>' });
  assert.ok(html.includes(`content="${contentSecurityPolicy('S', 'n1')}"`));
  assert.ok(html.includes('<style nonce="n1">') && html.includes('<p>x</p>'));
});

test('rendered Markdown gets its relative images from the report folder only', () => {
  const html = '<p><img src="speedup.svg" alt="a"><img src="https://x/y.png"><img src="../../../etc/x.png"></p>';
  const resolved = resolveImageSources(html, (rel) => (rel.startsWith('..') ? undefined : `W/${rel}`));
  assert.equal(resolved, '<p><img src="W/speedup.svg" alt="a"><img src="https://x/y.png"><img src="../../../etc/x.png"></p>');
});
