#!/usr/bin/env bash
# Parse time of a ~1,000-line kernel file with and without the access model.
#
#   bench/model/run_bench.sh [KERNEL_LSP_BINARY] [RUNS]
#
# Runs `kernel-lsp check bench/model/access_bench.cu --arch 9.0` RUNS times (default 9) with the
# model on and RUNS times with KERNEL_LSP_DISABLE_ACCESS_MODEL=1, interleaved, and prints the
# median of the "parse sm_90" stage (front end + model layer) and of the total. The machine's
# load moves whole runs by tens of percent, so the model's own time is also measured inside each
# run (KERNEL_LSP_TIME_ACCESS_MODEL=1) and set against the same run's parse time. Each run is a
# fresh process (no preamble cache), as `kernel-lsp lint` runs.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${1:-$ROOT/build-access/cli/kernel-lsp}
RUNS=${2:-9}
FILE=$ROOT/bench/model/access_bench.cu
on=(); off=(); on_total=(); off_total=(); model=(); share=()
stage() { awk -v s="$2" '$0 ~ "^  "s" " { print $(NF-1) }' <<<"$1"; }
for i in $(seq "$RUNS"); do
  out=$(KERNEL_LSP_TIME_ACCESS_MODEL=1 "$BIN" check "$FILE" --arch 9.0 2>"$ROOT/build-access/.model_time")
  on+=("$(stage "$out" "parse sm_90")"); on_total+=("$(stage "$out" "total")")
  m=$(awk '/^access model:/ { print $3 }' "$ROOT/build-access/.model_time")
  model+=("$m")
  share+=("$(awk -v m="$m" -v p="${on[-1]}" 'BEGIN { printf "%.2f", m / (p - m) * 100 }')")
  out=$(KERNEL_LSP_DISABLE_ACCESS_MODEL=1 "$BIN" check "$FILE" --arch 9.0)
  off+=("$(stage "$out" "parse sm_90")"); off_total+=("$(stage "$out" "total")")
done
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
m_on=$(median "${on[@]}"); m_off=$(median "${off[@]}")
t_on=$(median "${on_total[@]}"); t_off=$(median "${off_total[@]}")
accesses=$( ("$BIN" lint --no-cache "$FILE" --arch 9.0 --format json || true) | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["findings"]))')
echo "file: bench/model/access_bench.cu ($(wc -l < "$FILE") lines), $RUNS runs each, medians"
echo "parse sm_90 with the access model:    $m_on ms   (runs: ${on[*]})"
echo "parse sm_90 without (DISABLE=1):      $m_off ms   (runs: ${off[*]})"
echo "total with / without:                 $t_on / $t_off ms"
awk -v a="$m_on" -v b="$m_off" 'BEGIN { printf "difference of the medians:            %+.1f %%\n", (a - b) / b * 100 }'
echo "access model's own time (in-process):  $(median "${model[@]}") ms   (runs: ${model[*]})"
echo "model time / parse time without it:   $(median "${share[@]}") %   (per run: ${share[*]})"
echo "findings in the file:                 $accesses"
