#!/usr/bin/env python3
"""The `kernel-lsp lint` and `check` command lines as a user and a CI job see them: output
formats, exit codes, and bad input (garbage, empty files, broken build.toml, no toolkit).

usage: cli_test.py KERNEL_LSP SOURCE_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import urllib.parse
from pathlib import Path

BINARY = None
SOURCE = None

BUILD_TOML = """[general]
name = "demo"
version = 1
edition = 5
license = "Apache-2.0"
backends = ["cuda"]

[torch]
src = []

[kernel.demo]
backend = "cuda"
src = ["demo.cu"]
depends = ["torch"]
cuda-capabilities = ["7.5", "9.0"]
"""

MISMATCH = """__global__ void k(int* out) {
  out[threadIdx.x] = __reduce_add_sync(0xffffffffu, out[threadIdx.x]);
}
"""

# What the access model saw. copy: a load and a store; scramble: a store whose lanes'
# addresses the model cannot follow; scale: one kernel for two instantiations, `*=` a load and
# a store; tile: shared memory only.
COVERAGE = """__global__ void copy(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}
__global__ void scramble(float* out) { out[(threadIdx.x * 7) ^ 5] = 1.0f; }
template <typename T> __global__ void scale(T* p, T f) { p[blockIdx.x * blockDim.x + threadIdx.x] *= f; }
template __global__ void scale<float>(float*, float);
template __global__ void scale<double>(double*, double);
__global__ void tile(float* out) {
  __shared__ float t[256];
  t[threadIdx.x] = 0.0f;
}
"""

# Kernels the parse for the most capable arch (9.0) compiles nothing for: a template no one
# instantiates, and a body that only prints there.
NO_CODE = """#include <cstdio>
template <typename T> __global__ void never(T* p) { p[threadIdx.x] = T(); }
__global__ void wrong_arch(float* p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  p[threadIdx.x] = 0.0f;
#else
  printf("built for SM75 only\\n");
#endif
}
__global__ void work(float* p) { p[threadIdx.x] = 1.0f; }
"""


def run(*args, cwd=None, timeout=600):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, cwd=cwd, timeout=timeout)


class Project:
    def __init__(self, source=MISMATCH, toml=BUILD_TOML):
        self.dir = Path(tempfile.mkdtemp(prefix="kl_cli_"))
        (self.dir / "build.toml").write_text(toml)
        (self.dir / "demo.cu").write_text(source)

    def __enter__(self):
        return self.dir

    def __exit__(self, *exc):
        shutil.rmtree(self.dir, ignore_errors=True)


class TextFormat(unittest.TestCase):
    def test_compiler_style_line_source_and_caret(self):
        with Project() as d:
            proc = run("lint", str(d), cwd=d)
            self.assertEqual(proc.returncode, 1, proc.stderr)
            self.assertIn("demo.cu:2:22: error: `__reduce_add_sync`", proc.stdout)
            self.assertIn("[arch-mismatch]", proc.stdout)
            lines = proc.stdout.splitlines()
            at = next(i for i, l in enumerate(lines) if l.startswith("demo.cu:2:22"))
            self.assertEqual(lines[at + 1].strip(), MISMATCH.splitlines()[1].strip())
            self.assertEqual(lines[at + 2].index("^"), lines[at + 1].index("__reduce"))
            self.assertIn("build.toml:15:22: note: 7.5 is listed here", proc.stdout)
            self.assertRegex(lines[-1], r"^1 error, 0 warnings in 1 file \(2 analysed in [0-9.]+ s\)$")

    def test_clean_project_exits_zero(self):
        with Project(source="__global__ void k(int* o) { o[threadIdx.x] = 1; }\n") as d:
            proc = run("lint", str(d))
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)

    def test_severity_threshold_hides_and_passes(self):
        with Project(source="#include <not_installed/extension.h>\n__global__ void k(int* o) { o[0] = 1; }\n") as d:
            shown = run("lint", "--severity", "info", str(d))
            self.assertIn("[frontend]", shown.stdout)
            self.assertEqual(shown.returncode, 0)  # notes never fail CI
            hidden = run("lint", "--severity", "error", str(d))
            self.assertNotIn("[frontend]", hidden.stdout)


class MachineFormats(unittest.TestCase):
    def test_json(self):
        with Project() as d:
            proc = run("lint", "--format", "json", str(d))
            doc = json.loads(proc.stdout)
            finding = next(f for f in doc["findings"] if f["rule"] == "arch-mismatch")
            self.assertEqual((finding["line"], finding["column"], finding["end_column"]), (2, 22, 39))
            self.assertEqual(finding["severity"], "error")
            # The installed guidance page, as a file: URI that resolves.
            self.assertTrue(finding["help_uri"].startswith("file:///"))
            self.assertTrue(finding["help_uri"].endswith("references/rules/arch-mismatch.md"))
            self.assertTrue(os.path.isfile(urllib.parse.unquote(finding["help_uri"][len("file://"):])))
            titles = [fix["title"] for fix in finding["fixes"]]
            self.assertTrue(any(t.startswith("Guard with #if __CUDA_ARCH__ >= 800") for t in titles))
            self.assertTrue(any(t.startswith("Drop 7.5") for t in titles))

    def test_sarif(self):
        with Project() as d:
            doc = json.loads(run("lint", "--format", "sarif", str(d)).stdout)
            self.assertEqual(doc["version"], "2.1.0")
            run0 = doc["runs"][0]
            rule_ids = {r["id"] for r in run0["tool"]["driver"]["rules"]}
            self.assertTrue({"arch-mismatch", "arch-unsupported", "smem-limit", "uncoalesced-access",
                             "misaligned-access"} <= rule_ids)
            for rule in run0["tool"]["driver"]["rules"]:
                self.assertTrue(rule["helpUri"].startswith("file:///"))
                self.assertTrue(os.path.isfile(urllib.parse.unquote(rule["helpUri"][len("file://"):])))
            result = run0["results"][0]
            region = result["locations"][0]["physicalLocation"]["region"]
            self.assertEqual((region["startLine"], region["startColumn"]), (2, 22))
            self.assertEqual(result["level"], "error")
            self.assertEqual(result["relatedLocations"][0]["physicalLocation"]["region"]["startLine"], 15)

    def test_github_annotations_escape(self):
        with Project() as d:
            out = run("lint", "--format", "github", str(d), cwd=d).stdout
            line = next(l for l in out.splitlines() if "arch-mismatch" in l)
            self.assertTrue(line.startswith("::error file=demo.cu,line=2,col=22,endLine=2,endColumn=39,"))
            self.assertIn("title=kernel-lsp arch-mismatch::", line)


class BadInput(unittest.TestCase):
    def test_missing_path_is_a_usage_error(self):
        proc = run("lint", "/nonexistent/kernel.cu")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("/nonexistent/kernel.cu: no such file or folder", proc.stderr)

    def test_not_cuda_is_refused_with_its_name(self):
        with tempfile.NamedTemporaryFile(suffix=".md") as f:
            proc = run("lint", f.name)
            self.assertEqual(proc.returncode, 2)
            self.assertIn("not a CUDA source", proc.stderr)

    def test_sources_the_editor_analyses_are_linted_when_named(self):
        # One list of source kinds (support/file_kinds.h): an upper-case .CU and an .inl are
        # sources for the CLI as for the server.
        with Project() as d:
            (d / "upper.CU").write_text("__global__ void k(float* x) { x[threadIdx.x * 2] = 1.f; }\n")
            (d / "part.inl").write_text("inline int twice(int v) { return 2 * v; }\n")
            for name in ("upper.CU", "part.inl"):
                proc = run("lint", "--format", "json", str(d / name), cwd=d)
                self.assertIn(proc.returncode, (0, 1), proc.stderr)
                self.assertNotIn("not a CUDA source", proc.stderr)
                report = json.loads(proc.stdout)
                self.assertEqual(report["summary"]["files_failed"], 0, proc.stdout)
                if name == "upper.CU":  # analysed: its strided store is found
                    self.assertIn("upper.CU", [f["file"] for f in report["findings"]], proc.stdout)

    def test_binary_garbage_empty_and_junk_do_not_crash(self):
        with Project() as d:
            (d / "garbage.cu").write_bytes(bytes(range(256)) * 64)
            (d / "empty.cu").write_text("")
            (d / "junk.cu").write_text("template <<<<< class ]]]] {{{{ \n" * 200)
            (d / "deep.cu").write_text("(" * 20000)
            proc = run("lint", "--format", "json", str(d), timeout=300)
            self.assertIn(proc.returncode, (0, 1), proc.stderr)
            findings = json.loads(proc.stdout)["findings"]
            garbage = [f for f in findings if f["file"].endswith("garbage.cu")]
            self.assertEqual(len(garbage), 1)
            self.assertIn("binary data", garbage[0]["message"])

    def test_malformed_build_toml_is_located(self):
        with Project(toml='[general]\nname = "demo"\nversion = [1,\n') as d:
            proc = run("lint", "--format", "json", str(d))
            self.assertEqual(proc.returncode, 1)
            problems = [f for f in json.loads(proc.stdout)["findings"] if f["rule"] == "build-toml"]
            self.assertTrue(problems)
            self.assertTrue(problems[0]["file"].endswith("build.toml"))
            self.assertGreaterEqual(problems[0]["line"], 3)

    def test_missing_toolkit_is_said_not_crashed(self):
        with Project() as d:
            proc = run("lint", "--cuda-path", "/nonexistent/cuda", "--format", "json", str(d))
            self.assertIn(proc.returncode, (0, 1))
            messages = " ".join(f["message"] for f in json.loads(proc.stdout)["findings"])
            self.assertIn("/nonexistent/cuda", messages)

    def test_bad_arch_flag(self):
        with Project() as d:
            proc = run("lint", "--arch", "9.x", str(d))
            self.assertEqual(proc.returncode, 2)
            self.assertIn("9.x", proc.stderr)


class Check(unittest.TestCase):
    def test_check_prints_stages_and_timings(self):
        with Project() as d:
            proc = run("check", str(d / "demo.cu"))
            self.assertEqual(proc.returncode, 0, proc.stderr)
            for word in ("toolkit:", "build.toml:", "archs:", "7.5, 9.0", "parse sm_90", "rules", "total", "arch-mismatch"):
                self.assertIn(word, proc.stdout)


class Coverage(unittest.TestCase):
    def test_json_summary_says_what_was_seen(self):
        with Project(source=COVERAGE) as d:
            proc = run("lint", "--format", "json", str(d))
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            summary = json.loads(proc.stdout)["summary"]
            self.assertEqual(summary["files_analysed"], 2)
            self.assertEqual((summary["findings"], summary["analysis_failures"], summary["files_failed"]), (0, 0, 0))
            self.assertEqual((summary["kernels"], summary["kernels_with_global_accesses"]), (4, 3))
            self.assertEqual((summary["global_accesses"], summary["accesses_unjudged"]), (5, 1))
            self.assertEqual((summary["shared_accesses"], summary["shared_accesses_unjudged"]), (1, 0))
            self.assertIn("seconds", summary)

    def test_check_lists_each_kernel(self):
        with Project(source=COVERAGE) as d:
            proc = run("check", str(d / "demo.cu"))
            self.assertEqual(proc.returncode, 0, proc.stderr)
            lines = proc.stdout.splitlines()
            self.assertIn("kernels:     4, launches: 0, feature uses: 0", lines)
            at = lines.index("kernels:     4, launches: 0, feature uses: 0")
            self.assertEqual([l.split()[0] for l in lines[at + 1:at + 5]], ["copy", "scramble", "scale", "tile"])
            self.assertRegex(lines[at + 1], r"^  copy +2 global accesses \(1 load, 1 store\), 0 unjudged \(line 1\)$")
            self.assertRegex(lines[at + 2], r"^  scramble +1 global access \(0 loads, 1 store\), 1 unjudged \(line 5\)$")
            self.assertRegex(lines[at + 3], r"^  scale +2 global accesses \(1 load, 1 store\), 0 unjudged \(line 6\)$")
            self.assertRegex(lines[at + 4], r"^  tile +no global accesses; 1 shared access, 0 unjudged \(line 9\)$")
            self.assertEqual(lines[at + 5], "stages:")

    def test_kernels_without_code_are_told_apart(self):
        with Project(source=NO_CODE) as d:
            proc = run("lint", "--format", "json", str(d / "demo.cu"))
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            summary = json.loads(proc.stdout)["summary"]
            # `never`'s pattern is still analysed (its access is counted, so it counts as code);
            # wrong_arch compiles to a printf for 9.0, the parse coverage is taken from.
            self.assertEqual((summary["kernels"], summary["kernels_without_code"],
                              summary["kernels_with_global_accesses"]), (3, 1, 2))
            check = run("check", str(d / "demo.cu")).stdout
            self.assertRegex(check, r"\n  wrong_arch +no code for this configuration \(line 3\)\n")
            self.assertRegex(check, r"\n  work +1 global access \(0 loads, 1 store\), 0 unjudged \(line 10\)\n")


# A helper in a header, reached from two kernel files; its lane stride is one problem.
SHARED_HEADER = """#pragma once
__device__ inline float pick(const float* in, int i) { return in[2 * i]; }
"""
INCLUDER = """#include "shared.cuh"
__global__ void KERNEL(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = pick(in, i);
}
"""


class SharedHeaders(unittest.TestCase):
    def test_a_header_finding_is_reported_once(self):
        with Project(source=INCLUDER.replace("KERNEL", "first")) as d:
            (d / "shared.cuh").write_text(SHARED_HEADER)
            (d / "second.cu").write_text(INCLUDER.replace("KERNEL", "second"))
            proc = run("lint", "--format", "json", "--arch", "9.0", "demo.cu", "second.cu", "shared.cuh", cwd=d)
            self.assertEqual(proc.returncode, 1, proc.stderr)
            report = json.loads(proc.stdout)
            in_header = [f for f in report["findings"] if f["file"].endswith("shared.cuh")]
            self.assertEqual([(f["rule"], f["line"]) for f in in_header], [("uncoalesced-access", 2)], report)
            self.assertEqual(sorted(n["file"] for n in in_header[0]["notes"]), ["demo.cu", "second.cu"])
            self.assertEqual(report["summary"]["findings"], len(report["findings"]))

    def test_extra_flag_takes_one_value_and_leaves_the_files(self):
        with Project(source=INCLUDER.replace("KERNEL", "first")) as d:
            (d / "inc").mkdir()
            (d / "inc" / "shared.cuh").write_text(SHARED_HEADER)
            (d / "second.cu").write_text(INCLUDER.replace("KERNEL", "second"))
            proc = run("lint", "--format", "json", "--arch", "9.0", "--extra-flag", "-Iinc", "demo.cu", "second.cu", cwd=d)
            report = json.loads(proc.stdout)
            self.assertEqual(report["summary"]["kernels"], 2, proc.stdout + proc.stderr)


class ReferenceKernels(unittest.TestCase):
    def test_reference_kernels_are_clean_under_our_lints(self):
        proc = run("lint", "--severity", "warning", str(Path(SOURCE) / "kernels"), timeout=900)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)


if __name__ == "__main__":
    BINARY, SOURCE = sys.argv[1], sys.argv[2]
    unittest.main(argv=[sys.argv[0], "-v"])
