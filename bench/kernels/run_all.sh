#!/usr/bin/env bash
# Build, test and benchmark the four kernel projects on a CUDA machine.
#
#   bash bench/kernels/run_all.sh            # writes under $OUT (device tool) or bench/kernels/out
#
# Env: KERNELS_CUDA_CAPS (default 9.0: build only what the GPU runs; CI
# compiles every capability of build.toml), RUN_TESTS=0 / RUN_BENCH=0 /
# RUN_E2E=0 to skip a stage, E2E_COMPILE=1 to time torch.compile end to end,
# BENCH_ONLY=rmsnorm,rope to limit the benchmarks, LIGER_SRC (default
# .peers/liger/src) for the Liger-Kernel peer.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
OUT=${OUT:-$ROOT/bench/kernels/out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/run_all.log") 2>&1
export PYTHONUNBUFFERED=1
export KERNELS_CUDA_CAPS=${KERNELS_CUDA_CAPS:-9.0}
BUILD=$ROOT/kernels/build
LIGER_SRC=${LIGER_SRC:-$ROOT/.peers/liger/src}
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }

stamp "machine"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv || true
python3 -c "import torch, triton; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)"

stamp "build (capabilities $KERNELS_CUDA_CAPS)"
export MAX_JOBS=${MAX_JOBS:-4}
# The reference kernels: every project under kernels/ with a build.toml.
KERNEL_NAMES=($(for t in kernels/*/build.toml; do basename "$(dirname "$t")"; done))
pids=()
for p in "${KERNEL_NAMES[@]}"; do
  python3 kernels/tools/build_local.py "kernels/$p" --out "$BUILD" > "$OUT/.build_$p.log" 2>&1 &
  pids+=($!)
done
build_ok=1
for i in "${!pids[@]}"; do
  p=${KERNEL_NAMES[$i]}
  if wait "${pids[$i]}"; then stamp "built $p"; else stamp "BUILD FAILED: $p"; build_ok=0; tail -60 "$OUT/.build_$p.log"; fi
done
cat "$OUT"/.build_*.log > "$OUT/build.log"; rm -f "$OUT"/.build_*.log
export PYTHONPATH=$(printf '%s:' "${KERNEL_NAMES[@]/#/$BUILD/}")$LIGER_SRC${PYTHONPATH:+:$PYTHONPATH}

stamp "error-path probe (a bad argument must raise, not crash)"
cat > /tmp/kl_err.py <<'PY'
import torch, rmsnorm
x = torch.randn(4, 64, device="cuda")
try:
    rmsnorm.rms_norm(x, torch.randn(32, device="cuda"))
    print("NO ERROR")
except RuntimeError as e:
    print("RAISED:", str(e).splitlines()[0])
PY
so=$(ls "$BUILD"/rmsnorm/rmsnorm/_rmsnorm_cuda_*.so 2>/dev/null | head -1)
if [ -n "$so" ]; then
  echo "libstdc++ linkage of $(basename "$so"): $(ldd "$so" | grep -c 'libstdc++') dynamic; $(nm -C --defined-only "$so" 2>/dev/null | grep -c 'std::locale::') std::locale symbols defined inside"
fi
if ! python3 /tmp/kl_err.py; then
  echo "crashed; native backtrace:"
  timeout 150 cuda-gdb -q -batch -ex run -ex bt --args python3 /tmp/kl_err.py 2>&1 | grep -vE "^\[(New |)Thread|^\[Detaching|^warning" | tail -45
fi

if [ "${RUN_TESTS:-1}" = 1 ]; then
  stamp "tests"
  python3 -m pytest -q -p no:cacheprovider --continue-on-collection-errors -rfE --tb=short --maxfail=40 \
    $(printf 'kernels/%s/tests ' "${KERNEL_NAMES[@]}") > "$OUT/pytest.log" 2>&1
  tail -25 "$OUT/pytest.log"
fi

if [ "${RUN_PROBE:-1}" = 1 ]; then
  stamp "small-shape probe (do_bench vs profiler kernel time)"
  timeout 120 python3 bench/kernels/small_probe.py 2>&1 | tail -14
fi

if [ "${RUN_BENCH:-1}" = 1 ]; then
  stamp "benchmarks"
  timeout "${BENCH_TIMEOUT:-420}" python3 bench/kernels/bench_all.py --json "$OUT/results.json" --only "${BENCH_ONLY:-$(IFS=,; echo "${KERNEL_NAMES[*]}")}" \
    --command "bash bench/kernels/run_all.sh (KERNELS_CUDA_CAPS=$KERNELS_CUDA_CAPS) -> python3 bench/kernels/bench_all.py" \
    > "$OUT/bench.log" 2>&1
  grep -vE "^  " "$OUT/bench.log" | grep -v "^$" | head -5
fi

if [ "${RUN_E2E:-1}" = 1 ]; then
  stamp "end to end (Qwen3, 4 layers of the 8B geometry)"
  timeout "${E2E_TIMEOUT:-240}" python3 bench/kernels/e2e_qwen3.py --json "$OUT/e2e_qwen3.json" ${E2E_COMPILE:+--compile} 2>&1 | tail -8
fi

stamp "done"
if [ "${RUN_BENCH:-1}" = 1 ] && [ -f "$OUT/results.json" ]; then
  python3 bench/kernels/bench_all.py --json "$OUT/results.json" --print-only
fi
