#!/usr/bin/env bash
# `kernel-lsp bench` of the reference kernels on a CUDA machine, as a user runs it: the portable
# bundle (tools/portable_bundle.sh) benchmarks each project locally, writing its report to
# kernels/<name>/benchmarks/reports/; one project goes once more through the runner path
# (`--remote --runner sh`: the generated script runs through sh on this same machine).
#
#   bash bench/kernels/editor_bench.sh BUNDLE.tar.xz "rmsnorm geglu" [runner-project]
#
# The extensions are built first, in parallel, by the same local builder kernel-lsp bench calls
# (its build step then finds them up to date), so that compiles do not overlap the timed runs.
# Everything it writes is packed into $OUT/editor-bench.tar.gz.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
BUNDLE=$1
# Default: every reference kernel (a project under kernels/ with a build.toml).
PROJECTS=${2:-$(for t in kernels/*/build.toml; do basename "$(dirname "$t")"; done | tr '\n' ' ')}
RUNNER_PROJECT=${3:-}
OUT=${OUT:-$ROOT/bench/kernels/out}
mkdir -p "$OUT"
LOG=$OUT/editor-bench.log
exec > >(tee -a "$LOG") 2>&1
export PYTHONUNBUFFERED=1 KERNELS_CUDA_CAPS=${KERNELS_CUDA_CAPS:-9.0} MAX_JOBS=${MAX_JOBS:-4}
export PYTHONPATH=${LIGER_SRC:-$ROOT/.peers/liger/src}${PYTHONPATH:+:$PYTHONPATH}
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }

stamp "bundle $BUNDLE"
mkdir -p /tmp/kl && tar -C /tmp/kl -xJf "$BUNDLE"
KL=/tmp/kl/kernel-lsp-portable/kernel-lsp
export KERNEL_LSP_RESOURCE_DIR=$ROOT  # this tree's builder and runner scripts
"$KL" --version || { echo "the bundle does not run here"; ldd /tmp/kl/kernel-lsp-portable/kernel-lsp.bin; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv || true

stamp "build (capabilities $KERNELS_CUDA_CAPS)"
pids=()
for p in $PROJECTS; do
  python3 kernels/tools/build_local.py "kernels/$p" > "$OUT/build-$p.log" 2>&1 &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || echo "a build failed (see build-*.log)"; done

for p in $PROJECTS; do
  stamp "kernel-lsp bench kernels/$p"
  "$KL" bench "kernels/$p" --json "$OUT/bench-$p.json"
  echo "exit $?"
done
if [ -n "$RUNNER_PROJECT" ]; then
  stamp "kernel-lsp bench kernels/$RUNNER_PROJECT --remote --runner sh"
  "$KL" bench "kernels/$RUNNER_PROJECT" --remote --runner sh --report-dir /tmp/runner-report
  echo "exit $?"
  mkdir -p "$OUT/runner-report" && cp -r /tmp/runner-report/. "$OUT/runner-report/" 2>/dev/null
fi
stamp "done"
tar -czf "$OUT/editor-bench.tar.gz" -C "$ROOT" $(for p in $PROJECTS; do echo "kernels/$p/benchmarks/reports"; done) \
  -C "$OUT" $(cd "$OUT" && ls -d bench-*.json build-*.log runner-report 2>/dev/null)
