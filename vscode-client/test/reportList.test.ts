// The Benchmark Reports view's data (src/reportList.ts) on real folders: kernel projects made in a
// temporary workspace, one with a copy of the reference rmsnorm kernel's report.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { projectDirs, projectReports, readProjectReport, reportDate, reportItemText } from '../src/reportList';

const exampleReports = path.resolve(__dirname, '..', '..', 'kernels', 'rmsnorm', 'benchmarks', 'reports');
const hasExample = fs.existsSync(path.join(exampleReports, 'results.json'));
let workspace = '';

function project(name: string): string {
  const dir = path.join(workspace, ...name.split('/'));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'build.toml'), `[general]\nname = "${path.basename(dir)}"\n`);
  return dir;
}

function reportsOf(dir: string): string {
  const reports = path.join(dir, 'benchmarks', 'reports');
  fs.mkdirSync(reports, { recursive: true });
  return reports;
}

before(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'kernel-lsp-reports-'));
});

after(() => {
  fs.rmSync(workspace, { recursive: true, force: true });
});

test('a benchmark\'s date: results.json\'s date_utc, else the newest history entry, else the file\'s time', () => {
  assert.equal(reportDate('2026-11-30T03:57:44+00:00', ['20261202T073301Z.json']), '2026-11-30 03:57 UTC');
  assert.equal(reportDate('2026-11-30T05:57:44+02:00', []), '2026-11-30 03:57 UTC', 'shown in UTC');
  assert.equal(reportDate('last tuesday', []), 'last tuesday', 'a date it cannot read is shown as written');
  assert.equal(reportDate(null, ['20261201T235959Z.json', '20261202T073301Z-2.json', '20261202T073301Z.json', 'notes.txt']),
    '2026-12-02 07:33 UTC');
  assert.equal(reportDate(null, ['notes.txt'], new Date(Date.UTC(2026, 0, 5, 9, 7))), '2026-01-05 09:07 UTC');
  assert.equal(reportDate(undefined, []), undefined);
});

test('projects are the folders of the build.toml files, each once, by name', () => {
  assert.deepEqual(projectDirs(['/w/rope/build.toml', '/w/a/rmsnorm/build.toml', '/w/rope/build.toml', '/w/x/pyproject.toml', '/w/b/rmsnorm/build.toml']),
    ['/w/a/rmsnorm', '/w/b/rmsnorm', '/w/rope']);
});

test('the reference rmsnorm report: its history gives the date, and the item opens its report.md', { skip: !hasExample && 'no kernels/rmsnorm/benchmarks/reports here' }, () => {
  const dir = project('kernels/rmsnorm');
  fs.cpSync(exampleReports, reportsOf(dir), { recursive: true });
  const newest = fs.readdirSync(path.join(exampleReports, 'history')).filter((f) => f.endsWith('.json')).sort().at(-1) ?? '';
  const stamp = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})/.exec(newest);
  assert.ok(stamp, newest);
  const found = readProjectReport(dir);
  assert.deepEqual(found, {
    name: 'rmsnorm', projectDir: dir, reportPath: path.join(dir, 'benchmarks', 'reports', 'report.md'),
    date: `${stamp[1]}-${stamp[2]}-${stamp[3]} ${stamp[4]}:${stamp[5]} UTC`,
  });
  const text = reportItemText(found);
  assert.equal(text.label, 'rmsnorm');
  assert.equal(text.description, found.date);
  assert.ok(text.tooltip.includes(dir) && text.tooltip.includes(found.reportPath ?? '?'), text.tooltip);
});

test('a workspace: projects without a report say so, a recorded date wins, a report.md alone counts', () => {
  const fresh = project('fresh');
  const dated = project('dated');
  fs.writeFileSync(path.join(reportsOf(dated), 'results.json'), JSON.stringify({ date_utc: '2026-11-30T03:57:44+00:00', rows: [] }));
  const undated = project('undated');
  const results = path.join(reportsOf(undated), 'results.json');
  fs.writeFileSync(results, '{ not json');
  fs.utimesSync(results, new Date(Date.UTC(2026, 5, 1, 12, 0)), new Date(Date.UTC(2026, 5, 1, 12, 0)));
  const markdownOnly = project('markdown-only');
  fs.writeFileSync(path.join(reportsOf(markdownOnly), 'report.md'), '# Benchmark\n');
  const emptyReports = project('empty-reports');
  reportsOf(emptyReports);

  const byName = new Map(projectReports([fresh, dated, undated, markdownOnly, emptyReports].map((d) => path.join(d, 'build.toml')))
    .map((p) => [p.name, p]));
  assert.deepEqual([...byName.keys()], ['dated', 'empty-reports', 'fresh', 'markdown-only', 'undated']);

  for (const name of ['fresh', 'empty-reports']) {
    const p = byName.get(name);
    assert.ok(p, name);
    assert.equal(p.reportPath, undefined, name);
    const text = reportItemText(p);
    assert.equal(text.description, 'no report yet', name);
    assert.match(text.tooltip, /Benchmark Kernel Project/);
  }
  assert.equal(reportItemText(byName.get('dated') ?? fail()).description, '2026-11-30 03:57 UTC');
  assert.equal(byName.get('undated')?.date, '2026-06-01 12:00 UTC', 'unreadable results.json: the file\'s time');
  const md = byName.get('markdown-only') ?? fail();
  assert.equal(md.reportPath, path.join(markdownOnly, 'benchmarks', 'reports', 'report.md'));
  assert.match(md.date ?? '', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
});

function fail(): never {
  throw new Error('missing project');
}
