#!/usr/bin/env python3
"""`kernel-lsp test`: running a project's tests, the errors it gives before running anything, and
compute-sanitizer output made on a GPU turned into findings at source lines (--from-output).

    test_command_test.py KERNEL_LSP SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def run(binary, *args, env=None, cwd=None):
    return subprocess.run([binary, "test", *args], capture_output=True, text=True, timeout=120, env=env, cwd=cwd)


# A project whose operator (defined in Python, on the CPU) the tests call at one family of shapes,
# then at a tail size too.
SHAPES_TEST = """import torch

lib = torch.library.Library("klshapes", "DEF")
lib.define("scale(Tensor x) -> Tensor")
lib.impl("scale", lambda x: x * 2, "CPU")


def test_scale():
    for rows, cols in SHAPES:
        x = torch.randn(rows, cols)
        assert torch.equal(torch.ops.klshapes.scale(x), x * 2)
"""


def python_with_torch_and_pytest():
    for python in ("/usr/bin/python3", "python3"):
        probe = subprocess.run([python, "-c", "import torch, pytest"], capture_output=True)
        if probe.returncode == 0:
            return python
    return None


def check_shape_notes(binary, check):
    """The shapes the tests give the project's operators: a note when every call's last dimension
    (or row count) is a multiple of 8 or more, none once a tail size is among them."""
    python = python_with_torch_and_pytest()
    if not python:
        print("SKIPPED (not counted as passing): the shape notes need a python3 with torch and pytest")
        return
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        (project / "tests").mkdir()
        command = f"{python} -m pytest -q -p no:cacheprovider tests"
        test = project / "tests" / "test_scale.py"
        test.write_text(SHAPES_TEST.replace("SHAPES", "[(8, 1024), (16, 256)]"))
        r = run(binary, str(project), "--command", command)
        check(r.returncode == 0 and "1 passed" in r.stderr, f"shape project's tests pass: {r.returncode} {r.stderr}")
        check("note: every call of `klshapes::scale` in the tests (2 shapes) has a last dimension that is a multiple "
              "of 256 (256, 1024)" in r.stderr, f"last dimension note: {r.stderr}")
        check("row count (the elements before the last dimension) that is a multiple of 8 (8, 16)" in r.stderr,
              f"row count note: {r.stderr}")
        # A command that sets PYTHONPATH itself would hide the plugin from pytest: it is left out.
        r = run(binary, str(project), "--command", f"PYTHONPATH={tmp} {command}")
        check(r.returncode == 0 and "1 passed" in r.stderr and "note:" not in r.stderr,
              f"PYTHONPATH in the command: the tests pass, no plugin: {r.returncode} {r.stderr}")
        test.write_text(SHAPES_TEST.replace("SHAPES", "[(8, 1024), (3, 1001)]"))
        r = run(binary, str(project), "--command", command)
        check(r.returncode == 0 and "note:" not in r.stderr, f"a tail size silences the notes: {r.stderr}")


def main():
    binary, source = sys.argv[1], Path(sys.argv[2])
    failures = []

    def check(condition, what):
        if not condition:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        r = run(binary, str(project))
        check(r.returncode == 2 and "give the tests' command with --command" in r.stderr,
              f"no tests/: exit 2 with advice, got {r.returncode}: {r.stderr}")
        r = run(binary, str(project), "--command", "true")
        check(r.returncode == 0, f"passing tests: exit 0, got {r.returncode}: {r.stderr}")
        r = run(binary, str(project), "--command", "echo ran-here; exit 3")
        check(r.returncode == 1 and "the tests exited with an error" in r.stderr and "ran-here" in r.stdout,
              f"failing tests: exit 1 with their output, got {r.returncode}: {r.stdout} {r.stderr}")
        # a command that ends as pytest does: its summary line becomes the run's counts
        r = run(binary, str(project), "--command", "echo '==== 2 passed, 1 failed, 1 skipped in 0.52s ===='; exit 1")
        check(r.returncode == 1 and "tests: 2 passed, 1 failed, 1 skipped, 0 errors (pytest)" in r.stderr,
              f"pytest's counts: exit 1 with them, got {r.returncode}: {r.stderr}")
        r = run(binary, str(project), "--command", "echo all fine")
        check("(pytest)" not in r.stderr, f"no pytest summary, no counts: {r.stderr}")
        r = run(binary, str(project), "--command", "true", "--sanitize", "memcheck,leakcheck")
        check(r.returncode == 2 and "unknown compute-sanitizer tool `leakcheck`" in r.stderr,
              f"unknown tool: exit 2, got {r.returncode}: {r.stderr}")
        if not Path("/usr/local/cuda/bin/compute-sanitizer").exists():
            env = dict(os.environ, PATH="/usr/bin:/bin", CUDA_PATH=tmp, CUDA_HOME=tmp)
            r = run(binary, str(project), "--command", "true", "--sanitize", env=env)
            check(r.returncode == 2 and "compute-sanitizer not found" in r.stderr,
                  f"no compute-sanitizer: exit 2 with where it looked, got {r.returncode}: {r.stderr}")
        r = run(binary, str(project), "--from-output", str(source / "tests/fixtures/sanitizer/sync_bugs.10.synccheck.txt"))
        check(r.returncode == 2 and "--from-output reads one tool's output" in r.stderr,
              f"--from-output without a tool: exit 2, got {r.returncode}: {r.stderr}")

    # A synccheck run of the sync fixtures on a GPU: the divergent barrier at sync_bugs.cu:153.
    output = source / "tests/fixtures/sanitizer/sync_bugs.10.synccheck.txt"
    fixtures = source / "tests/fixtures/sync"
    r = run(binary, str(fixtures), "--sanitize", "synccheck", "--from-output", str(output))
    check(r.returncode == 1, f"reports: exit 1, got {r.returncode}: {r.stderr}")
    check("sync_bugs.cu:153:3: error: synccheck: Barrier error detected. Divergent thread(s) in block" in r.stdout,
          f"text finding at the barrier's line: {r.stdout}")
    check(r.stdout.count("[compute-sanitizer]") == 1, f"one finding for the threads' repeated reports: {r.stdout}")
    check("3 report(s), 1 finding(s) at source lines" in r.stderr, f"the count of reports: {r.stderr}")
    r = run(binary, str(fixtures), "--sanitize", "synccheck", "--from-output", str(output), "--format", "sarif")
    sarif = json.loads(r.stdout)
    results = sarif["runs"][0]["results"]
    check(len(results) == 1 and results[0]["ruleId"] == "compute-sanitizer", f"SARIF result: {results}")
    region = results[0]["locations"][0]["physicalLocation"]["region"]
    check(region["startLine"] == 153, f"SARIF line: {region}")

    # A racecheck run of the same fixtures: the loop-carried race, read at line 69 against the
    # write at line 67 (a related location); pairs racecheck could not place are counted.
    r = run(binary, str(fixtures), "--sanitize", "racecheck", "--from-output",
            str(source / "tests/fixtures/sanitizer/sync_bugs.4.racecheck.txt"), "--format", "json")
    report = json.loads(r.stdout)
    races = [(f["line"], f["severity"]) for f in report["findings"]]
    check(r.returncode == 1 and (69, "error") in races and (67, "error") in races, f"racecheck findings: {races}")
    on69 = [f for f in report["findings"] if f["line"] == 69]
    check(on69 and any(n["line"] == 67 for n in on69[0]["notes"]), f"the other access as a note: {on69}")
    check("without one: build with -lineinfo" in r.stderr, f"unplaced reports counted: {r.stderr}")

    # A memcheck run of the bounds fixtures: the unguarded add's read past the end, at tails.cu:14.
    r = run(binary, str(source / "tests/fixtures/bounds"), "--sanitize", "memcheck", "--from-output",
            str(source / "tests/fixtures/sanitizer/tails.0.memcheck.txt"))
    check(r.returncode == 1 and "tails.cu:14:3: error: memcheck: Invalid __global__ read of size 4 bytes" in r.stdout
          and "1 bytes after the nearest allocation" in r.stdout, f"memcheck finding: {r.stdout} {r.stderr}")

    check_shape_notes(binary, check)

    for f in failures:
        print("FAIL:", f)
    print(f"{'FAILED' if failures else 'ok'}: kernel-lsp test")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
