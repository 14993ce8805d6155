#!/usr/bin/env bash
# Compile-only builds (`kernel-lsp build --format json`) of public kernel-builder projects on a
# machine that has torch, so that sections which `depends = ["torch"]` find its real headers.
# The projects are copied into the git-ignored .corpus/ first (never committed), e.g. from
# huggingface/kernels-community; the portable bundle comes from tools/portable_bundle.sh.
#   bash bench/corpus/builds_on_gpu.sh build/kernel-lsp-portable.tar.xz "relu rotary ..."
set -uo pipefail
BUNDLE=$1
PROJECTS=$2
OUT=${OUT:-/tmp/corpus-builds-out}
mkdir -p /tmp/kl /tmp/cb "$OUT" && tar -C /tmp/kl -xJf "$BUNDLE"
KL=/tmp/kl/kernel-lsp-portable/kernel-lsp
export KERNEL_LSP_RESOURCE_DIR=$PWD
for p in $PROJECTS; do
  start=$(date +%s.%N)
  timeout 300 "$KL" build ".corpus/$p" --capability 9.0 -j "$(nproc)" --format json > "/tmp/cb/$p.json" 2> "/tmp/cb/$p.err"
  rc=$?
  echo "$p exit $rc $(python3 -c "import time; print(round(time.time() - $start, 1))") s"
done
tar -czf "$OUT/corpus-builds.tar.gz" -C /tmp/cb .
