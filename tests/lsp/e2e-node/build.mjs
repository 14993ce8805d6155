// End-to-end: builds and benchmarks from the editor, through the npm packages VS
// Code's own client is built on. Usage: node build.mjs SERVER KERNELS_DIR NVCC [kernel ...]
//
// On a copy of the reference kernels (kernels/<name>, kernel-builder layout):
//  1. kernel-lsp/build of each project, then textDocument/codeLens on its .cu: every kernel's
//     usage lens (a short title; one line per capability in its details) must show the
//     registers and spills that `nvcc -Xptxas -v`, run here independently with build.toml's
//     capabilities and flags, reports for that kernel;
//  2. an edit marks the lenses stale; a second build of a running project is refused;
//  3. a planted compile error becomes a diagnostic on its line, naming the capabilities;
//  4. kernel-lsp.cancel during a build ends it and leaves no process behind, and during a
//     benchmark through a runner it ends the runner's whole process tree;
//  5. kernel-lsp.bench on this machine (no GPU, no torch, no runner) fails with a message that
//     names both ways to benchmark, and writes nothing;
//  6. an untrusted workspace starts nothing.
// Skips (exit 77) without nvcc.
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import lsp from 'vscode-languageserver-protocol/node.js';

const {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter, InitializeRequest,
  InitializedNotification, DidOpenTextDocumentNotification, DidChangeTextDocumentNotification,
  DidChangeConfigurationNotification, PublishDiagnosticsNotification, ShutdownRequest, ExitNotification,
  WorkDoneProgressCreateRequest, ResponseError, CodeLensRequest, ExecuteCommandRequest,
} = lsp;

const [server, kernelsDir, nvcc, ...only] = process.argv.slice(2);
if (!server || !kernelsDir || !nvcc) {
  console.error('usage: node build.mjs SERVER KERNELS_DIR NVCC [kernel ...]');
  process.exit(2);
}
if (!fs.existsSync(nvcc)) {
  console.log(`lsp.e2e_node_build skipped: no nvcc at ${nvcc}`);
  process.exit(77);
}
// By default every reference kernel: each project folder with a build.toml.
const kernels = only.length ? only
  : fs.readdirSync(kernelsDir).filter((k) => fs.existsSync(path.join(kernelsDir, k, 'build.toml'))).sort();
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kl-e2e-build-'));
for (const k of kernels) fs.cpSync(path.join(kernelsDir, k), path.join(root, k), { recursive: true });
const uriOf = (p) => pathToFileURL(path.join(root, p)).href;

// Every process the server starts inherits this variable: after a cancellation none may be left.
const marker = `KL_E2E_BUILD_MARK=${process.pid}-${Date.now()}`;
const child = spawn(server, ['serve', '--stdio'], {
  env: { ...process.env, KERNEL_LSP_LOG: 'info', [marker.split('=')[0]]: marker.split('=')[1],
         KERNEL_LSP_BENCH_RUNNER: '', PATH: process.env.PATH },
});
let log = '';
child.stderr.on('data', (d) => { log += d; });
let expectingExit = false;
const exited = new Promise((resolve) => child.on('exit', (code, signal) => {
  if (!expectingExit) {
    console.error(`e2e build: FAILED: the server died (code ${code}, signal ${signal})\n${log.slice(-4000)}`);
    process.exit(1);
  }
  resolve(code ?? 128);
}));

const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
const published = new Map();
const listeners = [];
connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
  published.set(params.uri, params);
  for (const l of [...listeners]) l(params);
});
const progressReports = [];
const progressWaiters = [];
connection.onRequest(WorkDoneProgressCreateRequest.type, () => null);
connection.onNotification('$/progress', (p) => {
  progressReports.push(p);
  for (const w of [...progressWaiters]) w(p);
});
const logLines = [];
connection.onNotification('window/logMessage', (m) => logLines.push(m.message));
let lensRefreshes = 0;
connection.onRequest('workspace/codeLens/refresh', () => { lensRefreshes += 1; return null; });
connection.onNotification('window/showMessage', (m) => console.log('server says:', m.message));
connection.listen();

function diagnosticsFor(uri, predicate, what, timeoutMs = 600000) {
  return new Promise((resolve, reject) => {
    const check = (params) => {
      if (params.uri !== uri || !predicate(params)) return;
      clearTimeout(timer);
      listeners.splice(listeners.indexOf(check), 1);
      resolve(params);
    };
    const timer = setTimeout(() => {
      listeners.splice(listeners.indexOf(check), 1);
      reject(new Error(`timed out waiting for ${what}; last: ${JSON.stringify(published.get(uri))}`));
    }, timeoutMs);
    listeners.push(check);
    if (published.has(uri)) check(published.get(uri));
  });
}

