// The extension as a user meets it: the packaged .vsix installed in a real VS Code (code-server),
// driven in Chromium, with the real kernel-lsp server and the real nvcc. Every step checks what is
// on the screen (or, after a save, on disk) and leaves a screenshot.
//
//   node real_editor.test.mjs --vsix FILE --server BINARY --artefacts DIR [--chromium PATH]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { CodeServer } from './code_server.mjs';
import { Workbench, until } from './workbench.mjs';
import { Steps, expect } from './steps.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    vsix: { type: 'string' },
    server: { type: 'string' },
    artefacts: { type: 'string' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
    keep: { type: 'boolean', default: false },
  },
});
for (const required of ['vsix', 'server', 'artefacts'])
  if (!args[required]) throw new Error(`--${required} is required`);
const serverBinary = path.resolve(args.server);

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kernel-lsp-real-editor-'));
const workspace = path.join(root, 'row-ops');
fs.cpSync(path.join(here, 'workspace'), workspace, { recursive: true });
const kernelFile = path.join(workspace, 'row_ops_cuda', 'row_sum.cu');
const buildToml = path.join(workspace, 'build.toml');
const originalToml = fs.readFileSync(buildToml, 'utf8');
const lineOf = (file, text) => fs.readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;

const codeServer = new CodeServer(path.join(root, 'code-server'));
codeServer.install(path.resolve(args.vsix));
await codeServer.start();
const workbench = await Workbench.launch(args.chromium);
const steps = new Steps(workbench, path.resolve(args.artefacts));
const page = workbench.page;

