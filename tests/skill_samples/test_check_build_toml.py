#!/usr/bin/env python3
"""CTest driver: check_build_toml.py accepts good build.toml files and rejects bad ones.

Writes each case to a temporary folder, runs the checker and compares its exit code (0 clean or
warnings only, 1 errors) and, where given, a fragment of its output. Standard library only.
Closes with `N passed, N failed`; exit 1 on any failure.
"""
import subprocess
import sys
import tempfile
from pathlib import Path

CHECKER = Path(__file__).resolve().parents[2] / "skills" / "cuda-kernels" / "scripts" / "check_build_toml.py"

GOOD = """\
[general]
name = "my-rmsnorm"
version = 1
edition = 5
license = "Apache-2.0"
backends = ["cuda"]
python-depends = ["einops"]

[general.hub]
repo-id = "acme/my-rmsnorm"

[torch]
src = ["torch-ext/torch_binding.cpp", "torch-ext/torch_binding.h"]

[kernel.my_rmsnorm]
backend = "cuda"
depends = ["torch"]
src = ["my_rmsnorm_cuda/rms_norm.cu"]
cuda-capabilities = ["7.5", "8.0", "8.9", "9.0a", "10.0f", "12.0+PTX"]
"""

BAD = """\
[general]
name = "my_rmsnorm"
version = "1"
edition = 5
backends = ["cuda"]

[torch]
src = ["torch-ext/torch_binding.cpp"]

[kernel.my_rmsnorm]
backend = "cuda"
depends = ["torch", "cutlass"]
src = ["my_rmsnorm_cuda/rms_norm.cu"]
cuda-capabilities = ["sm_90", "9.5"]
cuda-flag = ["-O3"]
"""

# (name, text, extra args, expected exit code, fragments expected in the output)
CASES = [
    ("good", GOOD, ["--no-files"], 0, []),
    ("good-strict", GOOD, ["--no-files", "--strict"], 0, []),
    ("bad", BAD, ["--no-files"], 1, [
        "invalid name `my_rmsnorm`", "missing the required key `license`", "`version` must be a non-negative integer",
        "unknown dependency `cutlass`", "`sm_90` is not a compute capability", "unknown compute capability \"9.5\"",
        "did you mean `cuda-flags`?", "bad.toml:15:",
    ]),
    ("legacy-v4", GOOD.replace("edition = 5\n", ""), ["--no-files"], 0, ["legacy v4 format"]),
    ("legacy-v4-strict", GOOD.replace("edition = 5\n", ""), ["--no-files", "--strict"], 1, []),
    ("legacy-v3", GOOD.replace("edition = 5\n", "cuda-minver = \"12.4\"\n"), ["--no-files"], 1,
     ["kernel-builder update-build"]),
    ("empty-depends", GOOD.replace('depends = ["torch"]', "depends = []"), ["--no-files"], 0, ["depends = []"]),
    ("two-frameworks", GOOD + '\n[tvm-ffi]\nsrc = ["a.cc"]\n', ["--no-files"], 1, ["exactly one framework"]),
    ("syntax", "[general\nname = 1\n", [], 1, ["TOML syntax"]),
    ("missing-files", GOOD, [], 0, ["does not exist"]),
]


def main() -> int:
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="check_build_toml_") as tmp:
        for name, text, extra, want_rc, fragments in CASES:
            path = Path(tmp) / ("bad.toml" if name == "bad" else f"{name}.toml")
            path.write_text(text)
            proc = subprocess.run([sys.executable, str(CHECKER), *extra, str(path)], capture_output=True, text=True)
            out = proc.stdout + proc.stderr
            missing = [f for f in fragments if f not in out]
            if proc.returncode == want_rc and not missing:
                passed += 1
                continue
            failed += 1
            print(f"FAIL {name}: exit {proc.returncode} (want {want_rc}); missing {missing}\n{out}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
