#!/usr/bin/env bash
# Labels the out-of-bounds fixtures on a GPU: compute-sanitizer memcheck, one kernel per process.
#
#   tests/accuracy/bounds/measure_on_gpu.sh [OUT_DIR]   (OUT_DIR: $OUT on the device machine)
#
# Builds tests/fixtures/bounds/*.cu with line info, runs every kernel of each under memcheck
# (`./fixture N`) and writes the raw reports to OUT_DIR/memcheck/<fixture>.<N>.txt, then
# bounds_labels.py turns them into OUT_DIR/labels.json; the reports end up in memcheck-raw.tgz.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
OUT_DIR=${1:-${OUT:-$ROOT/build-bounds/measure}}
WORK=$(mktemp -d /tmp/bounds-measure.XXXXXX)
mkdir -p "$OUT_DIR/memcheck"
cd "$ROOT"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -1
  compute-sanitizer --version | tail -1
} > "$OUT_DIR/machine.txt" 2>&1
for source in tests/fixtures/bounds/*.cu; do
  name=$(basename "$source" .cu)
  nvcc -O3 -lineinfo -arch=sm_90 -o "$WORK/$name" "$source" > "$OUT_DIR/build-$name.log" 2>&1 || { echo "BUILD FAILED $name"; continue; }
  count=$(timeout 20 "$WORK/$name" count | awk '/^COUNT/ {print $2}')
  for k in $(seq 0 $((${count:-0} - 1))); do
    timeout 60 compute-sanitizer --tool memcheck --print-limit 8 "$WORK/$name" "$k" > "$OUT_DIR/memcheck/$name.$k.txt" 2>&1
    echo "EXIT $?" >> "$OUT_DIR/memcheck/$name.$k.txt"
  done
done
python3 "$ROOT/tests/accuracy/bounds/bounds_labels.py" --raw "$OUT_DIR/memcheck" --machine "$OUT_DIR/machine.txt" \
  --out "$OUT_DIR/labels.json"
# One archive of the raw reports: the device tool brings back a limited number of files.
tar -C "$OUT_DIR" -czf "$OUT_DIR/memcheck-raw.tgz" memcheck && rm -rf "$OUT_DIR/memcheck"
cat "$OUT_DIR/labels.json"
