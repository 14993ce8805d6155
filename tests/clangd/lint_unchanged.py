#!/usr/bin/env python3
"""kernel-lsp's own analysis is the same before and after `kernel-lsp clangd-config`.

    lint_unchanged.py KERNEL_LSP PROJECT[:GLOB]...

(PROJECT:GLOB copies only build.toml and the files GLOB matches, to keep the test short.)

The analysis reads a project's compile_commands.json (its flags join every parse), and the one
clangd-config writes is made for clangd: one arch per file, with that arch's macros, and
kernel-lsp's own shims and torch headers. This lints a copy of each project before and after
clangd-config and requires the same findings and the same access-model summary (files, kernels,
accesses, unjudged accesses): the written database must not change what kernel-lsp sees for any
arch. Exit 77 (skipped) without a CUDA toolkit.
"""

import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clangd_check import cuda_toolkit  # noqa: E402


def lint(kernel_lsp, project):
    run = subprocess.run([kernel_lsp, "lint", "--no-cache", "--format", "json", project], capture_output=True,
                         text=True, timeout=600)
    if run.returncode not in (0, 1):
        raise SystemExit("kernel-lsp lint %s exited %d:\n%s" % (project, run.returncode, run.stderr))
    report = json.loads(run.stdout)
    findings = sorted((f["rule"], f["file"], f["line"], f["column"], f["message"]) for f in report["findings"])
    summary = {k: v for k, v in report["summary"].items() if k != "seconds"}
    return findings, summary


def main():
    kernel_lsp, sources = sys.argv[1], sys.argv[2:]
    if not cuda_toolkit():
        print("SKIP: no CUDA toolkit")
        return 77
    failures = 0
    with tempfile.TemporaryDirectory(prefix="kl_clangd_lint_") as scratch:
        for argument in sources:
            source, _, pattern = argument.partition(":")
            project = os.path.join(scratch, os.path.basename(os.path.normpath(source)))
            if pattern:
                os.makedirs(project)
                for path in ["build.toml"] + [os.path.relpath(p, source) for p in glob.glob(os.path.join(source, pattern))]:
                    shutil.copy(os.path.join(source, path), os.path.join(project, path))
            else:
                shutil.copytree(source, project, ignore=shutil.ignore_patterns(
                    "build", "__pycache__", ".cache", ".clangd", "compile_commands.json"))
            before = lint(kernel_lsp, project)
            subprocess.run([kernel_lsp, "clangd-config", project], check=True, capture_output=True, timeout=300)
            if not os.path.exists(os.path.join(project, "compile_commands.json")):
                print("FAIL %s: clangd-config wrote no compile_commands.json" % source)
                failures += 1
                continue
            after = lint(kernel_lsp, project)
            name = os.path.basename(project)
            if before == after:
                print("ok   %s: %d findings, summary %s, the same with clangd-config's database" %
                      (name, len(before[0]), json.dumps(before[1], sort_keys=True)))
                continue
            failures += 1
            print("FAIL %s: the lint changed with clangd-config's compile_commands.json" % name)
            for finding in after[0]:
                if finding not in before[0]:
                    print("   new  ", finding)
            for finding in before[0]:
                if finding not in after[0]:
                    print("   gone ", finding)
            if before[1] != after[1]:
                print("   summary before %s\n   summary after  %s" % (before[1], after[1]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
