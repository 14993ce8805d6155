#!/usr/bin/env bash
# README command 1: install what is missing, build, and lint the bundled example kernels.
# The examples contain deliberate bugs, so findings (and exit code 1 from the lint) are expected;
# this script exits 0 when the lint ran and reported.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/tools/install-deps.sh"
"$root/tools/build.sh"
echo
echo "== kernel-lsp lint examples/kernels"
cd "$root"
set +e
./build/cli/kernel-lsp lint examples/kernels
status=$?
set -e
if [ "$status" -ge 2 ]; then
  echo "kernel-lsp lint failed (exit $status)" >&2
  exit "$status"
fi
echo
echo "(exit code $status: 0 = clean, 1 = findings, 2 = error). Next: ./build/cli/kernel-lsp lint kernels/"
