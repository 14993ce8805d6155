#!/usr/bin/env bash
# Configures and builds kernel-lsp into build/ (or $KERNEL_LSP_BUILD_DIR). Extra arguments go to
# CMake's configure step.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${KERNEL_LSP_BUILD_DIR:-$root/build}"
jobs="${KERNEL_LSP_JOBS:-$(nproc)}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${KERNEL_LSP_BUILD_TYPE:-Release}" "$@" >/dev/null
cmake --build "$build" -j "$jobs"
