#!/usr/bin/env bash
# On a GPU machine with torch and nvcc: benchmarks kernel-builder projects through the `kernels`
# library's benchmark convention, built and run by kernel-lsp:
#   kernel-lsp bench PROJECT --convention kernels    (build/<variant>/ by the local builder, then
#                                                     runner/scripts/run_kernels_benchmarks.py)
# and, with KERNELS_SRC (the `kernels` library's source folder, e.g. v0.13.0's src/) and
# TABULATE_SRC (python-tabulate's, which `kernels benchmark` needs), the library's own
# `kernels benchmark` on the same builds: the same workloads timed by the upstream runner.
#   bash bench/kernels/kernels_convention_on_gpu.sh KERNEL_LSP OUT PROJECT...
# With CAPABILITY (e.g. 9.0), the variants are built first, three projects at a time, with
# `kernel-lsp build --variant --capability CAPABILITY` (the benchmarks then find them built; a
# project whose build fails is not benchmarked).
# Writes OUT/<project>.json (kernel-lsp's results), OUT/<project>-report/ (report.md, plot),
# OUT/<project>.log, OUT/<project>.upstream.log and OUT/summary.txt (exit code and seconds each).
set -uo pipefail
KL=$1
OUT=$2
shift 2
mkdir -p "$OUT"
if [ -n "${KERNELS_SRC:-}" ]; then
  # `import kernels` reads its version from package metadata: a minimal dist-info stands in.
  site=$(mktemp -d)
  mkdir -p "$site/kernels-0.13.0.dist-info"
  printf 'Metadata-Version: 2.1\nName: kernels\nVersion: 0.13.0\n' >"$site/kernels-0.13.0.dist-info/METADATA"
  export PYTHONPATH="$KERNELS_SRC:$site${TABULATE_SRC:+:$TABULATE_SRC}${PYTHONPATH:+:$PYTHONPATH}"
fi
if [ -n "${CAPABILITY:-}" ]; then
  start=$(date +%s.%N)
  printf '%s\n' "$@" | xargs -P 3 -I{} sh -c \
    'timeout 900 "$1" build "$2" --variant --capability "$3" >"$4/$(basename "$2").build.log" 2>&1; rc=$?; [ $rc -eq 0 ] || touch "$4/$(basename "$2").build-failed"; echo "$(basename "$2") build exit $rc"' \
    _ "$KL" {} "$CAPABILITY" "$OUT" | tee -a "$OUT/summary.txt"
  echo "builds $(python3 -c "import time; print(round(time.time() - $start, 1))") s" | tee -a "$OUT/summary.txt"
fi
for project in "$@"; do
  name=$(basename "$project")
  if [ -e "$OUT/$name.build-failed" ]; then
    echo "$name skipped: its build failed ($name.build.log)" | tee -a "$OUT/summary.txt"
    continue
  fi
  start=$(date +%s.%N)
  timeout 1200 "$KL" bench "$project" --convention kernels --json "$OUT/$name.json" \
    --report-dir "$OUT/$name-report" >"$OUT/$name.log" 2>&1
  rc=$?
  echo "$name kernel-lsp-bench exit $rc $(python3 -c "import time; print(round(time.time() - $start, 1))") s" | tee -a "$OUT/summary.txt"
  if [ -n "${KERNELS_SRC:-}" ] && [ "$rc" -ne 2 ]; then
    start=$(date +%s.%N)
    (cd "$(dirname "$project")" && timeout 600 python3 -c 'import sys; from kernels.cli import main; sys.argv[0] = "kernels"; main()' \
      benchmark "./$name" --warmup 10 --iterations 100 --output "$OUT/$name.upstream.json") >"$OUT/$name.upstream.log" 2>&1
    echo "$name kernels-benchmark exit $? $(python3 -c "import time; print(round(time.time() - $start, 1))") s" | tee -a "$OUT/summary.txt"
  fi
done
