#!/usr/bin/env bash
# The whole kernel-lsp binary, analyzers included, with AddressSanitizer + UBSan (and libFuzzer
# coverage, for tools/fuzz_analysis.sh) into build-asan/ (or $KERNEL_LSP_ASAN_BUILD_DIR).
# Not part of CI (a full instrumented build of the clang-based analyzers takes ~20 minutes on
# two cores); used by the corpus harness (tools/corpus_harness.py --binary build-asan/cli/kernel-lsp)
# and the analysis fuzzer. Prints the binary's path.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${KERNEL_LSP_ASAN_BUILD_DIR:-$root/build-asan}"
jobs="${KERNEL_LSP_JOBS:-$(nproc)}"
"$root/tools/install-deps.sh" >/dev/null
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
  -DKERNEL_LSP_SANITIZE=ON -DKERNEL_LSP_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build" -j "$jobs" --target kernel-lsp analysis_fuzzer
echo "$build/cli/kernel-lsp"
