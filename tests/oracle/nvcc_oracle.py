#!/usr/bin/env python3
"""nvcc oracle for the architecture rule.

For every fixture folder under tests/fixtures/arch, every .cu in it and every capability of the
[kernel.*] sections whose `src` lists it (all of the build.toml's capabilities when none does):
compile the device side with `nvcc -gencode=arch=compute_XY,code=sm_XY -cubin` (XYa for X.Ya;
whole-program mode, no -rdc, as kernel-builder builds) and assert that kernel-lsp reports arch-mismatch for that file and
arch exactly when nvcc fails. A failure must also be one of the known "feature needs a newer arch"
messages, so a broken fixture cannot pass as an arch failure. `-cubin` runs everything nvcc does
for the target (front end with __CUDA_ARCH__ set, cicc, ptxas) and skips the host compiler, which
never sees __CUDA_ARCH__ and so cannot fail for an arch: a third of the time of `-c`. Also checks the inline `// expect:`
comments of each .cu and .cuh.

In a folder with headers (.cuh), each .cu is linted on its own and a finding in a header the .cu
includes counts for that .cu: nvcc compiles the header as part of the .cu (ptxas names no source
file, so the oracle cannot tell which file of the .cu failed).

usage: nvcc_oracle.py KERNEL_LSP NVCC FIXTURE_ROOT
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from expectations import compare, finding_archs, lint_json  # noqa: E402

FEATURE_FAILURE = re.compile(
    r"requires \.target sm_\d+|not supported on \.target|cannot be compiled for architecture|"
    r"__cluster_dims__ is not supported|is undefined|no suitable user-defined conversion|"
    r"no instance of overloaded function|not supported for this GPU architecture|"
    r"not supported on this architecture|requires sm_\d+|identifier .* is undefined|"
    r"namespace \"cooperative_groups\" has no member|"
    r"incomplete type \"nvcuda::wmma::fragment<")


def gencode(cap: str) -> str:
    c = cap.replace("+PTX", "")
    suffix = c[-1] if c[-1] in "af" else ""
    major, minor = c.rstrip("af").split(".")
    n = f"{major}{minor}{suffix}"
    return f"-gencode=arch=compute_{n},code=sm_{n}"


def compile_ok(nvcc: str, source: Path, cap: str):
    proc = subprocess.run([nvcc, "-std=c++17", gencode(cap), "-cubin", "-o", os.devnull, str(source)],
                          capture_output=True, text=True, timeout=600)
    return proc.returncode == 0, proc.stdout + proc.stderr


def section_capabilities(config, source: Path):
    """The capabilities kernel-builder compiles `source` for: those of the sections listing it."""
    kernels = config.get("kernel", {}).values()
    listed = [c for k in kernels if source.name in k.get("src", []) for c in k.get("cuda-capabilities", [])]
    every = [c for k in kernels for c in k.get("cuda-capabilities", [])]
    return list(dict.fromkeys(listed or every))


def flagged_for(findings, source: Path, headers, cap: str) -> bool:
    places = {source.resolve(), *(h.resolve() for h in headers)}
    return any(f["rule"] == "arch-mismatch" and Path(f["file"]).resolve() in places and cap in finding_archs(f)
               for f in findings)


def main():
    binary, nvcc, root = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    if not Path(nvcc).exists():
        print(f"SKIPPED: nvcc not found at {nvcc}: the nvcc oracle needs a CUDA toolkit")
        return 77
    failures, checks = [], 0
    for folder in sorted(p for p in root.iterdir() if (p / "build.toml").exists()):
        config = tomllib.loads((folder / "build.toml").read_text())
        sources = sorted(folder.glob("*.cu"))
        headers = sorted(folder.glob("*.cuh"))
        findings = lint_json(binary, [folder], ["--severity", "warning"])
        for source in sources + headers:
            failures += compare(source, findings, {"arch-mismatch"})
        own = {s: lint_json(binary, [s], ["--severity", "warning"]) if headers else findings for s in sources}
        jobs = [(s, c) for s in sources for c in section_capabilities(config, s)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            results = list(pool.map(lambda job: compile_ok(nvcc, *job), jobs))
        for (source, cap), (ok, log) in zip(jobs, results):
            checks += 1
            flagged = flagged_for(own[source], source, headers, cap)
            rel = source.relative_to(root)
            if not ok and not FEATURE_FAILURE.search(log):
                failures.append(f"{rel} [{cap}]: nvcc failed for a reason that is not an arch feature:\n{log[:800]}")
            elif (not ok) != flagged:
                what = "nvcc fails but kernel-lsp is silent" if not ok else "kernel-lsp reports a mismatch nvcc accepts"
                failures.append(f"{rel} [{cap}]: {what}" + (f"\n{log[:400]}" if not ok else ""))
    for failure in failures:
        print("FAIL:", failure)
    print(f"nvcc oracle: {checks} (file, capability) pairs checked")
    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
