#!/usr/bin/env bash
# README command 2: install what is missing, build, and run the whole test suite with CTest,
# then the sanitizer stage (tools/test_sanitized.sh: ASan + UBSan over the code that reads
# untrusted input; a few minutes, in its own build folder).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/tools/install-deps.sh"
"$root/tools/build.sh"
cd "$root/build"
# The tests' precompiled toolkit headers and lint results stay in the build tree, never in $HOME.
export KERNEL_LSP_PCH_DIR="$root/build/test-toolkit-pch" KERNEL_LSP_CACHE_DIR="$root/build/test-lint-cache"
ctest --output-on-failure -j "${KERNEL_LSP_JOBS:-$(nproc)}" --timeout 900
"$root/tools/test_sanitized.sh"
