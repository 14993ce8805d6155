#!/usr/bin/env python3
"""CTest driver: new_kernel_project.sh scaffolds a project that passes our checks.

1. The script creates the tree; bad names and non-empty folders are refused (exit 2).
2. check_build_toml.py --strict accepts its build.toml (files included).
3. Compliance: no pybind11 / torch/extension.h / PYBIND11_MODULE / TORCH_LIBRARY( with a fixed
   name / hard-coded torch.ops.<name>; Python imports its ops with `from ._ops import ops`.
4. Every Python file compiles (py_compile).
5. With --nvcc: the kernel header compiles (all launchers instantiated) for every capability
   listed in the scaffolded build.toml.
Closes with `N passed, N failed`; exit 1 on failure. Standard library only (Python 3.11+).
"""
import argparse
import concurrent.futures
import os
import py_compile
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

SKILL = Path(__file__).resolve().parents[2] / "skills" / "cuda-kernels"
SCAFFOLD = SKILL / "scripts" / "new_kernel_project.sh"
CHECKER = SKILL / "scripts" / "check_build_toml.py"
INSTANTIATE = SKILL / "assets" / "rmsnorm" / "instantiate_check.cu"

FORBIDDEN = [
    (re.compile(r"pybind11|PYBIND11_MODULE|torch/extension\.h"), "pybind11 bindings"),
    (re.compile(r"\bTORCH_LIBRARY(_FRAGMENT|_IMPL)?\s*\("), "TORCH_LIBRARY with a fixed namespace"),
    (re.compile(r"torch\.ops\.(?!load_library)[A-Za-z_]\w*\."), "hard-coded torch.ops.<namespace>"),
    (re.compile(r"^\s*(from|import)\s+demo_rmsnorm\b", re.M), "absolute import of the kernel's own package"),
]


class Results:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok: bool, what: str, detail: str = "") -> None:
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL {what}" + (f"\n{detail}" if detail else ""))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nvcc", default=os.environ.get("NVCC"))
    args = ap.parse_args()
    r = Results()
    with tempfile.TemporaryDirectory(prefix="scaffold_") as tmp:
        proj = Path(tmp) / "demo"
        p = subprocess.run(["bash", str(SCAFFOLD), "demo-rmsnorm", str(proj), "--org", "acme"],
                           capture_output=True, text=True)
        r.check(p.returncode == 0, "scaffold runs", p.stdout + p.stderr)
        if p.returncode != 0:
            print(f"{r.passed} passed, {r.failed} failed")
            return 1
        again = subprocess.run(["bash", str(SCAFFOLD), "demo-rmsnorm", str(proj)], capture_output=True, text=True)
        r.check(again.returncode == 2, "refuses a non-empty folder")
        bad = subprocess.run(["bash", str(SCAFFOLD), "Demo_RMSNorm", str(Path(tmp) / "x")], capture_output=True, text=True)
        r.check(bad.returncode == 2, "refuses an invalid name")

        p = subprocess.run([sys.executable, str(CHECKER), "--strict", str(proj)], capture_output=True, text=True)
        r.check(p.returncode == 0, "check_build_toml --strict accepts build.toml", p.stdout + p.stderr)

        for f in sorted(proj.rglob("*")):
            if f.suffix not in {".py", ".cpp", ".h", ".cu", ".cuh"}:
                continue
            text = f.read_text()
            for pattern, what in FORBIDDEN:
                if what.startswith("absolute import") and "torch-ext" not in f.parts:
                    continue  # tests and benchmarks import the built package by its name
                m = pattern.search(text)
                r.check(m is None, f"{f.relative_to(proj)}: no {what}", m.group(0) if m else "")
        init = (proj / "torch-ext" / "demo_rmsnorm" / "__init__.py").read_text()
        r.check("from ._ops import" in init, "__init__.py imports ops from ._ops")
        binding = (proj / "torch-ext" / "torch_binding.cpp").read_text()
        r.check("TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME" in binding and "REGISTER_EXTENSION(TORCH_EXTENSION_NAME)" in binding,
                "torch_binding.cpp registers through TORCH_LIBRARY_EXPAND and REGISTER_EXTENSION")

        for f in sorted(proj.rglob("*.py")):
            try:
                py_compile.compile(str(f), cfile=str(Path(tmp) / "pyc" / (f.name + "c")), doraise=True)
                r.check(True, "")
            except py_compile.PyCompileError as e:
                r.check(False, f"py_compile {f.relative_to(proj)}", str(e))

        if args.nvcc:
            build = tomllib.loads((proj / "build.toml").read_text())
            caps = build["kernel"]["demo_rmsnorm"]["cuda-capabilities"]
            header_dir = proj / "demo_rmsnorm_cuda"

            def compile_for(cap: str):
                xy = cap.replace(".", "").replace("+PTX", "")
                cmd = [args.nvcc, "-std=c++17", "-O3", f"-gencode=arch=compute_{xy},code=sm_{xy}",
                       "-I", str(header_dir), "-c", "-o", os.devnull, str(INSTANTIATE)]
                return cap, subprocess.run(cmd, capture_output=True, text=True)

            with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
                for cap, proc in pool.map(compile_for, caps):
                    r.check(proc.returncode == 0, f"kernel header compiles for {cap}", proc.stderr[-2000:])
        else:
            print("note: no --nvcc given; the per-capability compile of the kernel header was skipped")
    print(f"{r.passed} passed, {r.failed} failed")
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main())
