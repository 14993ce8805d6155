#!/usr/bin/env python3
"""kernel-builder's compile flags have one home, analyzers/data/builder_defaults.toml [compile],
and two readers that must agree: the local builder (kernels/tools/build_local.py --print-flags,
which builds the extensions `kernel-lsp bench` runs) and kernel-lsp itself (the compile commands
`kernel-lsp clangd-config` writes, the same flags its nvcc builds use). For each reference kernel
and for projects written here to cover the cases (a stable-ABI build, a section that does not
depend on torch), the builder's defines must appear in kernel-lsp's commands for the project's
CUDA sources, and torch's nvcc flags exactly where a section depends on torch (kernel-lsp hands
clang the macros nvcc defines for them).

usage: test_builder_flags_agree.py KERNEL_LSP SOURCE_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

BINARY = None
SOURCE = None

# nvcc flag -> the macro nvcc defines for it, which kernel-lsp passes to clang instead
NVCC_FLAG_MACROS = {"--expt-relaxed-constexpr": "-D__CUDACC_RELAXED_CONSTEXPR__",
                    "--expt-extended-lambda": "-D__CUDACC_EXTENDED_LAMBDA__"}

STABLE_ABI_PROJECT = {
    "build.toml": ('[general]\nname = "stable-demo"\nversion = 1\nedition = 5\nlicense = "MIT"\nbackends = ["cuda"]\n\n'
                   '[torch]\nsrc = ["torch-ext/torch_binding.cpp"]\nstable-abi = "2.10"\n\n'
                   '[kernel.demo]\nbackend = "cuda"\ndepends = ["torch"]\ncuda-capabilities = ["9.0"]\n'
                   'src = ["demo_cuda/demo.cu"]\n'),
    "torch-ext/torch_binding.cpp": "// binding\n",
    "demo_cuda/demo.cu": "__global__ void k(float* p) { p[threadIdx.x] = 0.0f; }\n",
}

NO_TORCH_PROJECT = {
    "build.toml": ('[general]\nname = "plain-demo"\nversion = 1\nedition = 5\nlicense = "MIT"\nbackends = ["cuda"]\n\n'
                   '[torch]\nsrc = ["torch-ext/torch_binding.cpp"]\n\n'
                   '[kernel.demo]\nbackend = "cuda"\ndepends = []\ncuda-capabilities = ["9.0"]\n'
                   'src = ["demo_cuda/demo.cu"]\n'),
    "torch-ext/torch_binding.cpp": "// binding\n",
    "demo_cuda/demo.cu": "__global__ void k(float* p) { p[threadIdx.x] = 0.0f; }\n",
}


def builder_flags(project):
    ran = subprocess.run([sys.executable, str(SOURCE / "kernels/tools/build_local.py"), str(project), "--print-flags"],
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)


def kernel_lsp_commands(project, scratch):
    copy = scratch / project.name
    shutil.copytree(project, copy, ignore=shutil.ignore_patterns("build", "reports", "__pycache__"))
    env = dict(os.environ, KERNEL_LSP_RESOURCE_DIR=str(SOURCE))
    ran = subprocess.run([BINARY, "clangd-config", str(copy)], capture_output=True, text=True, timeout=120, env=env)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    entries = json.loads((copy / "compile_commands.json").read_text())
    return {Path(e["file"]).relative_to(copy).as_posix(): e["arguments"] for e in entries}


class BuilderFlagsAgree(unittest.TestCase):
    def check(self, project, expect_torch_flags, expect_defines=()):
        flags = builder_flags(project)
        for define in expect_defines:
            self.assertIn(define, flags["defines"])
        with tempfile.TemporaryDirectory() as tmp:
            commands = kernel_lsp_commands(project, Path(tmp))
        cuda_sources = [s for s in flags["sources"] if s.endswith(".cu")]
        self.assertTrue(cuda_sources, project)
        for source in cuda_sources:
            args = commands.get(source)
            self.assertIsNotNone(args, f"{project.name}: kernel-lsp wrote no command for {source}")
            for define in flags["defines"]:
                self.assertIn(define, args, f"{project.name} {source}: the builder's {define}")
            torch_flags = [f for f in flags["cuda_flags"] if f in NVCC_FLAG_MACROS]
            self.assertEqual(bool(torch_flags), expect_torch_flags, project.name)
            for flag, macro in NVCC_FLAG_MACROS.items():
                self.assertEqual(flag in torch_flags, macro in args, f"{project.name} {source}: {flag} against {macro}")

    def test_the_reference_kernels(self):
        for toml in sorted((SOURCE / "kernels").glob("*/build.toml")):
            with self.subTest(kernel=toml.parent.name):
                self.check(toml.parent, expect_torch_flags=True, expect_defines=("-DUSE_CUDA=1", "-DCUDA_KERNEL"))

    def test_a_stable_abi_build_and_a_section_without_torch(self):
        with tempfile.TemporaryDirectory() as tmp:
            for files, torch_flags, defines in (
                    (STABLE_ABI_PROJECT, True, ("-DTORCH_TARGET_VERSION=0x020A000000000000ULL",)),
                    (NO_TORCH_PROJECT, False, ())):
                name = files["build.toml"].split('name = "')[1].split('"')[0]
                project = Path(tmp) / name
                for rel, text in files.items():
                    (project / rel).parent.mkdir(parents=True, exist_ok=True)
                    (project / rel).write_text(text)
                with self.subTest(project=name):
                    self.check(project, expect_torch_flags=torch_flags, expect_defines=defines)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    BINARY = sys.argv[1]
    SOURCE = Path(sys.argv[2]).resolve()
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:], verbosity=2)
