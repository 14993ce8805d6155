#!/usr/bin/env python3
"""Benchmark of `kernel-lsp lint`'s result cache over public CUDA code (/work/corpus).

Runs, on the same seeded sample of .cu/.cuh files, each a single `kernel-lsp lint --format json
--arch 9.0` process with one job per core:
  cold   - an empty cache folder (every file analysed, every result stored);
  warm   - nothing changed (the issue's target: under 5 s for 1,000 files on 2 cores);
  touch  - one sampled header's modification time changed, content not (rehash, still hits);
  edit   - one sampled .cu's content changed (one file analysed again);
and beside them the floor: `clang++-19 -fsyntax-only --cuda-device-only` of the same files with
the core of kernel-lsp's device command (analyzers/frontend/clang_command.cpp: the arch, CUDA's
headers and CCCL, the shims, the torch stand-in), as many at once as cores.

Corpus files are never left changed: the touched and the edited file get their content and
modification time back (try/finally). The sample: every .cu/.cuh under the projects of
/work/corpus/MANIFEST.json, sorted, then random.Random(SEED).sample(N).

usage: cache_bench.py [--binary B] [--files N] [--floor-files M] [--out results.json]
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path("/work/corpus")
SEED = 20261201


def sample(n):
    projects = [entry["project"] for entry in json.loads((CORPUS / "MANIFEST.json").read_text())]
    files = []
    for project in projects:
        for path in sorted((CORPUS / project).rglob("*")):
            if path.suffix in (".cu", ".cuh") and path.is_file():
                files.append(str(path))
    files.sort()
    return random.Random(SEED).sample(files, min(n, len(files)))


def lint(binary, cache, files, extra=()):
    start = time.monotonic()
    proc = subprocess.run([binary, "lint", "--format", "json", "--arch", "9.0", "--cache-dir", cache, *extra, *files],
                          capture_output=True, text=True)
    seconds = time.monotonic() - start
    report = json.loads(proc.stdout)
    return seconds, report


def floor_command(path):
    shims = ROOT / "analyzers/frontend/shims"
    standin = ROOT / "analyzers/frontend/torch_standin"
    return ["clang++-19", "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90a", "-nocudalib",
            "-fsyntax-only", "-std=c++17", "-ferror-limit=0", "-w", "-fno-spell-checking",
            "-Wno-unknown-cuda-version", "--cuda-path=/usr/local/cuda", "-isystem", "/usr/local/cuda/include/cccl",
            "-isystem", str(shims), "-include", "kernel_lsp_launch_shim.h", "-include", "kernel_lsp_nvcc_builtins.h",
            "-D_CG_CLUSTER_INTRINSICS_AVAILABLE", "-isystem", str(standin), path]


def floor(files):
    start = time.monotonic()
    with ThreadPoolExecutor(os.cpu_count()) as pool:
        list(pool.map(lambda f: subprocess.run(floor_command(f), capture_output=True), files))
    return time.monotonic() - start


def changed_then_restored(path, change):
    """Applies `change` to `path` and returns a function that puts content and mtime back."""
    original = Path(path).read_bytes()
    stat = os.stat(path)
    change(path)

    def restore():
        Path(path).write_bytes(original)
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    return restore


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=str(ROOT / "build/cli/kernel-lsp"))
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--floor-files", type=int, default=None, help="floor on the first M files only")
    ap.add_argument("--no-pch-files", type=int, default=0,
                    help="also a cold run with --no-shared-pch on the first M files (the PCH's effect)")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    files = sample(args.files)
    cache = tempfile.mkdtemp(prefix="kl_cache_bench_")
    # A fresh folder of toolkit PCHs: the cold run pays for building them.
    pch_dir = tempfile.mkdtemp(prefix="kl_cache_bench_pch_")
    os.environ["KERNEL_LSP_PCH_DIR"] = pch_dir
    runs = {}
    try:
        runs["cold"], cold = lint(args.binary, cache, files)
        pchs_built = len(list(Path(pch_dir).glob("*.pch")))
        runs["warm"], warm = lint(args.binary, cache, files)
        header = next(f for f in files if f.endswith(".cuh"))
        restore = changed_then_restored(header, lambda p: os.utime(p))
        try:
            runs["touch"], _ = lint(args.binary, cache, files)
        finally:
            restore()
        source = next(f for f in files if f.endswith(".cu"))
        restore = changed_then_restored(source, lambda p: open(p, "a").write("\n// kernel-lsp cache bench\n"))
        try:
            runs["edit"], _ = lint(args.binary, cache, files)
        finally:
            restore()
        floor_files = files[: args.floor_files] if args.floor_files else files
        floor_seconds = floor(floor_files)
        no_pch = None
        if args.no_pch_files:
            subset = files[: args.no_pch_files]
            with_seconds, with_report = lint(args.binary, tempfile.mkdtemp(prefix="kl_cache_bench_c1_"), subset)
            without_seconds, without_report = lint(args.binary, tempfile.mkdtemp(prefix="kl_cache_bench_c2_"),
                                                   subset, ["--no-shared-pch"])
            no_pch = {"files": len(subset), "cold_with_pch_seconds": with_seconds,
                      "cold_without_pch_seconds": without_seconds,
                      "findings_identical": with_report["findings"] == without_report["findings"]}
    finally:
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(pch_dir, ignore_errors=True)
    same = cold["findings"] == warm["findings"]
    result = {
        "machine": {"cores": os.cpu_count(), "cpu": subprocess.run(
            "lscpu | sed -n 's/^Model name: *//p'", shell=True, capture_output=True, text=True).stdout.strip()},
        "binary": args.binary,
        "recipe": f"every .cu/.cuh of /work/corpus/MANIFEST.json's projects, sorted, random.Random({SEED}).sample({args.files})",
        "files": len(files),
        "seconds": runs,
        "per_file_ms": {k: 1000 * v / len(files) for k, v in runs.items()},
        "floor": {"files": len(floor_files), "seconds": floor_seconds,
                  "per_file_ms": 1000 * floor_seconds / len(floor_files)},
        "cold_vs_floor": (runs["cold"] / len(files)) / (floor_seconds / len(floor_files)),
        "warm_findings_identical": same,
        "toolkit_pchs_built": pchs_built,
        "shared_pch_effect": no_pch,
        "findings": len(cold["findings"]),
        "analysis_failures": cold["summary"]["analysis_failures"],
        "touched": header, "edited": source,
        "file_list": files,
    }
    text = json.dumps(result, indent=2)
    if args.out:
        Path(args.out).write_text(text + "\n")
    summary = {k: v for k, v in result.items() if k != "file_list"}
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
