#!/usr/bin/env bash
# Measures the access fixtures on a GPU (H200) and writes per-line labels.
#
#   tests/accuracy/measure_on_gpu.sh [OUT_DIR]     (OUT_DIR: $OUT on the device machine, else build-access/measure)
#
#   1. nvcc -O3 -lineinfo -arch=sm_90 every tests/fixtures/access/*.cu (in parallel);
#   2. compute-sanitizer --tool memcheck on the fixtures that use vector types or casts, one
#      process per kernel (`./fx N`): the print limit is per process, so a kernel that faults
#      32 times would otherwise hide every later kernel's reports, and a faulting kernel slows
#      the ones after it. Misaligned reports with their source line. Runs in the background,
#      next to step 3;
#   3. ncu --section SourceCounters on the coalescing fixtures, one process at a time, then the
#      source page as CSV (`--page source --csv --print-source cuda,sass`) for "L2 Theoretical
#      Sectors Global Excessive" per line. A fault outside the sanitizer leaves the context unusable,
#      so a fixture is re-run from the kernel after the one that faulted;
#   4. tests/accuracy/ncu_labels.py: raw outputs -> labels.json; raw text -> access_raw.tar.gz.
# Everything is bounded by MEASURE_DEADLINE_S (default 140 s after start): what is left when it
# passes is recorded as skipped and stays unlabeled. The log is written into OUT_DIR as it goes.
# MEASURE_ONLY="a b" measures only those fixtures (file names without .cu); their labels are then
# merged into labels.json by hand (the other files' labels stay as measured before).
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FIXTURES=$ROOT/tests/fixtures/access
OUT_DIR=${1:-${OUT:-$ROOT/build-access/measure}}
DEADLINE=${MEASURE_DEADLINE_S:-140}
ARCH=${MEASURE_ARCH:-sm_90}
WORK=$(mktemp -d /tmp/access-measure.XXXXXX)
mkdir -p "$WORK/bin" "$WORK/build" "$WORK/memcheck" "$WORK/ncu" "$OUT_DIR"
LOG=$OUT_DIR/measure.log
START=$(date +%s)
elapsed() { echo $(($(date +%s) - START)); }
remaining() { echo $((DEADLINE - $(elapsed))); }
log() { echo "[$(elapsed)s] $*" | tee -a "$LOG"; }

{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
  nvcc --version | tail -1
  ncu --version | tail -1
  compute-sanitizer --version | tail -1
} > "$WORK/machine.txt" 2>&1
log "machine: $(tr '\n' ';' < "$WORK/machine.txt")"

# 1. Build, from the repository root with relative paths (line info then names
#    tests/fixtures/access/<f>.cu, which ncu and compute-sanitizer resolve from the root).
#    MEASURE_PREBUILT=DIR uses binaries built elsewhere the same way, when they run here.
cd "$ROOT"
BIN=$WORK/bin
if [ -n "${MEASURE_PREBUILT:-}" ] && [ -d "$MEASURE_PREBUILT" ] &&
   timeout 20 "$MEASURE_PREBUILT/transpose" count 2>/dev/null | grep -q '^COUNT'; then
  BIN=$(cd "$MEASURE_PREBUILT" && pwd)
  log "using prebuilt fixtures in $MEASURE_PREBUILT"
  # Their line info also names the directory they were built in; let that path lead here too.
  built_in=$(strings "$BIN/transpose" | grep -m1 -E '^/.*/tests/fixtures/access$' | sed 's|/tests/fixtures/access$||')
  if [ -n "$built_in" ] && [ ! -e "$built_in" ]; then mkdir -p "$(dirname "$built_in")" && ln -s "$ROOT" "$built_in"; fi
