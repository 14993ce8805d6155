# Written by `kernel-lsp bench` for a benchmark runner (docs/BENCH_RUNNER.md) and read by /bin/sh
# from its standard input on the GPU machine. It unpacks the project and kernel-lsp's local
# builder into a temporary folder, checks for torch and a GPU, builds the extension, runs the
# benchmark in the project's convention (kernel-lsp's: benchmarks/benchmark.py --json; the
# `kernels` library's: its Benchmark classes against kernel-builder's build/<variant>/, through
# run_kernels_benchmarks.py), prints the results between two marker lines and removes the
# folder. POSIX sh; needs tar and base64 (Python's are used when they are missing) and
# ${KERNEL_LSP_PYTHON:-python3} with torch. Lines starting with "::kernel-lsp::" are for
# kernel-lsp: stages for its progress, what the machine is, and the results' markers.
#
# The whole script is one brace group: sh reads all of it from stdin before running any of it,
# so that nothing it starts can read the rest of the script as its own input.
{
exec </dev/null
set -u
kl_py=${KERNEL_LSP_PYTHON:-python3}
kl_name=@KL_PROJECT_NAME@
kl_convention=@KL_CONVENTION@

kl_say() { printf '::kernel-lsp:: %s\n' "$*"; }
kl_fail() {
  kl_code=$1
  shift
  printf 'kernel-lsp runner: %s\n' "$*" >&2
  exit "$kl_code"
}
kl_decode() {
  if command -v base64 >/dev/null 2>&1; then base64 -d; else "$kl_py" -m base64 -d; fi
}
kl_unpack() {
  mkdir -p "$2" || return 1
  if command -v tar >/dev/null 2>&1; then (cd "$2" && tar -xzf "$1"); else "$kl_py" -m tarfile -e "$1" "$2"; fi
}
kl_field() {
  "$kl_py" -c 'import json, sys; print(json.load(open(sys.argv[1])).get(sys.argv[2]) or "")' "$kl_work/probe.json" "$1"
}

command -v "$kl_py" >/dev/null 2>&1 || kl_fail 2 "$kl_py not found on $(hostname 2>/dev/null): set KERNEL_LSP_PYTHON to a python with torch"
kl_work=$(mktemp -d "${TMPDIR:-/tmp}/kernel-lsp-bench.XXXXXX" 2>/dev/null) ||
  { kl_work=${TMPDIR:-/tmp}/kernel-lsp-bench.$$ && mkdir -m 700 "$kl_work"; } ||
  kl_fail 2 "cannot create a temporary folder"
trap 'rm -rf "$kl_work"' EXIT
trap 'exit 143' HUP INT TERM PIPE

kl_decode >"$kl_work/tools.tar.gz" <<'KERNEL_LSP_TOOLS'
@KL_TOOLS_PAYLOAD@
KERNEL_LSP_TOOLS
kl_decode >"$kl_work/project.tar.gz" <<'KERNEL_LSP_PROJECT'
@KL_PROJECT_PAYLOAD@
KERNEL_LSP_PROJECT
kl_project=$kl_work/project/$kl_name
kl_unpack "$kl_work/tools.tar.gz" "$kl_work/kl" && kl_unpack "$kl_work/project.tar.gz" "$kl_project" ||
  kl_fail 2 "cannot unpack the project"

kl_say "stage checking the machine"
"$kl_py" "$kl_work/kl/runner/scripts/probe_machine.py" "$kl_project/build.toml" >"$kl_work/probe.json"
kl_status=$?
kl_say "machine $(cat "$kl_work/probe.json")"
[ "$kl_status" -eq 0 ] || kl_fail "$kl_status" "this machine cannot run the benchmark (the probe above says why)"

kl_caps=$(kl_field build_caps)
kl_package=$(kl_field name)
set --
if [ -z "${KERNELS_CUDA_CAPS:-}" ] && [ -n "$kl_caps" ]; then set -- --caps "$kl_caps"; fi
if [ "$kl_convention" = kernels ]; then set -- "$@" --layout variant; fi
kl_say "stage building the extension"
"$kl_py" "$kl_work/kl/kernels/tools/build_local.py" "$kl_project" --out "$kl_work/build" "$@" ||
  kl_fail $? "building the extension failed"

kl_say "stage running the benchmark"
if [ "$kl_convention" = kernels ]; then
  kl_python_name=$(printf '%s' "${kl_package:-$kl_name}" | tr '-' '_')
  "$kl_py" "$kl_work/kl/runner/scripts/run_kernels_benchmarks.py" "$kl_project" --kernel "$kl_work/build" \
    --package "$kl_python_name" --json "$kl_work/results.json" ||
    kl_fail $? "the benchmark failed"
else
  PYTHONPATH="$kl_work/build/${kl_package:-$kl_name}${PYTHONPATH:+:$PYTHONPATH}" \
    "$kl_py" "$kl_project/benchmarks/benchmark.py" --json "$kl_work/results.json" ||
    kl_fail $? "the benchmark failed"
fi
[ -s "$kl_work/results.json" ] || kl_fail 1 "the benchmark wrote no results"

kl_say "results begin"
cat "$kl_work/results.json"
printf '\n'
kl_say "results end"
}
