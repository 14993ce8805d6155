#!/usr/bin/env bash
# Benchmark: `kernel-lsp lint` over 100 kernel files (the arch and access fixtures plus the
# reference kernels, repeated to 100) on this machine's cores. Target: under a
# minute on 2 cores. Prints wall time and files/s; run on an idle machine. --no-cache: this
# measures analysis, not the result cache (cache_bench.py does).
#   bash bench/cli/lint_throughput.sh [path/to/kernel-lsp]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
binary="${1:-$root/build/cli/kernel-lsp}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mapfile -t sources < <(cd "$root" && ls tests/fixtures/arch/*/*.cu tests/fixtures/access/*.cu kernels/*/*_cuda/*.cu 2>/dev/null)
mkdir -p "$work/project"
cp "$root/tests/fixtures/arch/hopper/build.toml" "$work/project/build.toml"
sed -i 's/^src = \[.*\]/src = []/' "$work/project/build.toml"
i=0
while [ "$i" -lt 100 ]; do
  for s in "${sources[@]}"; do
    [ "$i" -ge 100 ] && break
    cp "$root/$s" "$work/project/f$i.cu"
    # fixtures include a sibling header
    cp "$(dirname "$root/$s")"/*.h "$work/project/" 2>/dev/null || true
    i=$((i + 1))
  done
done
start=$(date +%s.%N)
set +e
"$binary" lint --no-cache --severity error "$work/project" > "$work/out.txt"
status=$?
set -e
end=$(date +%s.%N)
seconds=$(echo "$end - $start" | bc)
echo "files: 100, cores: $(nproc), wall: ${seconds}s, exit: $status"
echo "machine: $(lscpu | grep 'Model name' | sed 's/.*: *//'), $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
tail -1 "$work/out.txt"
