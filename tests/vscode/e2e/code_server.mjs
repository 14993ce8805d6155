// One code-server (VS Code in the browser, from npm) with the packaged extension installed, in
// folders of its own: its user data, extensions, HOME and XDG folders are all under `root`, so
// nothing of the machine's own VS Code or code-server configuration is read or written.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const codeServerBin = path.join(here, 'node_modules', '.bin', 'code-server');

// The settings that keep the workbench still for screenshots and keyboard input: no welcome page,
// no chat side bar, no trust prompt, no update or telemetry traffic on a closed network.
const quietWorkbench = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.ignoreRecommendations': true,
  'extensions.autoCheckUpdates': false,
  'editor.minimap.enabled': false,
  'editor.hover.delay': 200,
  'files.autoSave': 'off',
};

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url, deadlineMs, log) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server did not answer at ${url} within ${deadlineMs} ms; its log:\n${log()}`);
}

export class CodeServer {
  constructor(root) {
    this.root = root;
    this.userData = path.join(root, 'user-data');
    this.extensions = path.join(root, 'extensions');
    this.home = path.join(root, 'home');
    this.logFile = path.join(root, 'code-server.log');
    for (const dir of [this.userData, this.extensions, this.home]) fs.mkdirSync(dir, { recursive: true });
    fs.mkdirSync(path.join(this.userData, 'User'), { recursive: true });
    fs.mkdirSync(path.join(this.userData, 'Machine'), { recursive: true });
    this.writeUserSettings({});
  }

  // PATH keeps node 24 (code-server's) and the CUDA toolkit, but never a kernel-lsp: the extension
  // must find the server through its settings, as on a machine where it is not installed.
  environment() {
    const nodeBin = path.dirname(process.execPath);
    const cuda = process.env.CUDA_PATH || '/usr/local/cuda';
    const keep = ['KERNEL_LSP_PCH_DIR', 'KERNEL_LSP_CACHE_DIR', 'LANG', 'TMPDIR'];
    const env = {
      PATH: [nodeBin, path.join(cuda, 'bin'), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
      HOME: this.home,
      XDG_CONFIG_HOME: path.join(this.home, '.config'),
      XDG_DATA_HOME: path.join(this.home, '.local', 'share'),
      XDG_CACHE_HOME: path.join(this.home, '.cache'),
    };
    for (const name of keep) if (process.env[name]) env[name] = process.env[name];
    return env;
  }

  install(vsix) {
    execFileSync(codeServerBin, ['--extensions-dir', this.extensions, '--user-data-dir', this.userData,
      '--install-extension', vsix], { env: this.environment(), stdio: 'pipe' });
  }

  writeUserSettings(extra) {
    fs.writeFileSync(path.join(this.userData, 'User', 'settings.json'),
      JSON.stringify({ ...quietWorkbench, ...extra }, null, 1));
  }

  // code-server's Remote settings: where a remote window reads machine-scoped settings from.
  writeMachineSettings(settings) {
    fs.writeFileSync(path.join(this.userData, 'Machine', 'settings.json'), JSON.stringify(settings, null, 1));
  }

  async start() {
    this.port = await freePort();
    const log = fs.openSync(this.logFile, 'a');
    this.process = spawn(codeServerBin, [
      '--auth', 'none', '--bind-addr', `127.0.0.1:${this.port}`,
      '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--extensions-dir', this.extensions, '--user-data-dir', this.userData,
      '--config', path.join(this.root, 'code-server.yaml'),
    ], { env: this.environment(), stdio: ['ignore', log, log], detached: true });
    await waitForHttp(`http://127.0.0.1:${this.port}/healthz`, 60000,
      () => fs.readFileSync(this.logFile, 'utf8'));
  }

  url(folder) {
    return `http://127.0.0.1:${this.port}/?folder=${encodeURIComponent(folder)}`;
  }

  stop() {
    if (!this.process || this.process.exitCode !== null) return;
    try {
      process.kill(-this.process.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}
