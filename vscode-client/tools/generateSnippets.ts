// Build step: writes snippets/<language>.code-snippets (the files package.json contributes) from
// the snippet data of the kernel-lsp repository. The data is found at, in order:
//   --snippets DIR, $KERNEL_LSP_SNIPPETS_DIR, ../snippets (this extension inside the repository).
// Without data, or with data that yields no template, the build fails and says how to fix it:
// an extension that silently ships no snippets is worse than a failed build.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SnippetDataError, snippetFiles, type SnippetSource } from './snippetTemplates';

const extensionDir = path.resolve(__dirname, '..');

function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const at = args.indexOf(name);
  if (at >= 0) return args[at + 1];
  const inline = args.find((a) => a.startsWith(`${name}=`));
  return inline?.slice(name.length + 1);
}

function fail(message: string): never {
  console.error(`snippets: ${message}`);
  process.exit(1);
}

function main(): void {
  const given = option('--snippets') ?? process.env.KERNEL_LSP_SNIPPETS_DIR;
  const dataDir = path.resolve(given ?? path.join(extensionDir, '..', 'snippets'));
  const outDir = path.resolve(option('--out') ?? path.join(extensionDir, 'snippets'));
  const names = fs.existsSync(dataDir) ? fs.readdirSync(dataDir).filter((f) => f.endsWith('.toml')).sort() : [];
  if (names.length === 0)
    fail(`no snippet data (*.toml) in ${dataDir}. Build the extension inside the kernel-lsp repository, or point ` +
      'at its snippets/ folder: `KERNEL_LSP_SNIPPETS_DIR=DIR npm run package` (or `npm run snippets -- --snippets DIR`).');
  const sources: SnippetSource[] = names.map((name) => ({ name: path.join(dataDir, name), text: fs.readFileSync(path.join(dataDir, name), 'utf8') }));
  let result: ReturnType<typeof snippetFiles>;
  try {
    result = snippetFiles(sources);
  } catch (error) {
    if (error instanceof SnippetDataError) fail(error.message);
    throw error;
  }
  if (result.templates === 0) fail(`${dataDir} has no whole-file snippet to contribute (${result.fragments} fragments).`);
  fs.mkdirSync(outDir, { recursive: true });
  for (const [language, snippets] of Object.entries(result.files))
    fs.writeFileSync(path.join(outDir, `${language}.code-snippets`), `${JSON.stringify(snippets, null, 2)}\n`);
  console.log(`snippets: ${result.templates} file templates from ${dataDir} → ${path.relative(extensionDir, outDir) || '.'}/ ` +
    `(${result.fragments} in-code snippets left to the server's completion)`);
}

main();
