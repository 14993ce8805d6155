#!/usr/bin/env python3
"""GPU-only check of the project that skills/cuda-kernels/scripts/new_kernel_project.sh creates.

Not part of CTest (needs torch and a CUDA GPU). It scaffolds a project into a temporary folder,
stands in for kernel-builder's generated files (registration.h, _ops.py) with equivalents, builds
the extension with torch.utils.cpp_extension, and runs the project's own pytest suite.

    python3 tests/skill_samples/gpu_scaffold_check.py
"""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCAFFOLD = REPO / "skills" / "cuda-kernels" / "scripts" / "new_kernel_project.sh"

REGISTRATION_H = r"""
#pragma once
#include <Python.h>
#define _CONCAT(A, B) A##B
#define CONCAT(A, B) _CONCAT(A, B)
#define _STRINGIFY(A) #A
#define STRINGIFY(A) _STRINGIFY(A)
#define TORCH_LIBRARY_EXPAND(NAME, MODULE) TORCH_LIBRARY(NAME, MODULE)
#define REGISTER_EXTENSION(NAME)                                                   \
  PyMODINIT_FUNC CONCAT(PyInit_, NAME)() {                                         \
    static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, STRINGIFY(NAME),    \
                                        nullptr, 0, nullptr};                      \
    return PyModule_Create(&module);                                               \
  }
"""

OPS_PY = """import torch
torch.ops.load_library({so!r})
ops = getattr(torch.ops, {ns!r})

def add_op_namespace_prefix(op_name: str):
    return {ns!r} + "::" + op_name
"""


def main() -> int:
    try:
        import torch
        from torch.utils import cpp_extension
    except ImportError:
        print("gpu_scaffold_check: needs torch", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("gpu_scaffold_check: needs a CUDA GPU", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="scaffold_"))
    proj = work / "demo"
    subprocess.run(["bash", str(SCAFFOLD), "demo-rmsnorm", str(proj)], check=True)
    (proj / "torch-ext" / "registration.h").write_text(REGISTRATION_H)
    ns = "_demo_rmsnorm_cuda_check"
    build = work / "build"
    build.mkdir()
    major, minor = torch.cuda.get_device_capability()
    os.environ.setdefault("TORCH_CUDA_ARCH_LIST", f"{major}.{minor}")
    so = cpp_extension.load(
        name=ns,
        sources=[str(proj / "torch-ext" / "torch_binding.cpp"), str(proj / "demo_rmsnorm_cuda" / "rms_norm.cu")],
        extra_include_paths=[str(proj / "torch-ext"), str(proj / "demo_rmsnorm_cuda")],
        extra_cflags=["-DCUDA_KERNEL"],
        extra_cuda_cflags=["-DCUDA_KERNEL", "-O3"],
        build_directory=str(build),
        is_python_module=False,
        verbose=False,
    )
    so_path = next(build.glob(f"{ns}*.so"))
    # Loaded once here already; _ops.py loads it again (a no-op) the way the generated one imports it.
    (proj / "torch-ext" / "demo_rmsnorm" / "_ops.py").write_text(OPS_PY.format(so=str(so_path), ns=ns))
    env = dict(os.environ, PYTHONPATH=str(proj / "torch-ext"))
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", str(proj / "tests")], cwd=proj, env=env)
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
