#!/usr/bin/env python3
"""`kernel-lsp bench` as a user sees it on a machine without a GPU: where it runs (here, a
runner, neither), the runner protocol, the report folder, exit codes, and that a run that cannot
happen or fails writes nothing.

usage: bench_test.py KERNEL_LSP SOURCE_DIR
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
REAL_RUN = None  # bench/kernels/results/h200-final.json: all four reference kernels on an H200


BUILD_TOML_DEMO = """[general]
name = "demo"
version = 1
edition = 5
license = "Apache-2.0"
backends = ["cuda"]

[torch]
src = ["torch-ext/torch_binding.cpp"]

[kernel.demo]
backend = "cuda"
depends = ["torch"]
cuda-capabilities = ["8.0", "9.0"]
src = ["demo_cuda/demo.cu"]
"""


def run(*args, env=None, timeout=600):
    full_env = dict(os.environ)
    for name in ("KERNEL_LSP_BENCH_RUNNER", "KERNEL_LSP_PYTHON", "KERNELS_CUDA_CAPS"):  # the user's own
        full_env.pop(name, None)
    full_env.update(env or {})
    return subprocess.run([BINARY, "bench", *map(str, args)], capture_output=True, text=True, env=full_env,
                          timeout=timeout)


def machine_can_benchmark():
    """True where python3 has torch and sees a CUDA GPU (then "neither" cannot be tested)."""
    probe = subprocess.run(["python3", "-c", "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)"],
                           capture_output=True)
    return probe.returncode == 0


def entries(folder):
    return sorted(p.name for p in Path(folder).iterdir())


class Scratch:
    """A temporary folder with a copy of kernels/rmsnorm in it (reports go there, not into the source tree),
    without the example reports the source tree keeps, so that "nothing written" means no reports folder."""

    def __enter__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="kl_bench_"))
        self.project = self.dir / "rmsnorm"
        shutil.copytree(SOURCE / "kernels" / "rmsnorm", self.project, ignore=shutil.ignore_patterns("reports"))
        self.tmp = self.dir / "tmp"  # TMPDIR of the runs: what the runner script leaves behind
        self.tmp.mkdir()
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.dir, ignore_errors=True)


class Neither(unittest.TestCase):
    def test_no_gpu_and_no_runner_exits_2_naming_both_ways_and_writes_nothing(self):
        if machine_can_benchmark():
            self.skipTest("this machine has torch and a GPU: it would benchmark locally")
        project = SOURCE / "kernels" / "rmsnorm"
        reports, build = project / "benchmarks" / "reports", SOURCE / "kernels" / "build"
        before = (reports.exists(), build.exists())
        proc = run(project)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        for words in ("GPU with torch", "--runner", "KERNEL_LSP_BENCH_RUNNER", "benchRunner"):
            self.assertIn(words, proc.stderr)
        # what the probe found: no python3, no torch or no GPU
        self.assertRegex(proc.stderr, r"torch is not installed|sees no CUDA GPU|there is no python3")
        self.assertEqual((reports.exists(), build.exists()), before)

    def test_remote_without_a_runner_is_a_usage_error(self):
        with Scratch() as s:
            proc = run(s.project, "--remote")
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertIn("runner command", proc.stderr)
            self.assertNotIn("reports", entries(s.project / "benchmarks"))


class Runner(unittest.TestCase):
    def test_sh_as_runner_really_runs_the_script_and_fails_with_its_output(self):
        """`sh` is a runner: the generated script unpacks the project and probes this machine,
        which has no torch (or no GPU), so it stops there."""
        if machine_can_benchmark():
            self.skipTest("this machine has torch and a GPU: the script would benchmark")
        with Scratch() as s:
            proc = run(s.project, "--runner", "sh", env={"TMPDIR": str(s.tmp)})
            self.assertNotEqual(proc.returncode, 0)
            self.assertEqual(proc.returncode, 1, proc.stderr)
            self.assertIn("the runner `sh` exited with", proc.stderr)
            self.assertIn("last lines of its output", proc.stderr)
            self.assertRegex(proc.stderr, r"torch is not installed|sees no CUDA GPU")
            self.assertIn("kernel-lsp runner: this machine cannot run the benchmark", proc.stderr)
            self.assertNotIn("reports", entries(s.project / "benchmarks"))
            self.assertEqual(entries(s.tmp), [], "the script must remove its temporary folder")
            self.assertEqual(entries(s.dir), ["rmsnorm", "tmp"])

    def test_results_between_the_markers_make_a_report(self):
        # This runner ignores the script on its stdin and prints a trimmed copy of the real H200
        # rows between the markers: it tests kernel-lsp's side of the protocol (streaming, stage
        # lines, the markers, parsing, the report), not the script.
        with Scratch() as s:
            real = json.loads(REAL_RUN.read_text())
            ops = []
            for row in real["rows"]:
                if row["op"] not in ops:
                    ops.append(row["op"])
            kept = ops[:2]
            trimmed = {"copy_gbs": real["copy_gbs"], "machine": real["machine"],
                       "rows": [r for r in real["rows"] if r["op"] in kept]}
            results = s.dir / "trimmed.json"
            results.write_text(json.dumps(trimmed, indent=1))
            runner = s.dir / "fake_runner.sh"
            runner.write_text(
                "cat >/dev/null\n"
                "echo '::kernel-lsp:: stage running the benchmark'\n"
                "echo 'copy bandwidth 4264 GB/s'\n"
                "echo '::kernel-lsp:: results begin'\n"
                f"cat '{results}'\n"
                "echo '::kernel-lsp:: results end'\n")
            copy = s.dir / "copy.json"
            proc = run(s.project, "--runner", f"sh '{runner}'", "--json", copy)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            report = s.project / "benchmarks" / "reports" / "report.md"
            self.assertEqual(proc.stdout.strip().splitlines()[-1], str(report))
            self.assertIn("copy bandwidth 4264 GB/s", proc.stdout)  # streamed
            self.assertNotIn('"rows"', proc.stdout)  # the results block is not
            self.assertIn("running the benchmark", proc.stderr)  # the stage line became progress
            text = report.read_text()
            for op in kept:
                self.assertIn(f"## {op}", text)
            self.assertNotIn(f"## {ops[2]}", text)
            self.assertIn("NVIDIA H200", text)
            self.assertIn("through the runner", text)
            self.assertEqual(json.loads(copy.read_text()), trimmed)
            self.assertEqual(len(entries(report.parent / "history")), 1)

    def test_a_runner_that_prints_no_results_fails_and_writes_nothing(self):
        with Scratch() as s:
            proc = run(s.project, "--runner", "cat >/dev/null; echo all done", "--remote")
            self.assertEqual(proc.returncode, 1, proc.stderr)
            self.assertIn("printed no results", proc.stderr)
            self.assertIn("all done", proc.stderr)
            self.assertNotIn("reports", entries(s.project / "benchmarks"))


# A stand-in for torch with one "GPU" of capability 9.0, and a builder back end that only
# records what it was asked for: enough for the probe, kernels/tools/build_local.py and a
# benchmark that imports the built package, so that the whole local path and the whole runner
# script run here, without a GPU. The numbers are made up; the steps and files are real.
FAKE_TORCH = {
    "torch/__init__.py": (
        "__version__ = '0.0-standin'\n"
        "from . import cuda, version, utils  # noqa: F401\n"
        "class Tensor(list):\n"
        "    @property\n"
        "    def shape(self):\n        return (len(self),)\n"
        "def allclose(a, b, atol=1e-8):\n"
        "    return len(a) == len(b) and all(abs(x - y) <= atol for x, y in zip(a, b))\n"
        "def manual_seed(seed):\n    pass\n"),
    "torch/version.py": "cuda = '13.0'\n",
    "torch/cuda.py": (
        "import types\n"
        "def is_available():\n    return True\n"
        "def get_device_capability(i=0):\n    return (9, 0)\n"
        "def get_device_properties(i=0):\n"
        "    return types.SimpleNamespace(name='Stand-in GPU', multi_processor_count=4, total_memory=2**30,\n"
        "                                 major=9, minor=0)\n"
        "def synchronize():\n    pass\n"
        "def manual_seed_all(seed):\n    pass\n"),
    "torch/utils/__init__.py": "",
    "torch/utils/cpp_extension.py": (
        "import os\n"
        "def load(name, sources, extra_cuda_cflags, build_directory, **kw):\n"
        "    print('stand-in load:', ' '.join(f for f in extra_cuda_cflags if f.startswith('-gencode')))\n"
        "    open(os.path.join(build_directory, name + '.so'), 'w').close()\n"),
}

DEMO_PROJECT = {
    "build.toml": BUILD_TOML_DEMO,
    "torch-ext/torch_binding.cpp": "// binding\n",
    "demo_cuda/demo.cu": "__global__ void k() {}\n",
    "torch-ext/demo/__init__.py": "VALUE = 1\n",
    "benchmarks/benchmark.py": (
        "import argparse, json\n"
        "import demo  # the package the builder wrote, found through PYTHONPATH\n"
        "ap = argparse.ArgumentParser(); ap.add_argument('--json'); args = ap.parse_args()\n"
        "rows = []\n"
        "for shape, ours, eager in (('1x64', 2.0, 5.0), ('64x64', 4.0, 3.0)):\n"
        "    rows.append({'op': 'demo op', 'shape': shape, 'impl': 'ours', 'us': ours, 'gbs': 1.0, 'pct_copy': 0.1})\n"
        "    rows.append({'op': 'demo op', 'shape': shape, 'impl': 'eager', 'us': eager})\n"
        "print('demo benchmark ran')\n"
        "open(args.json, 'w').write(json.dumps({'copy_gbs': 1000.0, 'rows': rows}))\n"),
}


# The same project with its benchmark written to the `kernels` library's convention: Benchmark
# classes, run by runner/scripts/run_kernels_benchmarks.py against the variant the builder wrote.
KERNELS_DEMO_PROJECT = dict(DEMO_PROJECT)
KERNELS_DEMO_PROJECT.update({
    "torch-ext/demo/__init__.py": "def double(xs):\n    return [2 * x for x in xs]\n",
    "benchmarks/benchmark.py": (
        "import torch\n"
        "from kernels.benchmark import Benchmark\n\n\n"
        "class DemoWorkloads(Benchmark):\n"
        "    def setup(self):\n        self.x = torch.Tensor([1.0, 2.0, 3.0])\n"
        "    def benchmark_double(self):\n        self.out = torch.Tensor(self.kernel.double(self.x))\n"
        "    def verify_double(self):\n        return torch.Tensor([2.0, 4.0, 6.0])\n"
        "    def benchmark_broken(self):\n        raise RuntimeError('demo kernel failed')\n"),
})


class StandInTorch(unittest.TestCase):
    PROJECT = DEMO_PROJECT

    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="kl_bench_standin_"))
        for tree, files in (("torch-standin", FAKE_TORCH), ("demo", self.PROJECT)):
            for rel, text in files.items():
                path = self.dir / tree / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
        self.project = self.dir / "demo"
        self.tmp = self.dir / "tmp"
        self.tmp.mkdir()
        self.env = {"PYTHONPATH": str(self.dir / "torch-standin"), "TMPDIR": str(self.tmp)}

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def check_report(self, proc, where):
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        for stage in ("checking the machine", "building the extension", "running the benchmark",
                      "writing the report"):
            self.assertIn(stage, proc.stderr)
        # the probe found capability 9.0 in build.toml: only sm_90 is built
        self.assertIn("stand-in load: -gencode=arch=compute_90,code=sm_90\n", proc.stdout)
        self.assertIn("demo benchmark ran", proc.stdout)
        report = self.project / "benchmarks" / "reports" / "report.md"
        self.assertEqual(proc.stdout.strip().splitlines()[-1], str(report))
        text = report.read_text()
        self.assertIn("Stand-in GPU", text)  # from the probe: the results have no "machine"
        self.assertIn(where, text)
        self.assertIn("| 1x64 | 2.00 |", text)
        self.assertIn("**2.50×**", text)  # eager 5.0 / ours 2.0
        self.assertIn("**0.75×**", text)  # eager 3.0 / ours 4.0

    def test_local_run_builds_runs_and_reports(self):
        proc = run(self.project, env=self.env)
        self.check_report(proc, "locally")
        self.assertTrue((self.dir / "build" / "demo" / "demo" / "_ops.py").exists())  # <project>/../build

    def test_runner_script_round_trip_through_sh(self):
        proc = run(self.project, "--remote", "--runner", "sh", env=self.env)
        self.check_report(proc, "through the runner `sh`")
        self.assertFalse((self.dir / "build").exists(), "a runner builds in its own folder")
        self.assertEqual(entries(self.tmp), [], "the script must remove its temporary folder")


class StandInTorchKernelsConvention(StandInTorch):
    """`--convention kernels` (and `auto`, as the project has no kernel-lsp benchmark) locally and
    through a runner: the variant is built into <project>/build/, the Benchmark classes run, the
    report has one row per workload against its reference, and ours' failed workload makes the
    exit code 1 after the report is written."""

    PROJECT = KERNELS_DEMO_PROJECT

    def check_kernels_report(self, proc, where):
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("1 benchmark(s) of the project's kernel failed", proc.stderr)
        self.assertIn("stand-in load: -gencode=arch=compute_90,code=sm_90", proc.stdout)
        self.assertIn("DemoWorkloads.double:", proc.stdout)
        text = (self.project / "benchmarks" / "reports" / "report.md").read_text()
        self.assertIn("## DemoWorkloads", text)
        self.assertIn("| double |", text)
        self.assertIn("reference", text)
        self.assertIn("RuntimeError: demo kernel failed", text)
        self.assertIn(where, text)

    def test_local_run_builds_the_variant_and_runs_the_classes(self):
        proc = run(self.project, "--convention", "kernels", env=self.env)
        self.check_kernels_report(proc, "locally")
        variants = entries(self.project / "build")
        self.assertEqual(len([v for v in variants if v.startswith("torch00-cxx11-cu130-")]), 1, variants)

    def test_auto_picks_the_kernels_convention_through_a_runner(self):
        proc = run(self.project, "--remote", "--runner", "sh", env=self.env)
        self.check_kernels_report(proc, "through the runner `sh`")
        self.assertFalse((self.project / "build").exists(), "a runner builds in its own folder")
        self.assertEqual(entries(self.tmp), [], "the script must remove its temporary folder")

    def test_asking_for_kernel_lsp_convention_names_what_it_needs(self):
        proc = run(self.project, "--convention", "kernel-lsp", env=self.env)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("benchmarks/benchmark.py taking --json", proc.stderr)
        proc = run(self.project, "--convention", "nvbench", env=self.env)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("--convention must be auto, kernel-lsp or kernels", proc.stderr)

    # the base class's kernel-lsp-convention cases do not apply to this project
    test_local_run_builds_runs_and_reports = None
    test_runner_script_round_trip_through_sh = None


class FromJson(unittest.TestCase):
    def test_the_real_run_renders_a_report_with_every_op(self):
        with Scratch() as s:
            folder = s.dir / "report"
            proc = run(s.project, "--from-json", REAL_RUN, "--report-dir", folder)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(proc.stdout.strip(), str(folder / "report.md"))
            text = (folder / "report.md").read_text()
            ops = {row["op"] for row in json.loads(REAL_RUN.read_text())["rows"]}
            self.assertGreater(len(ops), 10)
            for op in ops:
                self.assertIn(f"## {op}\n", text)
            self.assertEqual(len(entries(folder / "history")), 1)
            self.assertIn("results.json", entries(folder))
            self.assertNotIn("reports", entries(s.project / "benchmarks"))

    def test_a_malformed_file_exits_2_and_writes_nothing(self):
        with Scratch() as s:
            bad = s.dir / "bad.json"
            bad.write_text('{"copy_gbs": 4200, "rows": [{"op": "x", "shape": "1"}]}')
            proc = run(s.project, "--from-json", bad, "--report-dir", s.dir / "report")
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertIn('"impl" is missing', proc.stderr)
            self.assertNotIn("report", entries(s.dir))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    BINARY = sys.argv[1]
    SOURCE = Path(sys.argv[2]).resolve()
    REAL_RUN = SOURCE / "bench" / "kernels" / "results" / "h200-final.json"
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:])
