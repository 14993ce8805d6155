#!/usr/bin/env python3
"""Crash isolation through the command line: a fault in one file's analysis is that file's `frontend`
error, in every output format, and never the run's end or another file's loss.

- every crash reproducer in tests/fixtures/crash is linted in process (--no-isolation), so a
  regression of a crash class crashes here instead of being reported politely (--no-cache: a
  cached result would not run the analysis at all);
- with KERNEL_LSP_TEST_FAULT (a test hook of the worker) one file's analysis segfaults,
  aborts, throws, exhausts its stack or hangs, beside a good file: the good file's findings are
  all there, the failed file has one error naming the signal, SARIF stays valid, exit code 2.

usage: isolation_test.py KERNEL_LSP SOURCE_DIR
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

# One uncoalesced store and one uncoalesced load, whatever the arch: a result that must survive.
GOOD = """__global__ void copy(const float4 *in, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i * 2] = in[i * 2];
}
"""
MARKER = "KL-TEST-FAULT-MARKER"


def run(*args, env=None, timeout=600):
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([BINARY, *args], capture_output=True, text=True, env=full_env, timeout=timeout)


class CrashReproducers(unittest.TestCase):
    def test_each_reproducer_lints_in_process(self):
        folder = Path(SOURCE) / "tests" / "fixtures" / "crash"
        files = sorted(folder.glob("*.cu"))
        self.assertGreaterEqual(len(files), 7)
        for path in files:
            with self.subTest(file=path.name):
                result = run("lint", "--no-isolation", "--no-cache", "--format", "json", str(path))
                self.assertIn(result.returncode, (0, 1), f"{path.name}: exit {result.returncode}\n{result.stderr[-2000:]}")
                report = json.loads(result.stdout)
                self.assertEqual(report["summary"]["files_analysed"], 1)

    def test_reproducers_together_in_workers(self):
        folder = Path(SOURCE) / "tests" / "fixtures" / "crash"
        result = run("lint", "--no-cache", "--format", "json", "-j", "2", str(folder))
        self.assertIn(result.returncode, (0, 1), result.stderr[-2000:])
        report = json.loads(result.stdout)
        self.assertFalse([f for f in report["findings"] if f["message"].startswith("analysis of this file failed")])


class FaultIsolation(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="kl_isolation_"))
        (self.dir / "a_good.cu").write_text(GOOD)
        (self.dir / "b_faulty.cu").write_text(GOOD + f"// {MARKER}\n")
        (self.dir / "c_good.cu").write_text(GOOD.replace("copy", "copy2"))

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def lint(self, kind, *extra):
        return run("lint", *extra, str(self.dir), env={"KERNEL_LSP_TEST_FAULT": f"{kind}:{MARKER}"})

    def assert_isolated(self, kind, expected_reason):
        result = self.lint(kind, "--format", "json", "-j", "1", "--timeout", "3")
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("the analysis of 1 file failed", result.stderr)
        report = json.loads(result.stdout)
        self.assertEqual(report["summary"]["files_analysed"], 3)
        self.assertEqual(report["summary"]["analysis_failures"], 1)
        by_file = {}
        for f in report["findings"]:
            by_file.setdefault(Path(f["file"]).name, []).append(f)
        for good in ("a_good.cu", "c_good.cu"):
            rules = sorted(f["rule"] for f in by_file.get(good, []))
            self.assertEqual(rules, ["uncoalesced-access", "uncoalesced-access"], f"{kind}: {good}: {by_file.get(good)}")
        faulty = by_file.get("b_faulty.cu", [])
        self.assertEqual(len(faulty), 1, faulty)
        self.assertEqual(faulty[0]["rule"], "frontend")
        self.assertEqual(faulty[0]["severity"], "error")
        self.assertIn("analysis of this file failed: " + expected_reason, faulty[0]["message"])

    def test_segfault(self):
        self.assert_isolated("segv", "SIGSEGV in a fault injected by KERNEL_LSP_TEST_FAULT")

    def test_abort(self):
        self.assert_isolated("abort", "SIGABRT in a fault injected by KERNEL_LSP_TEST_FAULT")

    def test_stack_exhaustion(self):
        self.assert_isolated("stack", "stack exhaustion (SIGSEGV) in a fault injected by KERNEL_LSP_TEST_FAULT")

    def test_uncaught_exception(self):
        self.assert_isolated("throw", "internal error (injected by KERNEL_LSP_TEST_FAULT)")

    def test_hang_hits_the_time_limit(self):
        self.assert_isolated("hang", "it ran past the 3 s limit")

    def test_summary_counts_the_failed_file_and_the_good_files_kernels(self):
        result = self.lint("segv", "--format", "json", "-j", "1")
        self.assertEqual(result.returncode, 2, result.stderr)
        summary = json.loads(result.stdout)["summary"]
        self.assertEqual((summary["files_failed"], summary["analysis_failures"]), (1, 1))
        # copy and copy2, one load and one store each; the failed file's kernel is not seen.
        self.assertEqual((summary["kernels"], summary["kernels_with_global_accesses"]), (2, 2))
        self.assertEqual((summary["global_accesses"], summary["accesses_unjudged"]), (4, 0))

    def test_sarif_stays_valid_with_every_file(self):
        result = self.lint("segv", "--format", "sarif")
        self.assertEqual(result.returncode, 2, result.stderr)
        sarif = json.loads(result.stdout)
        self.assertEqual(sarif["version"], "2.1.0")
        results = sarif["runs"][0]["results"]
        files = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results]
        self.assertEqual(sum(1 for f in files if f.endswith("a_good.cu")), 2)
        self.assertEqual(sum(1 for f in files if f.endswith("c_good.cu")), 2)
        failed = [r for r in results if r["ruleId"] == "frontend"]
        self.assertEqual(len(failed), 1)
        self.assertEqual(failed[0]["level"], "error")
        self.assertTrue(failed[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("b_faulty.cu"))

    def test_github_and_text_name_the_failed_file(self):
        for fmt in ("github", "text"):
            with self.subTest(format=fmt):
                result = self.lint("segv", "--format", fmt)
                self.assertEqual(result.returncode, 2)
                self.assertIn("b_faulty.cu", result.stdout)
                self.assertIn("analysis of this file failed: SIGSEGV", result.stdout)
                self.assertEqual(result.stdout.count("a_good.cu"), result.stdout.count("c_good.cu"))
                self.assertGreaterEqual(result.stdout.count("a_good.cu"), 2)

    def test_suppressions_do_not_hide_a_failure(self):
        # ignore-file[*] is for findings; a failed analysis found nothing to suppress.
        (self.dir / "b_faulty.cu").write_text("// kernel-lsp: ignore-file[*]\n" + GOOD + f"// {MARKER}\n")
        result = self.lint("segv", "--format", "json")
        self.assertEqual(result.returncode, 2)
        self.assertIn("analysis of this file failed", result.stdout)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    BINARY, SOURCE = sys.argv[1], sys.argv[2]
    unittest.main(argv=[sys.argv[0], "-v"])
