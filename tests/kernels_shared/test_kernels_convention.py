#!/usr/bin/env python3
"""The `kernels` library's benchmark convention as runner/scripts/run_kernels_benchmarks.py runs
it, with real PyTorch on the CPU (Debian's python3-torch):

- the four reference kernels' Benchmark classes (in their benchmarks/benchmark.py, beside
  kernel-lsp's own benchmark) are found, set up and verified against their references, with a
  PyTorch stand-in for each compiled kernel (the same arithmetic, in fp32, rounded once): a
  workload whose reference disagrees with the kernel it describes fails here, before a GPU run;
- the convention's rules: only classes the script defines, setup_<w> before setup, the seed,
  verify compared at atol 1e-2, a mismatch or an exception recorded for its workload while the
  others still run, the results in kernel-lsp's benchmark JSON and in `kernels benchmark`'s.

usage: test_kernels_convention.py   (exit 77 when no Python with torch is found: skipped)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from torch_python import python_with_torch  # beside this file

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "runner" / "scripts" / "run_kernels_benchmarks.py"
SKIPPED = 77


PYTHON = python_with_torch()

# Each reference kernel's Python API, in PyTorch: what the compiled kernels compute.
STANDINS = {
    "rmsnorm": """
import torch
def rms_norm(x, weight=None, eps=1e-6, double_rounding=False, out=None):
    h = x.float()
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps)
    w = weight.float() if weight is not None else 1.0
    r = (w * h.to(x.dtype).float()).to(x.dtype) if double_rounding else (h * w).to(x.dtype)
    if out is None:
        return r
    out.copy_(r)
    return out
""",
    "geglu": """
import torch
import torch.nn.functional as F
def geglu(x, approximate="tanh", swapped=False, out=None):
    f = x.shape[-1] // 2
    a, b = x[..., :f].float(), x[..., f:].float()
    r = (F.gelu(a, approximate=approximate) * b).to(x.dtype)
    if out is None:
        return r
    out.copy_(r)
    return out
""",
    "rope": """
import torch
def build_cos_sin_cache(max_pos, rot_dim, base=1e6, device=None, dtype=torch.float32):
    inv = 1.0 / (base ** (torch.arange(0, rot_dim, 2, device=device).float() / rot_dim))
    f = torch.outer(torch.arange(max_pos, device=device, dtype=torch.float32), inv)
    return torch.cat([f.cos(), f.sin()], dim=-1).to(dtype)
def _rotate(t, cos, sin):  # t [B, S, H, D], cos/sin [B, S, D]
    h = t.shape[-1] // 2
    x = t.float()
    rotated = torch.cat([-x[..., h:], x[..., :h]], -1)
    return (x * cos[:, :, None].float() + rotated * sin[:, :, None].float()).to(t.dtype)
def rope_neox_cos_sin(q, k, cos, sin):
    q.copy_(_rotate(q, cos, sin))
    if k is not None:
        k.copy_(_rotate(k, cos, sin))
    return q, k
""",
    "adaln": """
import torch
def adaln(x, scale, shift, eps=1e-6, norm="rms", out=None):
    h = x.float()
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps)
    r = (h * (1 + scale.float()) + shift.float()).to(x.dtype)
    if out is None:
        return r
    out.copy_(r)
    return out
""",
}

DEMO_BENCHMARK = """
import torch
from kernels.benchmark import Benchmark
from helpers import Base  # an imported Benchmark subclass is not run

class Demo(Benchmark):
    seed = 7

    def setup(self):
        self.x = torch.randn(64)
        self.setup_used = "setup"

    def setup_special(self):
        self.x = torch.full((64,), 2.0)
        self.setup_used = "setup_special"

    def benchmark_double(self):
        self.out = self.kernel.double(self.x)

    def verify_double(self):
        return self.x * 2

    def benchmark_special(self):
        assert self.setup_used == "setup_special"
        self.out = self.kernel.double(self.x)

    def verify_special(self):
        return torch.full((64,), 4.0)

    def benchmark_wrong(self):
        self.out = self.kernel.double(self.x)

    def verify_wrong(self):
        return self.x * 2 + 0.5

    def benchmark_raises(self):
        raise ValueError("the kernel refused")

    def benchmark_unverified(self):
        self.out = self.kernel.double(self.x)

    def benchmark_seeded(self):
        self.out = self.x.clone()

    def verify_seeded(self):  # setup's input again: the runner seeded torch with `seed` before setup
        torch.manual_seed(7)
        return torch.randn(64)
