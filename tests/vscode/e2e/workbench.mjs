// What a user does in the VS Code workbench, as keyboard and mouse input in Chromium, and what they
// see, read off the page. Selectors are the workbench's own class names (stable across VS Code
// releases for years: squiggly-*, monaco-hover, suggest-widget, action-widget, notification-toast,
// codelens-decoration, statusbar-item).
import { chromium } from 'playwright-core';

// Flags for a closed network: without the background-networking ones Chromium keeps trying hosts
// it cannot reach. No sandbox: CI runs as root.
const chromiumFlags = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function until(what, probe, timeoutMs = 30000, intervalMs = 200) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await probe();
    if (last) return last;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

export class Workbench {
  static async launch(chromiumPath) {
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    return new Workbench(browser, page);
  }

  constructor(browser, page) {
    this.browser = browser;
    this.page = page;
  }

  async open(url) {
    await this.page.goto(url);
    await this.page.waitForSelector('.monaco-workbench .part.statusbar', { timeout: 90000 });
  }

  async reload() {
    await this.page.reload();
    await this.page.waitForSelector('.monaco-workbench .part.statusbar', { timeout: 90000 });
  }

  async close() {
    await this.browser.close();
  }

  async screenshot(file) {
    await this.page.screenshot({ path: file });
  }

  async quickInput(prefixKey, text) {
    await this.page.keyboard.press(prefixKey);
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(text);
    await this.page.locator('.quick-input-list .monaco-list-row').first().waitFor({ state: 'visible' });
  }

  // Quick Open lists recently opened files before its search answers: the row to pick is the
  // one that names the file, not whichever is first.
  async openFile(relativePath) {
    const name = relativePath.split('/').pop();
    await this.quickInput('Control+P', relativePath);
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
    await row.waitFor({ timeout: 15000 });
    await row.click();
    await this.page.locator('.tab.active', { hasText: name }).waitFor({ timeout: 30000 });
    await this.page.locator('.monaco-editor .view-lines').first().waitFor();
  }

  // Runs a command from the palette by its title, and returns the palette's first label.
  async runCommand(title) {
    await this.quickInput('F1', `>${title}`);
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    await row.waitFor({ timeout: 10000 });
    await row.click();
  }

  async goToLine(line, column = 1) {
    await this.page.keyboard.press('Control+G');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`:${line}:${column}`);
    await this.page.keyboard.press('Enter');
  }

  async save() {
    await this.page.keyboard.press('Control+S');
    await this.page.locator('.tab.active.dirty').waitFor({ state: 'detached', timeout: 10000 });
  }

  squiggles(kind = 'error') {
    return this.page.locator(`.monaco-editor .squiggly-${kind}`);
  }

  async statusText() {
    return this.page.locator('.part.statusbar').innerText();
  }

  kernelLspStatus() {
    return this.page.locator('.statusbar-item', { hasText: 'kernel-lsp' }).first();
  }

  toasts() {
    return this.page.locator('.notifications-toasts .notification-toast');
  }

  async toastTexts() {
    return this.page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
  }

  async clickToastButton(label) {
    await this.page.locator('.notifications-toasts .monaco-button', { hasText: label }).first().click();
  }

  async clearNotifications() {
    await this.runCommand('Notifications: Clear All Notifications');
    await until('no notification toast', async () => (await this.toasts().count()) === 0, 10000);
  }

  async hoverOver(locator) {
    const box = await locator.boundingBox();
    await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const hover = this.page.locator('.monaco-hover:not(.hidden) .monaco-hover-content').first();
    await hover.waitFor({ state: 'visible', timeout: 15000 });
    return hover.innerText();
  }

  // The Problems view's rows as they are now (none when it says there are no problems).
  async problems() {
    if (!(await this.page.locator('.markers-panel').isVisible())) {
      await this.runCommand('View: Focus Problems');
      await this.page.locator('.markers-panel').waitFor({ timeout: 10000 });
    }
    return this.page.locator('.markers-panel .monaco-list-row').allInnerTexts();
  }

  async quickFixes() {
    await this.page.keyboard.press('Control+.');
    const rows = this.page.locator('.action-widget .monaco-list-row.action');
    await rows.first().waitFor({ timeout: 15000 });
    return rows;
  }

  async completions() {
    await this.page.keyboard.press('Control+Space');
    const rows = this.page.locator('.suggest-widget .monaco-list-row');
    await rows.first().waitFor({ timeout: 20000 });
    return rows.allInnerTexts();
  }

  codeLenses() {
    return this.page.locator('.monaco-editor .codelens-decoration');
  }
}
