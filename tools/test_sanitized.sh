#!/usr/bin/env bash
# The sanitizer stage: builds the clang-free parts that read untrusted input (framing,
# JSON-RPC, positions, URIs, build.toml, suppressions) and their unit tests with ASan + UBSan
# into build-sanitize/ (or $KERNEL_LSP_SANITIZE_BUILD_DIR), then runs them and a replay of the
# fuzz seed corpus. See tests/sanitize/CMakeLists.txt for what is in it and why it is a subset.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${KERNEL_LSP_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
jobs="${KERNEL_LSP_JOBS:-$(nproc)}"
# clang, because install-deps.sh already installs its sanitizer runtimes (libclang-rt-19-dev)
# for the fuzzer. KERNEL_LSP_SANITIZE_CXX picks another compiler (only clang-19 is exercised).
cxx="${KERNEL_LSP_SANITIZE_CXX:-clang++-19}"

start=$SECONDS
cmake -S "$root/tests/sanitize" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
cmake --build "$build" -j "$jobs"
built=$SECONDS

# detect_leaks: a leak per message is a slow death for a server that runs all day.
# abort_on_error / halt_on_error: the first report fails the test, with a stack trace.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
cd "$build"
ctest --output-on-failure -j "$jobs" --timeout 300
echo "sanitized stage: build $((built - start))s, tests $((SECONDS - built))s"
