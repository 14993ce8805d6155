#!/usr/bin/env bash
# Labels for shared-race and divergent-barrier, measured on a GPU with compute-sanitizer.
#
#   tests/accuracy/sync/measure_on_gpu.sh OUT_DIR [PLAN_DIR]
#
#   1. nvcc -O3 -lineinfo -arch=sm_90 every tests/fixtures/sync/*.cu, from the repository root
#      (line info then names tests/fixtures/sync/<f>.cu);
#   2. each fixture kernel in a process of its own (`./fx N`) under `compute-sanitizer --tool
#      racecheck` and `--tool synccheck`;
#   3. with PLAN_DIR (build-real, from tests/accuracy/real_programs/prepare.py): the public
#      programs of tests/accuracy/real_programs/labels-shared-memory.json, built as the plan says,
#      each run under both tools for its first launches (`--launch-count`);
#   4. raw outputs into OUT_DIR/raw/ and OUT_DIR/sync_raw.tar.gz, which
#      tests/accuracy/sync/sync_labels.py turns into labels.
# Bounded by MEASURE_DEADLINE_S (default 400 s); what is left when it passes is logged as skipped.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
OUT_DIR=${1:?out folder}
PLAN_DIR=${2:-}
mkdir -p "$OUT_DIR/raw/fixtures" "$OUT_DIR/raw/programs"
OUT_DIR=$(cd "$OUT_DIR" && pwd)
DEADLINE=${MEASURE_DEADLINE_S:-400}
LAUNCHES=${MEASURE_LAUNCH_COUNT:-4}
WORK=$(mktemp -d /tmp/sync-measure.XXXXXX)
mkdir -p "$WORK/bin" "$WORK/build"
LOG=$OUT_DIR/measure.log
START=$(date +%s)
export WORK OUT_DIR START DEADLINE LOG ROOT LAUNCHES
log() { echo "[$(($(date +%s) - START))s] $*" | tee -a "$LOG"; }
left() { echo $((DEADLINE - ($(date +%s) - START))); }
export -f log left

{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -1
  compute-sanitizer --version | tail -1
} > "$OUT_DIR/machine.txt" 2>&1
log "machine: $(tr '\n' ';' < "$OUT_DIR/machine.txt")"

# 1. Fixtures.
cd "$ROOT"
for f in tests/fixtures/sync/*.cu; do
  n=$(basename "$f" .cu)
  nvcc -O3 -lineinfo -arch=sm_90 -o "$WORK/bin/$n" "$f" > "$WORK/build/$n.log" 2>&1 || log "BUILD FAILED $n: $(head -3 "$WORK/build/$n.log")"
done

# 2. One process per fixture kernel and tool.
sanitize_fixture() {
  name=$1 k=$2 tool=$3
  rest=$(left)
  [ "$rest" -lt 10 ] && { echo "$name $k $tool deadline" >> "$OUT_DIR/raw/skipped.txt"; return; }
  limit=$((rest < 60 ? rest : 60))
  out="$OUT_DIR/raw/fixtures/$name.$k.$tool.txt"
  (cd "$ROOT" && timeout "$limit" compute-sanitizer --tool "$tool" --print-limit 64 "$WORK/bin/$name" "$k") > "$out" 2>&1
  echo "EXIT $?" >> "$out"
}
export -f sanitize_fixture
for bin in "$WORK"/bin/*; do
  name=$(basename "$bin")
  count=$(timeout 20 "$bin" count | awk '/^COUNT/ {print $2}')
  for k in $(seq 0 $((${count:-0} - 1))); do
    echo "$name $k racecheck"
    echo "$name $k synccheck"
  done
done | xargs -P 8 -L 1 bash -c 'sanitize_fixture "$0" "$1" "$2"'
log "fixtures: $(ls "$OUT_DIR"/raw/fixtures | wc -l) runs"

# 3. Real programs.
if [ -n "$PLAN_DIR" ] && [ -f "$PLAN_DIR/plan.json" ]; then
  PLAN_DIR=$(cd "$PLAN_DIR" && pwd)
  export PLAN_DIR
  python3 - "$ROOT/tests/accuracy/real_programs/labels-shared-memory.json" "$WORK" "${MEASURE_ONLY:-.}" <<'PY'
import json, re, sys
programs, work, only = json.load(open(sys.argv[1]))["programs"], sys.argv[2], re.compile(sys.argv[3])
with open(f"{work}/programs.tsv", "w") as p, open(f"{work}/runs.tsv", "w") as r:
    for prog in programs:
        if not only.search(prog["name"]):
            continue
        p.write(f'{prog["name"]}\t{prog["dir"]}\t{prog["build"]}\n')
        for i, args in enumerate(prog["runs"]):
            for tool in ("racecheck", "synccheck"):
                r.write(f'{prog["name"]}\t{i}\t{prog["dir"]}\t{tool}\t{" ".join(args)}\n')
PY
  build_one() {
    IFS=$'\t' read -r name dir cmd <<< "$1"
    (cd "$PLAN_DIR/src/$dir" && timeout 300 ${cmd/BIN/$WORK/bin/$name}) > "$WORK/build/$name.log" 2>&1 ||
      log "BUILD FAILED $name: $(grep -m2 -i error "$WORK/build/$name.log" | tr '\n' ' ')"
  }
  export -f build_one
  tr '\n' '\0' < "$WORK/programs.tsv" | xargs -0 -P "$(nproc)" -I{} bash -c 'build_one "$1"' _ {}
  sanitize_program() {
    IFS=$'\t' read -r name index dir tool args <<< "$1"
    [ -x "$WORK/bin/$name" ] || return
    rest=$(left)
    [ "$rest" -lt 15 ] && { echo "$name $index $tool deadline" >> "$OUT_DIR/raw/skipped.txt"; return; }
    limit=$((rest < 120 ? rest : 120))
    out="$OUT_DIR/raw/programs/$name.$index.$tool.txt"
    (cd "$PLAN_DIR/src/$dir" && timeout "$limit" compute-sanitizer --tool "$tool" --launch-count "$LAUNCHES" \
       --print-limit 64 "$WORK/bin/$name" $args) > "$out" 2>&1
    echo "EXIT $?" >> "$out"
    log "$name $index $tool: $(grep -c -E 'Race reported|Barrier error|Invalid' "$out") reports"
  }
  export -f sanitize_program
  tr '\n' '\0' < "$WORK/runs.tsv" | xargs -0 -P 8 -I{} bash -c 'sanitize_program "$1"' _ {}
fi
(cd "$OUT_DIR" && tar czf sync_raw.tar.gz raw machine.txt measure.log)
log "finished"