try {
  await steps.run('open-workspace', async () => {
    await workbench.open(codeServer.url(workspace));
  }, { required: true });

  // No kernelLsp.path anywhere, no kernel-lsp on PATH: one message that says where to set it.
  await steps.run('server-not-found-says-where', async () => {
    await workbench.openFile('row_ops_cuda/row_sum.cu');
    await until('the server-not-found message', async () => (await workbench.toastTexts()).some((t) => t.includes('kernelLsp.path')), 60000);
    await page.waitForTimeout(1500);
    const texts = await workbench.toastTexts();
    expect(texts.length === 1, `expected one notification, saw ${texts.length}: ${JSON.stringify(texts)}`);
    expect(/not found/.test(texts[0]), `the message does not say the server was not found: ${texts[0]}`);
    expect(texts[0].includes('Remote settings'), `the message does not point at the Remote settings: ${texts[0]}`);
    await workbench.clickToastButton('Open Setting');
    const settings = page.locator('.settings-editor');
    await settings.waitFor({ timeout: 20000 });
    const activeTab = await page.locator('.settings-editor .settings-tabs-widget .action-label.checked').innerText();
    expect(/Remote/.test(activeTab), `Open Setting opened the ${activeTab} tab, not the Remote one`);
    await until('the kernelLsp.path setting in the list', async () => (await settings.innerText()).includes('Kernel Lsp: Path'), 10000);
    await page.keyboard.press('Control+W');
  });

  // The Remote (machine) settings are where a remote window reads kernelLsp.path from; setting it
  // there starts the server without a reload.
  await steps.run('server-starts-from-remote-settings', async () => {
    codeServer.writeMachineSettings({ 'kernelLsp.path': serverBinary });
    await page.keyboard.press('Control+W');
    await workbench.openFile('row_ops_cuda/row_sum.cu');
    await until('the kernel-lsp status item', async () => (await workbench.kernelLspStatus().count()) > 0, 60000);
  }, { required: true });

  const reduceLine = lineOf(kernelFile, '= __reduce_add_sync(');
  await steps.run('arch-mismatch-squiggle-and-problem', async () => {
    await until('an error squiggle', async () => (await workbench.squiggles('error').count()) > 0, 90000);
    const problems = await until('the Problems entry', async () => { const rows = await workbench.problems(); return rows.length > 0 && rows; }, 20000);
    const entry = problems.find((p) => p.includes('__reduce_add_sync'));
    expect(entry, `no Problems entry about __reduce_add_sync: ${JSON.stringify(problems)}`);
    expect(entry.includes('7.5'), `the Problems entry does not name 7.5: ${entry}`);
    expect(entry.includes(`[Ln ${reduceLine}, Col`), `the Problems entry is not on line ${reduceLine}: ${entry}`);
  });

  await steps.run('status-bar-shows-capabilities', async () => {
    const text = await until('capabilities in the status bar',
      async () => { const t = await workbench.kernelLspStatus().innerText(); return /sm_75.*sm_80.*sm_90/.test(t) && t; }, 30000);
    expect(text.includes('kernel-lsp'), text);
  });

  await steps.run('hover-names-the-rule', async () => {
    await page.locator('.monaco-editor .view-lines').first().click();
    const hover = await workbench.hoverOver(workbench.squiggles('error').first());
    expect(hover.includes('arch-mismatch'), `the hover does not name the rule: ${hover}`);
    await page.keyboard.press('Escape');
  });
  // Snippets where a kernel statement may start: the warp reduction the guidance recommends.
  await steps.run('completion-in-kernel-body', async () => {
    await workbench.goToLine(lineOf(kernelFile, 'float acc = 0.0f;'), 200);
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('kl-warp');
    const items = await workbench.completions();
    expect(items.some((i) => i.includes('kl-warp-sum')), `no kl-warp-sum among the completions: ${JSON.stringify(items.slice(0, 8))}`);
    await page.keyboard.press('Escape');
    await workbench.runCommand('File: Revert File');
    await until('the file clean again', async () => (await page.locator('.tab.active.dirty').count()) === 0, 10000);
  });

  // While build.toml does not parse, its .cu files keep the capabilities of the last version that
  // parsed (the 7.5 finding stays), and build.toml itself says where it is broken.
  await steps.run('broken-build-toml-keeps-last-good', async () => {
    fs.writeFileSync(buildToml, originalToml.replace('cuda-capabilities = ["7.5", "8.0", "9.0"]', 'cuda-capabilities = ["7.5", "8.0"'));
    const note = await until('a problem saying build.toml does not parse', async () =>
      (await workbench.problems()).find((r) => r.includes('does not parse')), 60000);
    expect(/line \d+/.test(note) && note.includes('using the last version that parsed'),
      `the note does not give the line and what is used instead: ${note}`);
    await page.waitForTimeout(2000);
    await steps.snapshot('build-toml-broken');
    const now = await workbench.problems();
    const arch = now.find((p) => p.includes('__reduce_add_sync'));
    expect(arch && arch.includes('7.5'), `the 7.5 finding is gone while build.toml does not parse: ${JSON.stringify(now)}`);
    fs.writeFileSync(buildToml, originalToml);
    await until('build.toml clean again', async () => !(await workbench.problems()).some((r) => /does not parse/i.test(r)), 60000);
  });

  // A build that build.toml stops says where, and takes the user there.
  await steps.run('build-stopped-by-build-toml-opens-it', async () => {
    fs.writeFileSync(buildToml, originalToml.replace('depends = []', 'depends = []\ncuda-flag = ["--use_fast_math"]'));
    await workbench.clearNotifications();
    await workbench.runCommand('kernel-lsp: Build Kernel Project');
    const text = await until('the build-stopped message', async () => (await workbench.toastTexts()).find((t) => t.includes('build.toml')), 120000);
    expect(/build\.toml:\d+/.test(text), `the message does not give build.toml's line: ${text}`);
    await page.waitForTimeout(1500);
    expect((await workbench.toasts().count()) === 1, `more than one message: ${JSON.stringify(await workbench.toastTexts())}`);
    await steps.snapshot('build-stopped-message');
    await workbench.clickToastButton('Open build.toml');
    await page.locator('.tab.active', { hasText: 'build.toml' }).waitFor({ timeout: 15000 });
    fs.writeFileSync(buildToml, originalToml);
    await workbench.clearNotifications();
    await workbench.openFile('row_ops_cuda/row_sum.cu');
  });

  await steps.run('quick-fix-inserts-fallback', async () => {
    await workbench.goToLine(reduceLine, 13);
    const fixes = await workbench.quickFixes();
    const guard = fixes.filter({ hasText: 'Guard' }).first();
    expect(await guard.count() > 0, `no guard fix among ${JSON.stringify(await fixes.allInnerTexts())}`);
    await guard.click();
    await workbench.save();
    const text = fs.readFileSync(kernelFile, 'utf8');
    const guarded = text.slice(text.indexOf('#if __CUDA_ARCH__ >= 800'));
    expect(text.includes('#if __CUDA_ARCH__ >= 800'), 'no #if guard in the saved file');
    expect(/#else[\s\S]*__shfl_xor_sync[\s\S]*#endif/.test(guarded), `the guard has no shuffle fallback:\n${guarded.slice(0, 400)}`);
    await until('the arch-mismatch error gone', async () => (await workbench.squiggles('error').count()) === 0, 60000);
  });

  // After the fix every capability compiles; the lens over each kernel gives its resources in
  // a line short enough to read.
  await steps.run('build-shows-resource-lenses', async () => {
    await workbench.clearNotifications();
    await workbench.openFile('row_ops_cuda/row_sum.cu');
    await workbench.runCommand('kernel-lsp: Build Kernel Project');
    const lenses = await until('resource lenses', async () => {
      const titles = await workbench.codeLenses().allInnerTexts();
      return titles.filter((t) => /reg/.test(t)).length >= 2 && titles;
    }, 240000, 500);
    const usage = lenses.flatMap((t) => t.split(' | ')).filter((t) => /regs/.test(t));
    for (const title of usage)
      expect(title.length <= 80 && /occupancy/.test(title), `a usage lens of ${title.length} characters: ${title}`);
    // The details, one line per capability, behind the short title.
    await workbench.codeLenses().locator('a', { hasText: 'regs' }).first().click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 15000 });
    const details = await dialog.innerText();
    expect(/sm_80:.*regs/.test(details) && /sm_90:.*regs/.test(details), `the usage details lack a line per capability: ${details}`);
    await page.keyboard.press('Escape');
  });

  // A command that fails (no GPU and no runner here) says so once, not once per layer.
  await steps.run('failed-command-one-message', async () => {
    await workbench.clearNotifications();
    await workbench.runCommand('kernel-lsp: Benchmark Kernel Project');
    await until('the benchmark result message', async () => (await workbench.toasts().count()) > 0, 240000, 500);
    await page.waitForTimeout(3000);
    const texts = await workbench.toastTexts();
    await steps.snapshot('benchmark-message');
    expect(texts.length === 1, `expected one message, saw ${texts.length}: ${JSON.stringify(texts)}`);
    expect(texts[0].includes('benchmark'), `the message does not say what failed: ${texts[0]}`);
    await workbench.clearNotifications();
  });

  // The server killed from outside: the extension restarts it, and an edit is linted again.
  await steps.run('server-killed-recovers', async () => {
    execFileSync('pkill', ['-KILL', '-f', `${serverBinary} serve`]);
    await page.waitForTimeout(1500);
    await workbench.runCommand('File: Revert File');
    fs.writeFileSync(kernelFile, fs.readFileSync(path.join(here, 'workspace', 'row_ops_cuda', 'row_sum.cu'), 'utf8'));
    await until('the arch-mismatch error back after the restart', async () => (await workbench.squiggles('error').count()) > 0, 90000);
    await workbench.clearNotifications().catch(() => {});
  });

  // The status follows the file however the start-up races: three reloads, three times the
  // capabilities.
  await steps.run('status-after-reloads', async () => {
    for (let i = 0; i < 3; i++) {
      await workbench.reload();
      await workbench.openFile('row_ops_cuda/row_sum.cu');
      await until(`capabilities in the status bar after reload ${i + 1}`, async () => {
        const item = workbench.kernelLspStatus();
        return (await item.count()) > 0 && /sm_75.*sm_80.*sm_90/.test(await item.innerText());
      }, 60000);
    }
  });

  // In a .cu file the kernel templates come first and the file stays CUDA.
  await steps.run('fill-file-with-snippet-keeps-cuda', async () => {
    fs.writeFileSync(path.join(workspace, 'row_ops_cuda', 'scale.cu'), '');
    await workbench.openFile('row_ops_cuda/scale.cu');
    await workbench.runCommand('Snippets: Fill File with Snippet');
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.first().waitFor({ timeout: 15000 });
    const first = await rows.first().innerText();
    expect(!/binding|TORCH_LIBRARY/i.test(first), `the first template offered in a .cu file is ${first}`);
    await page.keyboard.press('Enter');
    await page.waitForTimeout(1000);
    const language = await page.locator('.statusbar-item[id="status.editor.mode"]').innerText();
    expect(language.includes('CUDA'), `the file's language became ${language}`);
  });
} finally {
  const passed = steps.summary();
  await workbench.close().catch(() => {});
  codeServer.stop();
  if (!args.keep) fs.rmSync(root, { recursive: true, force: true });
  else console.log(`kept ${root}`);
  process.exitCode = passed ? 0 : 1;
}