async function expectError(promise, pattern, what) {
  try {
    const result = await promise;
    assert.fail(`${what}: expected an error, got ${JSON.stringify(result).slice(0, 300)}`);
  } catch (e) {
    if (!(e instanceof ResponseError)) throw e;
    assert.match(e.message, pattern, what);
    return e;
  }
}

async function step(name, body) {
  const started = Date.now();
  await body();
  console.log(`ok - ${name} (${Date.now() - started} ms)`);
}

// ---- what nvcc says, independently of the server ----------------------------------------------

// build.toml's kernel sections: capabilities, flags, .cu sources (the reference kernels' tables
// are simple: one array per line or per block).
function kernelSections(project) {
  const text = fs.readFileSync(path.join(project, 'build.toml'), 'utf8');
  const arrays = (key, block) => {
    const m = block.match(new RegExp(`^${key}\\s*=\\s*\\[([^\\]]*)\\]`, 'm'));
    return m ? [...m[1].matchAll(/"([^"]*)"/g)].map((x) => x[1]) : [];
  };
  return text.split(/^\[kernel\./m).slice(1).map((block) => ({
    caps: arrays('cuda-capabilities', block),
    flags: arrays('cuda-flags', block),
    includes: arrays('include', block),
    torch: arrays('depends', block).includes('torch'),
    sources: arrays('src', block).filter((s) => s.endsWith('.cu')),
  }));
}

const targetOf = (cap) => `sm_${cap.replace('.', '')}`;

// "void ns::k<float, 4>(float const*)" → "k"
function baseName(demangled) {
  let name = demangled;
  let depth = 0, paren = -1, angle = 0;
  for (let i = 0; i < name.length; i++) {
    if (name[i] === '<') angle++;
    else if (name[i] === '>') angle--;
    else if (name[i] === '(') { if (angle === 0 && depth === 0) paren = i; depth++; }
    else if (name[i] === ')') depth--;
  }
  if (paren >= 0) name = name.slice(0, paren);
  name = name.trimEnd();
  if (name.endsWith('>')) {
    let d = 0;
    for (let i = name.length - 1; i >= 0; i--) {
      if (name[i] === '>') d++;
      else if (name[i] === '<' && --d === 0) { name = name.slice(0, i); break; }
    }
  }
  return name.split(/ |::/).pop();
}

// The suite's own compile of `src` for `cap` (the kernels.compile.* tests, KL_PTXAS_LOGS), when
// it used exactly these flags: its first line names them. Otherwise null, and nvcc runs here.
function compiledLog(project, src, cap, flags) {
  const dir = process.env.KL_PTXAS_LOGS;
  if (!dir) return null;
  const file = path.join(dir, path.basename(project), `${path.basename(src, '.cu')}.${targetOf(cap).replace('_', '')}.log`);
  if (!fs.existsSync(file)) return null;
  const [first, ...rest] = fs.readFileSync(file, 'utf8').split('\n');
  if (first !== `# nvcc flags: ${flags.join(' ')}`) {
    console.log(`  ${file}: compiled with other flags (${first}); compiling here`);
    return null;
  }
  logsUsed++;
  return rest.join('\n');
}
let logsUsed = 0;

// {`${kernel}@${target}`: {min, max, spill}} from ptxas' report of every compile of the project.
function ptxasReport(project) {
  const entries = [];
  for (const section of kernelSections(project)) {
    for (const src of section.sources) {
      for (const cap of section.caps) {
        const gencode = `-gencode=arch=compute_${cap.replace('.', '')},code=${targetOf(cap)}`;
        // kernel-builder's own additions: its preamble's defines, and torch's CMake CUDA flags
        // for sections that depend on torch.
        const builder = ['-DUSE_CUDA=1', '-DCUDA_KERNEL', ...(section.torch ? ['--expt-relaxed-constexpr', '--expt-extended-lambda'] : [])];
        const flags = ['-std=c++17', gencode, '-Xptxas', '-v', ...builder, ...section.flags];
        const args = [...flags, '-c', '-o', '/dev/null', ...section.includes.map((i) => `-I${path.join(project, i)}`),
          path.join(project, src)];
        const text = compiledLog(project, src, cap, flags)
          ?? execFileSync('sh', ['-c', '"$0" "$@" 2>&1', nvcc, ...args], { cwd: project, encoding: 'utf8' });
        let current = null;
        for (const line of text.split('\n')) {
          let m = line.match(/Compiling entry function '([^']+)' for '(sm_\w+)'/);
          if (m) { current = { mangled: m[1], target: m[2], regs: 0, spill: 0 }; entries.push(current); continue; }
          m = line.match(/(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads/);
          if (m && current) current.spill = Number(m[2]) + Number(m[3]);
          m = line.match(/Used (\d+) registers/);
          if (m && current) current.regs = Number(m[1]);
        }
      }
    }
  }
  if (entries.length) {
    const names = execFileSync('c++filt', entries.map((e) => e.mangled), { encoding: 'utf8' }).split('\n');
    entries.forEach((e, i) => { e.name = baseName(names[i] || e.mangled); });
  }
  const usage = {};
  for (const e of entries) {
    const key = `${e.name}@${e.target}`;
    const u = usage[key] ??= { min: e.regs, max: e.regs, spill: 0 };
    u.min = Math.min(u.min, e.regs);
    u.max = Math.max(u.max, e.regs);
    u.spill = Math.max(u.spill, e.spill);
  }
  return usage;
}

// "sm_90 (3 instantiations): 32–40 regs · 0 B spill · ..." (a line of a usage lens's details)
// → {target, min, max, spill}
function parseLens(title) {
  const m = title.match(/^(sm_\w+?)(?: \((\d+) instantiations\))?: (\d+)(?:–(\d+))? regs · (\d+(?:\.\d+)?) (B|KiB) spill/);
  if (!m) return null;
  const spill = Number(m[5]) * (m[6] === 'KiB' ? 1024 : 1);
  return { target: m[1], min: Number(m[3]), max: Number(m[4] ?? m[3]), spill };
}

// A kernel's usage lens: a short title over all targets; one line per target in its details.
const isUsageLens = (lens) => lens.command?.command === 'kernel-lsp.showUsage';
const usageLines = (lens) => (isUsageLens(lens) ? lens.command.arguments[0].details.split('\n') : []);

// Processes started for builds (nvcc, cicc, ptxas, gcc, ...): those with the marker that are not
// the server itself or its analysis workers (the same executable).
const serverExe = fs.realpathSync(server);
function findProcessesWithMarker() {
  const found = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    if (Number(pid) === child.pid || Number(pid) === process.pid) continue;
    try {
      if (fs.readlinkSync(`/proc/${pid}/exe`) === serverExe) continue;
      const env = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
      if (env.split('\0').includes(marker)) found.push(`${pid} ${fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 120)}`);
    } catch { /* gone, or not ours */ }
  }
  return found;
}

