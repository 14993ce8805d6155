// The benchmark report view's page: the plot (speedup.svg) and one table per op from the
// results.json that `kernel-lsp bench` writes beside its Markdown report
// (runner/bench_results.h), or the Markdown report rendered by VS Code when there is no
// results.json. Static HTML: no scripts, a Content-Security-Policy that allows only images from
// the webview's own resource origin (the report folder) and the page's one nonce'd style block.

export interface BenchRow {
  op: string;
  shape: string;
  timeUs: number;
  gbs?: number;
  pctCopy?: number;
  speedup: Record<string, number>;
  bestPeer?: string;
  rounds: number;
  errors: Record<string, string>;
}

export interface BenchResults {
  copyGbs?: number;
  date?: string;
  machine: Record<string, string | number>;
  peers: string[];
  rows: BenchRow[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function numbers(v: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (isRecord(v)) for (const [k, x] of Object.entries(v)) if (num(x) !== undefined) out[k] = x as number;
  return out;
}

// results.json → BenchResults; undefined when it is not one (a table of nothing helps nobody).
export function parseBenchResults(value: unknown): BenchResults | undefined {
  if (!isRecord(value) || !Array.isArray(value.rows)) return undefined;
  const rows: BenchRow[] = [];
  for (const r of value.rows) {
    if (!isRecord(r) || typeof r.op !== 'string' || typeof r.shape !== 'string' || num(r.time_us) === undefined) continue;
    const errors: Record<string, string> = {};
    if (isRecord(r.errors)) for (const [k, e] of Object.entries(r.errors)) errors[k] = String(e);
    rows.push({
      op: r.op, shape: r.shape, timeUs: r.time_us as number, gbs: num(r.gbs), pctCopy: num(r.pct_copy),
      speedup: numbers(r.speedup), bestPeer: typeof r.best_peer === 'string' ? r.best_peer : undefined,
      rounds: num(r.rounds) ?? 1, errors,
    });
  }
  if (rows.length === 0) return undefined;
  const machine: Record<string, string | number> = {};
  if (isRecord(value.machine))
    for (const [k, v] of Object.entries(value.machine)) if (typeof v === 'string' || typeof v === 'number') machine[k] = v;
  const peers = Array.isArray(value.peers) ? value.peers.filter((p): p is string => typeof p === 'string') : [];
  for (const row of rows)
    for (const peer of [...Object.keys(row.speedup), ...Object.keys(row.errors)]) if (!peers.includes(peer)) peers.push(peer);
  return {
    copyGbs: num(value.copy_gbs), date: typeof value.date_utc === 'string' ? value.date_utc : undefined,
    machine, peers, rows,
  };
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const fixed = (v: number | undefined, digits: number): string => (v === undefined ? '–' : v.toFixed(digits));

function machineLine(results: BenchResults): string {
  const m = results.machine;
  const parts = [m.gpu, m.capability !== undefined ? `capability ${m.capability}` : undefined,
    m.sm_count !== undefined ? `${m.sm_count} SMs` : undefined, m.torch !== undefined ? `torch ${m.torch}` : undefined,
    m.cuda !== undefined ? `CUDA ${m.cuda}` : undefined].filter((p) => p !== undefined).map(String);
  return parts.join(' · ');
}

function opTable(op: string, rows: BenchRow[], peers: string[]): string {
  const used = peers.filter((p) => rows.some((r) => p in r.speedup || p in r.errors));
  const head = ['shape', 'ours µs', 'GB/s', '% of copy', ...used.map((p) => `vs ${p}`)]
    .map((h, i) => `<th${i ? ' class="num"' : ''}>${escapeHtml(h)}</th>`).join('');
  const body = rows.map((r) => {
    const cells = [`<td>${escapeHtml(r.shape)}</td>`,
      `<td class="num">${fixed(r.timeUs, 1)}${r.rounds > 1 ? ' †' : ''}</td>`,
      `<td class="num">${fixed(r.gbs, 0)}</td>`, `<td class="num">${fixed(r.pctCopy, 1)}</td>`];
    for (const peer of used) {
      const s = r.speedup[peer];
      const text = s !== undefined ? `${s.toFixed(2)}×` : r.errors[peer] !== undefined ? 'failed' : '–';
      const title = r.errors[peer] !== undefined ? ` title="${escapeHtml(r.errors[peer])}"` : '';
      const cls = s !== undefined && s < 1 ? 'num slower' : 'num';
      cells.push(peer === r.bestPeer ? `<td class="${cls}"${title}><strong>${text}</strong></td>` : `<td class="${cls}"${title}>${text}</td>`);
    }
    return `<tr>${cells.join('')}</tr>`;
  }).join('\n');
  return `<h2>${escapeHtml(op)}</h2>\n<table><thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody></table>`;
}

export interface ReportPageInputs {
  title: string;
  cspSource: string;  // webview.cspSource
  nonce: string;
  plotSrc?: string;  // webview URI of speedup.svg
  results?: BenchResults;
  markdownHtml?: string;  // the rendered report, when there is no results.json
  reportPath: string;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return `default-src 'none'; img-src ${cspSource}; style-src 'nonce-${nonce}'; script-src 'none'; ` +
    "frame-src 'none'; form-action 'none'; base-uri 'none'";
}

export function reportPage(inputs: ReportPageInputs): string {
  const sections: string[] = [];
  const results = inputs.results;
  if (results) {
    const facts = [machineLine(results), results.copyGbs !== undefined ? `copy ${results.copyGbs.toFixed(0)} GB/s` : '',
      results.date ?? ''].filter(Boolean);
    sections.push(`<p class="facts">${escapeHtml(facts.join(' · '))}</p>`);
  }
  if (inputs.plotSrc)
    sections.push(`<img class="plot" src="${escapeHtml(inputs.plotSrc)}" alt="Speedup against the best peer and % of copy per shape">`);
  if (results) {
    const ops = [...new Set(results.rows.map((r) => r.op))];
    for (const op of ops) sections.push(opTable(op, results.rows.filter((r) => r.op === op), results.peers));
    sections.push('<p class="note">Speedup: the peer\'s time over ours (above 1: ours is faster); bold: the fastest peer ' +
      'of the shape. % of copy: the op\'s minimum bytes over its time, against the copy bandwidth. †: ours and the ' +
      'best peer timed several times, alternately; medians shown.</p>');
  } else if (inputs.markdownHtml !== undefined) {
    sections.push(inputs.markdownHtml);
  } else {
    sections.push('<p>This report has no results.json beside it.</p>');
  }
  sections.push(`<p class="note">${escapeHtml(inputs.reportPath)}</p>`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(inputs.cspSource, inputs.nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(inputs.title)}</title>
<style nonce="${inputs.nonce}">
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 1.5em 2em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid var(--vscode-panel-border); padding: 0.2em 0.6em; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.slower { color: var(--vscode-errorForeground); }
img.plot { max-width: 100%; background: white; }
.facts, .note { color: var(--vscode-descriptionForeground); }
</style>
</head>
<body>
<h1>${escapeHtml(inputs.title)}</h1>
${sections.join('\n')}
</body>
</html>
`;
}

// Relative image sources of the rendered Markdown, pointed at the report folder through
// `resolve` (webview.asWebviewUri); the page has no <base>, and any other source stays blocked
// by the policy.
export function resolveImageSources(html: string, resolve: (relative: string) => string | undefined): string {
  return html.replace(/(<img\b[^>]*?\bsrc=")([^"]+)(")/gi, (all, open: string, src: string, close: string) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith('/')) return all;
    const resolved = resolve(src);
    return resolved ? `${open}${escapeHtml(resolved)}${close}` : all;
  });
}
