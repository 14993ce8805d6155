#!/usr/bin/env bash
# Runs the public programs of tests/accuracy/real_programs under compute-sanitizer's memcheck at
# sizes that reach the tail, for labelling out-of-bounds on code we did not write.
#
#   tests/accuracy/bounds/real_programs_memcheck_on_gpu.sh PREPARED_DIR OUT_DIR
#
# PREPARED_DIR is what `prepare.py --tail-sizes --out DIR` wrote (plan.json and src/; carried to
# the device machine). Every program is built as the plan says and each of its runs goes under
# memcheck (the first 32 launches are checked; the rest run unchecked), one report file per run:
# OUT_DIR/memcheck-real/<program>.<run>.txt, ending in "EXIT <status>". PolyBench runs first (its
# sizes are the ones rewritten to reach the tail), llm.c last (its runs are the longest);
# MEASURE_DEADLINE_S (default 360) stops starting new runs. The reports end up in
# OUT_DIR/memcheck-real.tgz, which real_bounds_labels.py reads once unpacked.
set -uo pipefail
PREPARED=$(cd "${1:?prepared folder}" && pwd)
OUT_DIR=${2:?output folder}
DEADLINE=$(( $(date +%s) + ${MEASURE_DEADLINE_S:-360} ))
# MEMCHECK_WORK: a folder of an earlier call's builds, to run again without building.
WORK=${MEMCHECK_WORK:-$(mktemp -d /tmp/real-memcheck.XXXXXX)}
mkdir -p "$OUT_DIR/memcheck-real"
OUT_DIR=$(cd "$OUT_DIR" && pwd)
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -1
  compute-sanitizer --version | tail -1
} > "$OUT_DIR/machine-real.txt" 2>&1
# name, folder, build command, runs (one JSON list of argument lists), PolyBench first, llm.c last
python3 - "$PREPARED/plan.json" > "$WORK/plan.tsv" <<'EOF'
import json, sys
plan = json.load(open(sys.argv[1]))["programs"]
order = {"polybench": 0, "rodinia": 1, "cuda-samples": 2, "how-to-optim": 3, "llm.c": 4}
for p in sorted(plan, key=lambda p: order.get(p["project"], 5)):
    print("\t".join([p["name"], p["dir"], p["build"], json.dumps(p["runs"])]))
EOF
# Build every program first, several at a time (nvcc is most of the time), then run them in order.
export PREPARED WORK OUT_DIR
build_one() {
  IFS=$'\t' read -r name dir build runs <<< "$1"
  [ -x "$WORK/$name" ] && return
  (cd "$PREPARED/src/$dir" && timeout 300 bash -c "${build//BIN/$WORK/$name}") > "$OUT_DIR/memcheck-real/build-$name.log" 2>&1 \
    || echo "BUILD FAILED $name" >> "$OUT_DIR/memcheck-real/skipped.log"
}
export -f build_one
tr '\n' '\0' < "$WORK/plan.tsv" | xargs -0 -P "$(nproc)" -I{} bash -c 'build_one "$1"' _ {}
while IFS=$'\t' read -r name dir build runs; do
  bin="$WORK/$name"
  [ -x "$bin" ] || continue
  count=$(python3 -c 'import json,sys; print(len(json.loads(sys.argv[1])))' "$runs")
  for r in $(seq 0 $((count - 1))); do
    [ "$(date +%s)" -ge "$DEADLINE" ] && { echo "DEADLINE $name.$r" >> "$OUT_DIR/memcheck-real/skipped.log"; break; }
    mapfile -t args < <(python3 -c 'import json,sys; [print(a) for a in json.loads(sys.argv[1])[int(sys.argv[2])]]' "$runs" "$r")
    report="$OUT_DIR/memcheck-real/$name.$r.txt"
    echo "RUN $name ${args[*]}" > "$report"
    (cd "$PREPARED/src/$dir" && timeout 120 compute-sanitizer --tool memcheck --launch-count 32 --print-limit 20 \
      "$bin" "${args[@]}" < /dev/null) 2>&1 | tail -c 200000 >> "$report"
    echo "EXIT ${PIPESTATUS[0]}" >> "$report"
  done
done < "$WORK/plan.tsv"
ls "$OUT_DIR/memcheck-real" | wc -l
grep -l "Invalid __global__" "$OUT_DIR"/memcheck-real/*.txt || echo "no invalid global access reported"
# One archive (the device tool brings back a limited number of files); unpack it for the labeller.
tar -C "$OUT_DIR" -czf "$OUT_DIR/memcheck-real.tgz" memcheck-real machine-real.txt && rm -rf "$OUT_DIR/memcheck-real"
