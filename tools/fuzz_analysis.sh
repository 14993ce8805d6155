#!/usr/bin/env bash
# Fuzzes the analysis (front end + model + rules) with libFuzzer: tests/fuzz/analysis_fuzzer
# from the sanitized build (tools/build_sanitized_binary.sh), seeded with every .cu fixture.
#   tools/fuzz_analysis.sh SECONDS [WORK_DIR]
# Keeps going after a finding (-fork, -ignore_crashes, -ignore_timeouts, -ignore_ooms); every
# input that crashed, timed out or ran out of memory is left in WORK_DIR/artifacts, to be
# minimised and added to tests/fixtures/crash/ as a regression test. Prints a summary line.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${KERNEL_LSP_ASAN_BUILD_DIR:-$root/build-asan}"
seconds="${1:?usage: fuzz_analysis.sh SECONDS [WORK_DIR]}"
work="${2:-$build/analysis-fuzz}"
fuzzer="$build/tests/fuzz/analysis_fuzzer"
[ -x "$fuzzer" ] || { echo "no $fuzzer: run tools/build_sanitized_binary.sh first" >&2; exit 2; }
mkdir -p "$work/corpus" "$work/seeds" "$work/artifacts"
find "$root/tests/fixtures" -name '*.cu' -size -64k -exec cp -t "$work/seeds" {} +
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
cd "$work"
"$fuzzer" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -max_total_time="$seconds" \
  -timeout=60 -rss_limit_mb=6144 -max_len=65536 -artifact_prefix="$work/artifacts/" \
  "$work/corpus" "$work/seeds" 2>&1 | tee "$work/fuzz.log" | grep -E "^#[0-9]+|INFO: fuzzed|crash|ERROR|DONE" || true
echo "fuzz_analysis: $(ls "$work/artifacts" | wc -l) artifacts, corpus $(ls "$work/corpus" | wc -l) inputs, log $work/fuzz.log"