else
  export WORK ARCH
  fixture_files() {
    if [ -n "${MEASURE_ONLY:-}" ]; then for n in $MEASURE_ONLY; do echo "tests/fixtures/access/$n.cu"; done
    else ls tests/fixtures/access/*.cu; fi
  }
  fixture_files | xargs -P "$(nproc)" -I{} bash -c '
    n=$(basename {} .cu)
    nvcc -O3 -lineinfo -arch=$ARCH -o "$WORK/bin/$n" {} > "$WORK/build/$n.log" 2>&1 || echo "BUILD FAILED $n"' | tee -a "$LOG"
fi
log "fixtures: $(ls "$BIN" | wc -l) of $(ls "$FIXTURES"/*.cu | wc -l)"
export BIN ROOT WORK ARCH

# 2. memcheck (background): fixtures with vector types, casts or shared byte buffers.
MEMCHECK_SET=$(grep -l -E 'reinterpret_cast|float4|float2|double2|__half2|bfloat162|int4|uint4|__align__' "$FIXTURES"/*.cu |
  xargs -n1 basename | sed 's/\.cu$//' | grep -v -x multidim)
(
  mkdir -p "$WORK/memcheck/runs"
  for name in $MEMCHECK_SET; do
    [ -x "$BIN/$name" ] || continue
    count=$(timeout 20 "$BIN/$name" count | awk '/^COUNT/ {print $2}')
    for k in $(seq 0 $((${count:-0} - 1))); do echo "$name $k"; done
  done | xargs -P 8 -L 1 bash -c '
    cd "$ROOT" && timeout 60 compute-sanitizer --tool memcheck --print-limit 32 "$BIN/$0" "$1" \
      > "$WORK/memcheck/runs/$0.$1.txt" 2>&1
    echo "EXIT $?" >> "$WORK/memcheck/runs/$0.$1.txt"'
  # One file per fixture, kernels in order, as the labeler reads it.
  for name in $MEMCHECK_SET; do
    ls "$WORK/memcheck/runs/$name".*.txt > /dev/null 2>&1 || continue
    ls "$WORK/memcheck/runs/$name".*.txt | sort -t. -k2,2n | xargs cat > "$WORK/memcheck/$name.txt"
  done
  echo done > "$WORK/memcheck/.done"
) &
MEMCHECK_PID=$!

# 3. ncu: coalescing fixtures first; the alignment-only ones last.
# Most informative first, so that a deadline cuts the least useful; then any fixture not named.
PRIORITY="bank_conflicts transpose matvec warp_groups wide_elements aos_soa blocks2d matmul column_ld grid_stride helpers
  reassign stencil broadcast single_lane pointer_bump rope_pairs reductions templates narrow_types
  multidim gather atomics"
ALIGNMENT_ONLY="const_offsets|half2_offsets|shared_vectors|launch_offsets|vector_copy|rmsnorm_vec"
REST=$(ls "$FIXTURES"/*.cu | xargs -n1 basename | sed 's/\.cu$//' | grep -v -x -E "$ALIGNMENT_ONLY" |
  grep -v -x -F "$(echo $PRIORITY | tr ' ' '\n')")
ORDER="$PRIORITY $REST rmsnorm_vec vector_copy const_offsets half2_offsets launch_offsets shared_vectors"
if [ -n "${MEASURE_ONLY:-}" ]; then ORDER=$MEASURE_ONLY; fi
for name in $ORDER; do
  [ -x "$BIN/$name" ] || continue
  from=0
  while :; do
    left=$(remaining)
    if [ "$left" -lt 8 ]; then
      log "deadline: $name from kernel $from not profiled"
      echo "$name $from" >> "$WORK/ncu/skipped.txt"
      break
    fi
    limit=$((left < 45 ? left : 45))
    rep="$WORK/ncu/$name.from$from"
    (cd "$ROOT" && timeout "$limit" ncu --clock-control none --cache-control none --section SourceCounters \
      --import-source yes -f -o "$rep" "$BIN/$name" from "$from") > "$rep.stdout" 2>&1
    code=$?
    echo "EXIT $code" >> "$rep.stdout"
    if [ -f "$rep.ncu-rep" ]; then
      timeout 20 ncu -i "$rep.ncu-rep" --page source --csv --print-source cuda,sass > "$rep.source.csv" 2> "$rep.source.err"
    fi
    log "ncu $name from $from: exit $code, $(grep -c '^RAN' "$rep.stdout") ran, $(wc -c < "$rep.source.csv" 2>/dev/null || echo 0) bytes csv"
    if [ "$code" = 124 ]; then echo "$name $from" >> "$WORK/ncu/skipped.txt"; break; fi
    if grep -q '^STICKY' "$rep.stdout"; then
      fault=$(grep '^FAULT' "$rep.stdout" | tail -1 | awk '{print $2}')
      [ -z "$fault" ] && break
      from=$((fault + 1))
      continue
    fi
    break
  done
done

# The memcheck runs are bounded by their own timeouts.
wait "$MEMCHECK_PID" 2>/dev/null
log "memcheck: $(ls "$WORK"/memcheck/*.txt 2>/dev/null | wc -l) runs, $(grep -l 'misaligned' "$WORK"/memcheck/*.txt 2>/dev/null | wc -l) with misaligned reports"

# 4. Labels and raw outputs.
python3 "$ROOT/tests/accuracy/ncu_labels.py" --fixtures "$FIXTURES" --raw "$WORK" \
  --out "$OUT_DIR/labels.json" --machine "$WORK/machine.txt" >> "$LOG" 2>&1 || log "labeler failed"
(cd "$WORK" && tar czf "$OUT_DIR/access_raw.tar.gz" --exclude='*.ncu-rep' --exclude='bin' .)
first=$(ls "$WORK"/ncu/*.source.csv 2>/dev/null | head -1)
[ -n "$first" ] && head -c 1200 "$first"
echo
tail -40 "$LOG"
log "finished"
