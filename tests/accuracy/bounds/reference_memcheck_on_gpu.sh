#!/usr/bin/env bash
# The reference kernels' own tests, at the sizes of them that reach a tail (rows and widths that
# no block or vector width divides), under compute-sanitizer memcheck through `kernel-lsp test`.
#
#   tests/accuracy/bounds/reference_memcheck_on_gpu.sh KERNEL_LSP VARIANTS_DIR OUT_DIR
#
# VARIANTS_DIR holds each kernel's build/<variant>/ folder as <name>/ (what
# `kernel-lsp build kernels/<name> --variant` writes; tests/kernels_shared/load_with_kernels.py
# builds them); the tests import them by package name. Writes OUT_DIR/<name>.memcheck.json and
# .log; a kernel that memcheck faults fails its run.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
KL=$1; VARIANTS=$2; OUT=$3
mkdir -p "$OUT"
PACKAGES=$(mktemp -d)
# The tests' parameters that leave a partial block, row or vector (see each tests/ file), per
# reference kernel (each folder of kernels/ with a build.toml; one without an entry fails).
declare -A TAILS=([rmsnorm]="4099 or 1003 or 37" [adaln]="100 or 12 or 37" [geglu]="4100 or 100 or 33"
                  [rope]="4100 or 7 or 100")
status=0
for toml in "$ROOT"/kernels/*/build.toml; do
  name=$(basename "$(dirname "$toml")")
  [ -n "${TAILS[$name]:-}" ] || { echo "$name: no tail sizes recorded here (add its tests' to TAILS)"; status=1; continue; }
  [ -d "$VARIANTS/$name" ] || { echo "$name: no build in $VARIANTS"; status=1; continue; }
  ln -sfn "$(cd "$VARIANTS/$name" && pwd)" "$PACKAGES/$name"
  PYTHONPATH="$PACKAGES${PYTHONPATH:+:$PYTHONPATH}" timeout 100 "$KL" test "$ROOT/kernels/$name" --sanitize memcheck \
    --timeout 90 --format json --command "python3 -m pytest -q -p no:cacheprovider tests -k '${TAILS[$name]}'" \
    > "$OUT/$name.memcheck.json" 2> "$OUT/$name.memcheck.log"
  code=$?
  echo "$name: exit $code, $(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d.get('findings', d) if isinstance(d, dict) else d), 'finding(s)')" "$OUT/$name.memcheck.json" 2>/dev/null)"
  tail -3 "$OUT/$name.memcheck.log"
  [ $code -eq 0 ] || status=1
done
exit $status
