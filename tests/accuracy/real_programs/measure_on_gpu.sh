#!/usr/bin/env bash
# Measures the real programs of build-real/plan.json (written by prepare.py) on a GPU.
#
#   tests/accuracy/real_programs/measure_on_gpu.sh PLAN_DIR OUT_DIR
#
# Environment: MEASURE_ONLY (regex on program names), MEASURE_DEADLINE_S (default 500: what is
# left when it passes is logged as skipped), MEASURE_JOBS (parallel runs, default 4),
# MEASURE_RUN_LIMIT_S (seconds one run may take, default 110), MEASURE_SKIP_MEMCHECK (set: no
# step 3), MEASURE_PREBUILT (a folder of binaries named like the programs, used when they run here).
#   1. nvcc every program (the plan's command line, from inside its folder), in parallel;
#   2. every run under `ncu --section SourceCounters --kernel-id :::1` with demangled names (the
#      first launch of each kernel function and of each template instantiation), exported per kernel as the source page (CUDA lines, every file) and the
#      launch configuration; ncu serialises the profiled launches itself, the programs' host work
#      overlaps;
#   3. every run under `compute-sanitizer --tool memcheck` for its first 8 launches (the
#      programs validate before they benchmark, so these are the first kernels' first launches;
#      a misaligned access faults without memcheck too, so a run that exits 0 under ncu had none);
#   4. label.py: raw outputs -> OUT_DIR/labels.json; raw text -> OUT_DIR/real_raw.tar.gz.
set -uo pipefail
PLAN_DIR=$(cd "${1:?plan folder}" && pwd)
OUT_DIR=${2:?out folder}
mkdir -p "$OUT_DIR"; OUT_DIR=$(cd "$OUT_DIR" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
DEADLINE=${MEASURE_DEADLINE_S:-500}
JOBS=${MEASURE_JOBS:-4}
WORK=$(mktemp -d /tmp/real-measure.XXXXXX)
mkdir -p "$WORK/bin" "$WORK/build" "$WORK/ncu" "$WORK/memcheck"
LOG=$OUT_DIR/measure.log
START=$(date +%s)
export WORK PLAN_DIR START DEADLINE LOG
log() { echo "[$(($(date +%s) - START))s] $*" | tee -a "$LOG"; }

{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
  nvcc --version | tail -1
  ncu --version | tail -1
  compute-sanitizer --version | tail -1
} > "$WORK/machine.txt" 2>&1
cp "$WORK/machine.txt" "$OUT_DIR/machine.txt"
log "machine: $(tr '\n' ';' < "$WORK/machine.txt")"

# Program and run lists from the plan: "name<TAB>dir<TAB>build" and "name<TAB>index<TAB>args".
python3 - "$PLAN_DIR/plan.json" "${MEASURE_ONLY:-.}" "$WORK" <<'PY'
import json, re, sys
plan, only, work = json.load(open(sys.argv[1]))["programs"], re.compile(sys.argv[2]), sys.argv[3]
with open(f"{work}/programs.tsv", "w") as p, open(f"{work}/runs.tsv", "w") as r:
    for prog in plan:
        if not only.search(prog["name"]):
            continue
        p.write(f'{prog["name"]}\t{prog["dir"]}\t{prog["build"]}\n')
        for i, args in enumerate(prog["runs"]):
            r.write(f'{prog["name"]}\t{i}\t{prog["dir"]}\t{" ".join(args)}\n')
PY
log "programs: $(wc -l < "$WORK/programs.tsv"), runs: $(wc -l < "$WORK/runs.tsv")"

# 1. Build.
build_one() {
  IFS=$'\t' read -r name dir cmd <<< "$1"
  if [ -n "${MEASURE_PREBUILT:-}" ] && [ -x "$MEASURE_PREBUILT/$name" ]; then
    cp "$MEASURE_PREBUILT/$name" "$WORK/bin/$name"; return
  fi
  (cd "$PLAN_DIR/src/$dir" && timeout 300 ${cmd/BIN/$WORK/bin/$name}) > "$WORK/build/$name.log" 2>&1 ||
    echo "BUILD FAILED $name: $(grep -m2 -i error "$WORK/build/$name.log" | tr '\n' ' ')"
}
export -f build_one
export MEASURE_PREBUILT=${MEASURE_PREBUILT:-}
tr '\n' '\0' < "$WORK/programs.tsv" | xargs -0 -P "$(nproc)" -I{} bash -c 'build_one "$1"' _ {} | tee -a "$LOG"
log "built: $(ls "$WORK/bin" | wc -l) of $(wc -l < "$WORK/programs.tsv")"

left() { echo $((DEADLINE - ($(date +%s) - START))); }
export -f left

# 2. ncu, one process per run, JOBS at a time; each bounded by what is left.
ncu_one() {
  IFS=$'\t' read -r name index dir args <<< "$1"
  [ -x "$WORK/bin/$name" ] || return
  rest=$(left)
  if [ "$rest" -lt 15 ]; then echo "$name $index deadline" >> "$WORK/ncu/skipped.txt"; return; fi
  cap=${MEASURE_RUN_LIMIT_S:-110}
  limit=$((rest < cap ? rest : cap))
  rep="$WORK/ncu/$name.$index"
  (cd "$PLAN_DIR/src/$dir" && timeout "$limit" ncu --clock-control none --cache-control none \
     --section SourceCounters --metrics launch__block_size,launch__grid_size \
     --kernel-name-base demangled --kernel-id :::1 --import-source yes -f -o "$rep" "$WORK/bin/$name" $args) > "$rep.stdout" 2>&1
  code=$?
  echo "EXIT $code" >> "$rep.stdout"
  [ "$code" = 124 ] && echo "$name $index timeout" >> "$WORK/ncu/skipped.txt"
  if [ -f "$rep.ncu-rep" ]; then
    timeout 60 ncu -i "$rep.ncu-rep" --page source --csv --print-source cuda,sass > "$rep.source.csv" 2> "$rep.source.err"
    timeout 30 ncu -i "$rep.ncu-rep" --page raw --csv --metrics launch__block_size,launch__grid_size,launch__function_pcs \
      > "$rep.raw.csv" 2> "$rep.raw.err"
  fi
  echo "[$(($(date +%s) - START))s] ncu $name $index: exit $code, $(grep -c '==PROF== Profiling' "$rep.stdout") profiled, $(wc -c < "$rep.source.csv" 2>/dev/null || echo 0) bytes" | tee -a "$LOG"
}
export -f ncu_one

# 3. memcheck, in the background beside ncu.
memcheck_one() {
  IFS=$'\t' read -r name index dir args <<< "$1"
  [ -x "$WORK/bin/$name" ] || return
  rest=$(left)
  [ "$rest" -lt 15 ] && { echo "$name $index deadline" >> "$WORK/memcheck/skipped.txt"; return; }
  limit=$((rest < 90 ? rest : 90))
  out="$WORK/memcheck/$name.$index.txt"
  (cd "$PLAN_DIR/src/$dir" && timeout "$limit" compute-sanitizer --tool memcheck --launch-count 8 --print-limit 32 \
     "$WORK/bin/$name" $args) > "$out" 2>&1
  echo "EXIT $?" >> "$out"
}
export -f memcheck_one
if [ -z "${MEASURE_SKIP_MEMCHECK:-}" ]; then
  ( tr '\n' '\0' < "$WORK/runs.tsv" | xargs -0 -P 2 -I{} bash -c 'memcheck_one "$1"' _ {} ) &
else
  ( log "memcheck skipped (MEASURE_SKIP_MEMCHECK)" ) &
fi
MEMCHECK=$!
tr '\n' '\0' < "$WORK/runs.tsv" | xargs -0 -P "$JOBS" -I{} bash -c 'ncu_one "$1"' _ {}
wait "$MEMCHECK"
log "memcheck: $(ls "$WORK"/memcheck/*.txt 2>/dev/null | wc -l) runs, $(grep -l -i 'misaligned' "$WORK"/memcheck/*.txt 2>/dev/null | wc -l) with misaligned reports, $(grep -L 'ERROR SUMMARY: 0 errors' "$WORK"/memcheck/*.txt 2>/dev/null | wc -l) not clean"

# 4. Labels and raw outputs.
cp "$PLAN_DIR/plan.json" "$WORK/plan.json"
if [ -f "$HERE/label.py" ]; then
  python3 "$HERE/label.py" --raw "$WORK" --src "$PLAN_DIR/src" --out "$OUT_DIR/labels.json" >> "$LOG" 2>&1 || log "labeler failed"
fi
(cd "$WORK" && tar czf "$OUT_DIR/real_raw.tar.gz" --exclude='*.ncu-rep' --exclude='bin' .)
log "finished; raw $(du -h "$OUT_DIR/real_raw.tar.gz" | cut -f1)"
