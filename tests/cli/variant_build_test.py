#!/usr/bin/env python3
"""`kernel-lsp build --variant`: what it says before and instead of a build on a machine that
cannot make one. The build itself needs torch with CUDA and nvcc; the GPU check
(tests/kernels_shared/load_with_kernels.py) builds the reference kernels this way and loads them
through the `kernels` library.

    variant_build_test.py KERNEL_LSP SOURCE_DIR
"""
import subprocess
import sys
import tempfile
from pathlib import Path


def run(binary, *args):
    return subprocess.run([binary, "build", *args], capture_output=True, text=True, timeout=120)


def main():
    binary, source = sys.argv[1], Path(sys.argv[2])
    project = source / "kernels" / "rmsnorm"
    failures = []

    def check(condition, what):
        if not condition:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        r = run(binary, str(Path(tmp) / "absent"), "--variant")
        check(r.returncode == 2 and "not a folder" in r.stderr, f"no project: exit 2, got {r.returncode}: {r.stderr}")
        r = run(binary, str(project), "--variant", "--python", str(Path(tmp) / "no-python"))
        check(r.returncode == 2 and "no-python" in r.stderr,
              f"a Python that does not exist: exit 2 naming it, got {r.returncode}: {r.stderr}")
        check(not (project / "build").exists(), "nothing written into the project on failure")

    has_torch = subprocess.run([sys.executable, "-c", "import torch"], capture_output=True).returncode == 0
    if has_torch:
        print("note: this Python has torch; the no-torch message is not checked here")
    else:
        r = run(binary, str(project), "--variant", "--python", sys.executable)
        check(r.returncode == 1 and "building needs PyTorch" in r.stderr and "the build failed" in r.stderr,
              f"no torch: exit 1 saying so, got {r.returncode}: {r.stderr}")
        check(r.stdout == "", f"no variant folder printed: {r.stdout!r}")
        check(not (project / "build").exists(), "nothing written into the project without torch")

    for f in failures:
        print("FAIL:", f)
    print(f"{'ok' if not failures else 'FAILED'}: kernel-lsp build --variant")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
