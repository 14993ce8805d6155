// Writes snippets/kernel-lsp.code-snippets from the repository's snippet data (../snippets),
// exported by the kernel-lsp binary when one is found ($KERNEL_LSP_PATH, the usual build
// folders, PATH). Without either, an empty snippet file keeps the contribution valid.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const extension = path.dirname(here);
const repository = path.dirname(extension);
const output = path.join(extension, 'snippets', 'kernel-lsp.code-snippets');
fs.mkdirSync(path.dirname(output), { recursive: true });

const candidates = [process.env.KERNEL_LSP_PATH, path.join(repository, 'build', 'cli', 'kernel-lsp'), 'kernel-lsp']
  .filter(Boolean);
let written = false;
if (fs.existsSync(path.join(repository, 'snippets'))) {
  for (const binary of candidates) {
    try {
      execFileSync(binary, ['snippets', 'export', '--format', 'vscode', '--output', output], { stdio: 'ignore' });
      written = true;
      console.log(`snippets: exported with ${binary}`);
      break;
    } catch {
      // try the next candidate
    }
  }
}
if (!written) {
  if (!fs.existsSync(output)) fs.writeFileSync(output, '{}\n');
  console.log('snippets: no kernel-lsp binary to export ../snippets; keeping', path.relative(extension, output));
}