"""


def drive(project, kernel_dir, package, out_dir, *extra):
    results, upstream = out_dir / "results.json", out_dir / "upstream.json"
    ran = subprocess.run([PYTHON, str(DRIVER), str(project), "--kernel", str(kernel_dir), "--package", package,
                          "--json", str(results), "--upstream-json", str(upstream), *extra],
                         capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONPATH": ""})
    return ran, results, upstream


class ReferenceKernels(unittest.TestCase):
    """Each reference kernel's Benchmark classes run and verify against a PyTorch stand-in."""

    def test_every_reference_workload_runs_and_matches_its_reference(self):
        for package, source in STANDINS.items():
            with self.subTest(kernel=package), tempfile.TemporaryDirectory() as tmp:
                tmp = Path(tmp)
                variant = tmp / "variant"
                variant.mkdir()
                (variant / "__init__.py").write_text(source)
                ran, results, upstream = drive(ROOT / "kernels" / package, variant, package, tmp,
                                               "--warmup", "0", "--iterations", "1")
                self.assertEqual(ran.returncode, 0, ran.stdout + ran.stderr)
                rows = json.loads(results.read_text())["rows"]
                ours = [r for r in rows if r["impl"] == "ours"]
                self.assertTrue(ours, f"{package}: no workload ran\n{ran.stdout}")
                for row in ours:
                    self.assertNotIn("error", row, f"{package} {row['op']}.{row['shape']}")
                    self.assertGreater(row["us"], 0)
                references = {(r["op"], r["shape"]) for r in rows if r["impl"] == "reference"}
                self.assertEqual(references, {(r["op"], r["shape"]) for r in ours}, "every workload has a verify")
                payload = json.loads(upstream.read_text())["results"]
                self.assertTrue(all(entry["verified"] for entry in payload))


class Convention(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="kl_kernels_convention_"))
        self.project = self.dir / "demo"
        (self.project / "benchmarks").mkdir(parents=True)
        (self.project / "benchmarks" / "benchmark.py").write_text(DEMO_BENCHMARK)
        (self.project / "helpers.py").write_text(
            "from kernels.benchmark import Benchmark\n\n"
            "class Base(Benchmark):\n    def benchmark_never(self):\n        raise AssertionError('imported class ran')\n")
        self.kernel = self.dir / "build" / "demo_variant"
        self.kernel.mkdir(parents=True)
        (self.kernel / "__init__.py").write_text("def double(x):\n    return x * 2\n")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def run_demo(self):
        # the script imports helpers.py from the project folder, the working directory of its load
        env_path = str(self.project)
        results, upstream = self.dir / "results.json", self.dir / "upstream.json"
        ran = subprocess.run([PYTHON, str(DRIVER), str(self.project), "--kernel", str(self.kernel), "--package", "demo",
                              "--json", str(results), "--upstream-json", str(upstream),
                              "--warmup", "2", "--iterations", "5"],
                             capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": env_path})
        self.assertEqual(ran.returncode, 0, ran.stdout + ran.stderr)
        return ran, json.loads(results.read_text()), json.loads(upstream.read_text())

    def test_workloads_setups_verification_and_failures(self):
        ran, results, upstream = self.run_demo()
        rows = {(r["shape"], r["impl"]): r for r in results["rows"]}
        self.assertEqual({r["op"] for r in results["rows"]}, {"Demo"}, "only the class the script defines")
        self.assertEqual(sorted({shape for shape, _ in rows}),
                         ["double", "raises", "seeded", "special", "unverified", "wrong"])
        for ok in ("double", "special"):
            self.assertNotIn("error", rows[(ok, "ours")])
            self.assertIn((ok, "reference"), rows)
            self.assertEqual(rows[(ok, "ours")]["timing_ms"]["iterations"], 5)
        self.assertIn("max abs diff 0.5", rows[("wrong", "ours")]["error"])
        self.assertIn("ValueError: the kernel refused", rows[("raises", "ours")]["error"])
        self.assertNotIn(("unverified", "reference"), rows)
        self.assertIn("2 workload(s) failed", ran.stdout)
        self.assertNotIn("error", rows[("seeded", "ours")], "the seed was applied before setup")
        verified = {e["workload"]: e.get("verified") for e in upstream["results"]}
        self.assertEqual(verified, {"Demo.double": True, "Demo.special": True, "Demo.wrong": False,
                                    "Demo.unverified": None, "Demo.seeded": True})
        self.assertEqual(results["warmup"], 2)

    def test_a_project_without_benchmark_classes_is_an_error(self):
        (self.project / "benchmarks" / "benchmark.py").write_text("print('not a convention script')\n")
        results = self.dir / "results.json"
        ran = subprocess.run([PYTHON, str(DRIVER), str(self.project), "--kernel", str(self.kernel), "--package", "demo",
                              "--json", str(results)], capture_output=True, text=True, timeout=120)
        self.assertNotEqual(ran.returncode, 0)
        self.assertIn("no kernels.benchmark.Benchmark subclass", ran.stderr)
        self.assertFalse(results.exists())

    def test_a_missing_variant_names_what_is_there(self):
        shutil.rmtree(self.kernel)
        (self.dir / "build" / "torch99-cxx11-cu999-x86_64-linux").mkdir()
        results = self.dir / "results.json"
        ran = subprocess.run([PYTHON, str(DRIVER), str(self.project), "--kernel", str(self.dir / "build"),
                              "--package", "demo", "--json", str(results)], capture_output=True, text=True, timeout=120)
        self.assertNotEqual(ran.returncode, 0)
        self.assertIn("torch99-cxx11-cu999-x86_64-linux", ran.stderr)


if __name__ == "__main__":
    if PYTHON is None:
        print("SKIPPED: no Python with torch here (Debian: apt-get install python3-torch)")
        sys.exit(SKIPPED)
    unittest.main(verbosity=2)