const firstSource = (name) => {
  const section = kernelSections(path.join(root, name))[0];
  return `${name}/${section.sources[0]}`;
};

async function main() {
  await step('initialize', async () => {
    const result = await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToFileURL(root).href,
      workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'kernels' }],
      capabilities: {
        general: { positionEncodings: ['utf-16'] },
        window: { workDoneProgress: true },
        workspace: { codeLens: { refreshSupport: true } },
        textDocument: { codeLens: {}, publishDiagnostics: { relatedInformation: true } },
      },
      initializationOptions: { debounceMs: 0 },
    });
    const commands = result.capabilities.executeCommandProvider.commands;
    for (const c of ['kernel-lsp.build', 'kernel-lsp.bench', 'kernel-lsp.cancel']) assert.ok(commands.includes(c), c);
    assert.ok(result.capabilities.codeLensProvider, 'codeLensProvider');
    connection.sendNotification(InitializedNotification.type, {});
  });

  for (const name of kernels) {
    const rel = firstSource(name);
    const uri = uriOf(rel);
    const text = fs.readFileSync(path.join(root, rel), 'utf8');
    await step(`${name}: lenses equal nvcc -Xptxas -v for every capability`, async () => {
      connection.sendNotification(DidOpenTextDocumentNotification.type,
        { textDocument: { uri, languageId: 'cuda-cpp', version: 1, text } });
      const before = await connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
      assert.ok(before.some((l) => l.command.title === 'Build'), 'a Build lens before any build');
      assert.ok(!before.some(isUsageLens), 'no usage lens before a build');
      const result = await connection.sendRequest('kernel-lsp/build', { project: pathToFileURL(path.join(root, name)).href });
      assert.equal(result.ok, true, JSON.stringify(result.units));
      assert.ok(result.kernels.length > 0, 'kernels in the result');
      const lenses = await connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
      const expected = ptxasReport(path.join(root, name));
      const seen = new Set();
      // Each kernel's lenses sit on its name; the name is the text under the lens range.
      const lines = text.split('\n');
      for (const lens of lenses) {
        if (isUsageLens(lens)) assert.ok(lens.command.title.length < 80, `a usage lens fits: ${lens.command.title}`);
        for (const line of usageLines(lens)) {
          const usage = parseLens(line);
          if (!usage) continue;
          const { start, end } = lens.range;
          const kernel = lines[start.line].slice(start.character, end.character);
          const key = `${kernel}@${usage.target}`;
          assert.ok(expected[key], `nvcc reports no ${key}; it reports ${Object.keys(expected).join(', ')}`);
          assert.deepEqual({ min: usage.min, max: usage.max, spill: usage.spill }, expected[key], `${key}: ${line}`);
          seen.add(key);
        }
      }
      const kernelsInFile = new Set(Object.keys(expected).map((k) => k.split('@')[0])
        .filter((k) => new RegExp(`__global__[^;{]*\\b${k}\\s*\\(`, 's').test(text)));
      for (const key of Object.keys(expected))
        if (kernelsInFile.has(key.split('@')[0])) assert.ok(seen.has(key), `no lens for ${key}`);
      assert.ok(seen.size > 0, 'at least one usage lens');
      const example = lenses.find(isUsageLens);
      console.log(`  ${name}: ${seen.size} kernel×capability lenses checked, e.g. "${example.command.title}"`);
    });
  }
  console.log(`  nvcc's reports: ${logsUsed} from the suite's compile logs (KL_PTXAS_LOGS), the rest compiled here`);
  assert.ok(lensRefreshes > 0, 'workspace/codeLens/refresh after a build');
  assert.ok(progressReports.some((p) => p.value.kind === 'report' && p.value.percentage > 0), 'build progress');
  assert.ok(logLines.some((l) => /-Xptxas -v/.test(l)), 'nvcc command lines in the log');

  const name = kernels[0];
  const rel = firstSource(name);
  const uri = uriOf(rel);
  const projectUri = pathToFileURL(path.join(root, name)).href;

  await step('an edit marks the lenses stale', async () => {
    connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '// edited\n' }],
    });
    const lenses = await connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    const usage = lenses.filter(isUsageLens);
    assert.ok(usage.length > 0 && usage.every((l) => /stale/.test(l.command.title)), JSON.stringify(usage[0]));
  });

  await step('a planted compile error is a diagnostic on its line, naming the capabilities', async () => {
    const file = path.join(root, rel);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const at = lines.findIndex((l) => /__global__/.test(l));
    const body = lines.findIndex((l, i) => i > at && l.includes('{'));
    lines.splice(body + 1, 0, '  int kl_planted = kl_undefined_symbol;');
    fs.writeFileSync(file, lines.join('\n'));
    const plantedLine = body + 1;
    const fileUri = pathToFileURL(file).href;
    const wait = diagnosticsFor(fileUri, (p) => p.diagnostics.some((d) => /kl_undefined_symbol/.test(d.message)), 'nvcc error');
    const result = await connection.sendRequest(ExecuteCommandRequest.type,
      { command: 'kernel-lsp.build', arguments: [{ project: projectUri }] });
    assert.equal(result.ok, false);
    const { diagnostics } = await wait;
    const d = diagnostics.find((x) => /kl_undefined_symbol/.test(x.message));
    assert.equal(d.range.start.line, plantedLine, JSON.stringify(d));
    assert.equal(d.severity, 1);
    assert.equal(d.code, 'nvcc');
    console.log(`  "${d.message}"`);
    for (const cap of kernelSections(path.join(root, name))[0].caps) assert.match(d.message, new RegExp(targetOf(cap)));
    lines.splice(body + 1, 1);
    fs.writeFileSync(file, lines.join('\n'));
  });

  await step('a second build of a running project is refused; cancel leaves no process behind', async () => {
    const started = new Promise((resolve) => progressWaiters.push((p) => { if (p.value.kind === 'begin') resolve(); }));
    const build = connection.sendRequest('kernel-lsp/build', { project: projectUri });
    await started;
    await expectError(connection.sendRequest('kernel-lsp/build', { project: projectUri }), /already running/, 'second build');
    // Let nvcc get going (cicc, ptxas), then cancel.
    const deadline = Date.now() + 20000;
    while (findProcessesWithMarker().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.ok(findProcessesWithMarker().length > 0, 'nvcc was running');
    await new Promise((r) => setTimeout(r, 1500));
    const cancelled = await connection.sendRequest(ExecuteCommandRequest.type, { command: 'kernel-lsp.cancel', arguments: [{ project: projectUri }] });
    assert.equal(cancelled.cancelled, 1);
    const result = await build;
    assert.equal(result.cancelled, true);
    let left = findProcessesWithMarker();
    const until = Date.now() + 5000;
    while (left.length && Date.now() < until) { await new Promise((r) => setTimeout(r, 100)); left = findProcessesWithMarker(); }
    assert.deepEqual(left, [], 'processes left after the cancellation');
  });

  await step('cancelling a benchmark ends the runner\'s whole process tree', async () => {
    // A runner whose shell starts a child of its own that would outlive it: only killing the
    // process group (not just the runner's shell) ends that `sleep`.
    const bench = connection.sendRequest('kernel-lsp/bench',
      { project: projectUri, remote: true, runner: "sh -c 'sleep 600 & wait'" }).then((r) => r, (e) => e);
    let settled;
    bench.then((answer) => { settled = answer; });
    const deadline = Date.now() + 20000;
    const sleeping = () => findProcessesWithMarker().filter((p) => /sleep 600/.test(p));
    while (sleeping().length === 0 && settled === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // A benchmark that answered before its runner started was refused (e.g. "already running").
    assert.ok(sleeping().length > 0, `the runner's grandchild was running; the benchmark answered ${settled === undefined ? 'nothing' : JSON.stringify(settled.message ?? settled)}`);
    const cancelled = await connection.sendRequest(ExecuteCommandRequest.type, { command: 'kernel-lsp.cancel', arguments: [] });
    assert.equal(cancelled.cancelled, 1);
    // Without the group kill the runner's `sleep` keeps the output pipes open and the job never ends.
    const answer = await Promise.race([bench, new Promise((r) => setTimeout(() => r('timeout'), 30000))]);
    assert.notEqual(answer, 'timeout', 'the cancelled benchmark did not end within 30 s');
    assert.ok(answer instanceof ResponseError || answer.exitCode !== 0, JSON.stringify(answer));
    let left = sleeping();
    const until = Date.now() + 5000;
    while (left.length && Date.now() < until) { await new Promise((r) => setTimeout(r, 100)); left = sleeping(); }
    assert.deepEqual(left, [], 'the runner\'s processes left after the cancellation');
  });

  await step('a benchmark without a GPU, torch or runner fails cleanly and writes nothing', async () => {
    const before = fs.readdirSync(path.join(root, name), { recursive: true }).length;
    const e = await expectError(connection.sendRequest('kernel-lsp/bench', { project: projectUri }), /runner/, 'bench');
    assert.match(e.message, /GPU|torch/);
    assert.equal(fs.readdirSync(path.join(root, name), { recursive: true }).length, before, 'files written');
  });

  await step('an untrusted workspace starts nothing', async () => {
    connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { workspaceTrusted: false } });
    await new Promise((r) => setTimeout(r, 200));
    await expectError(connection.sendRequest(ExecuteCommandRequest.type, { command: 'kernel-lsp.build', arguments: [{ project: projectUri }] }), /untrusted/, 'untrusted build');
    // (The re-lint the settings change causes may run python3 to look for torch's headers, and
    // `nvcc --version` / `nvcc --list-gpu-code` to learn the toolkit: that is the analysis, which
    // compiles nothing, not a build.)
    const toolkitProbe = /nvcc (--version|--list-gpu-code) *$/;
    const compilers = findProcessesWithMarker()
      .filter((p) => /nvcc|cicc|ptxas|cudafe|cc1plus/.test(p) && !toolkitProbe.test(p));
    assert.deepEqual(compilers, []);
  });

  await step('shutdown and exit', async () => {
    await connection.sendRequest(ShutdownRequest.type);
    expectingExit = true;
    connection.sendNotification(ExitNotification.type);
    assert.equal(await exited, 0);
  });
}

main().then(() => {
  fs.rmSync(root, { recursive: true, force: true });
  console.log('e2e build: passed');
  process.exit(0);
}, (e) => {
  console.error(`e2e build: FAILED: ${e.stack || e}\n--- server log (tail) ---\n${log.slice(-4000)}`);
  process.exit(1);
});
