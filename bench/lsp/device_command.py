"""The device-side clang command kernel-lsp parses a file with, for clangd's compile_commands.json.

Mirrors analyzers/frontend/clang_command.cpp (device_parse_command) and nvcc_macros.cpp for an
arch clang 19 knows (so no __CUDA_ARCH__ override), without `-fsyntax-only` (clangd adds its
own). Scenario mode only; the legacy mode of lsp_bench.py keeps its own, older list so that its
numbers stay comparable with the results already in README.md.
"""
import json
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CLANG_RESOURCE_DIR = "/usr/lib/llvm-19/lib/clang/19"


def nvcc_version(cuda_path):
    """(major, minor, build) from `nvcc --version` ("release 13.0, V13.0.88"), else None."""
    try:
        out = subprocess.run([os.path.join(cuda_path, "bin", "nvcc"), "--version"], capture_output=True,
                             text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"V(\d+)\.(\d+)\.(\d+)", out)
    return tuple(int(g) for g in found.groups()) if found else None


def nvcc_macros(version):
    if version is None:
        return []
    major, minor, build = version
    return ["-D__NVCC__=1", f"-D__CUDACC_VER_MAJOR__={major}", f"-D__CUDACC_VER_MINOR__={minor}",
            f"-D__CUDACC_VER_BUILD__={build}", f"-D__CUDA_API_VER_MAJOR__={major}",
            f"-D__CUDA_API_VER_MINOR__={minor}", "-D__NVCC_DIAG_PRAGMA_SUPPORT__=1"]


def device_flags(cuda_path, sm):
    """kernel-lsp's parse command for `sm` ("sm_90"), program first, file not included."""
    shims = os.path.join(REPO, "analyzers", "frontend", "shims")
    argv = ["clang++", "-x", "cuda", "--cuda-device-only", f"--cuda-gpu-arch={sm}", "-nocudalib",
            "-std=c++17", "-ferror-limit=0", "-w", "-fno-spell-checking", "-Wno-unknown-cuda-version",
            "-Wno-unknown-attributes", "-Wno-ignored-attributes", "-Wno-pragma-once-outside-header",
            f"-resource-dir={CLANG_RESOURCE_DIR}", f"--cuda-path={cuda_path}"]
    if os.path.isdir(os.path.join(cuda_path, "include", "cccl")):
        argv += ["-isystem", os.path.join(cuda_path, "include", "cccl")]
    argv += ["-isystem", shims, "-include", "kernel_lsp_launch_shim.h", "-include", "kernel_lsp_nvcc_builtins.h",
             "-D_CG_CLUSTER_INTRINSICS_AVAILABLE"]
    # nvcc_arch_macros: __CUDA_ARCH__ is clang's own for a known arch; the list is always stated.
    argv += ["-U__CUDA_ARCH_LIST__", f"-D__CUDA_ARCH_LIST__={sm[3:]}0"]
    return argv + nvcc_macros(nvcc_version(cuda_path))


def write_compile_commands(folder, sources, flags):
    """compile_commands.json in `folder` (kept apart from the sources: kernel-lsp reads one it finds
    beside or above a file, and would then parse with these flags instead of its own)."""
    os.makedirs(folder, exist_ok=True)
    entries = [{"directory": os.path.dirname(s), "file": s, "arguments": flags + ["-c", s]} for s in sources]
    with open(os.path.join(folder, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
