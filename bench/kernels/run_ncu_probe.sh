#!/usr/bin/env bash
# Nsight Compute on the close calls of the kernel benchmarks (see ncu_probe.py).
# Needs the kernels built (bench/kernels/run_all.sh does it) and Liger's source
# in .peers/liger/src. Writes $OUT/ncu_probe.csv and prints it as a table.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
OUT=${OUT:-$ROOT/bench/kernels/out}
mkdir -p "$OUT"
BUILD=$ROOT/kernels/build
PYTHONPATH=$ROOT/.peers/liger/src${PYTHONPATH:+:$PYTHONPATH}
for toml in "$ROOT"/kernels/*/build.toml; do PYTHONPATH=$BUILD/$(basename "$(dirname "$toml")"):$PYTHONPATH; done
export PYTHONPATH
# The kernels whose close calls ncu_probe.py profiles.
for p in rmsnorm rope adaln; do
  ls "$BUILD/$p/$p"/_*.so > /dev/null 2>&1 || python3 kernels/tools/build_local.py "kernels/$p" --out "$BUILD" > "$OUT/build_$p.log" 2>&1
done
# Sections rather than raw metric names: they exist under every ncu version.
timeout "${NCU_TIMEOUT:-300}" ncu --profile-from-start off --cache-control all --clock-control none \
  --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
  --section WarpStateStats --section InstructionStats \
  --csv --page details python3 bench/kernels/ncu_probe.py > "$OUT/ncu_probe.csv" 2> "$OUT/ncu_probe.err"
echo "ncu exit $?"
tail -5 "$OUT/ncu_probe.err"
grep "^profiled:" "$OUT/ncu_probe.csv" || true
python3 - "$OUT/ncu_probe.csv" <<'PY'
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
if len(rows) < 2:
    sys.exit("no ncu rows")
head = rows[0]
col = {h: i for i, h in enumerate(head)}
want = ["Duration", "DRAM Throughput", "Memory Throughput", "Registers Per Thread", "Block Size",
        "Grid Size", "Achieved Occupancy", "Theoretical Occupancy", "Block Limit Registers",
        "Executed Instructions", "L1/TEX Hit Rate", "L2 Hit Rate", "Mem Busy", "Max Bandwidth",
        "Warp Cycles Per Issued Instruction", "Issue Slots Busy"]
kernels = {}
order = []
for r in rows[1:]:
    key = (r[col["ID"]], r[col["Kernel Name"]][:48])
    if key not in kernels:
        kernels[key] = {}
        order.append(key)
    name = r[col["Metric Name"]]
    if name in want:
        kernels[key][name] = f"{r[col['Metric Value']]} {r[col['Metric Unit']]}".strip()
for key in order:
    print(f"[{key[0]}] {key[1]}")
    print("    " + "; ".join(f"{m}: {kernels[key][m]}" for m in want if m in kernels[key]))
PY
