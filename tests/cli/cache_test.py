#!/usr/bin/env python3
"""`kernel-lsp lint`'s result cache from the command line: the same report with and without it
on real files (the reference kernels and the fixtures), no worker process at all on a warm run,
and a fresh analysis after a header is edited, a setting changes or an entry is corrupted.

Workers are counted through KERNEL_LSP_WORKER_EXECUTABLE: a wrapper that logs each start and
runs the binary. The variable is part of the cache key, so every run here sets it alike.

usage: cache_test.py KERNEL_LSP SOURCE_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

BINARY = None
SOURCE = None
SCRATCH = None  # this run's temporary folder: caches, the worker wrapper and its log

HEADER = """#pragma once
__device__ inline int index_of(int i) { return i; }
"""
KERNEL = """#include "index.cuh"
__global__ void copy(const float4 *in, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[index_of(i)] = in[index_of(i)];
}
"""
STRIDED_HEADER = """#pragma once
__device__ inline int index_of(int i) { return i * 2; }
"""


def worker_starts():
    log = SCRATCH / "workers.log"
    return len(log.read_text().splitlines()) if log.exists() else 0


def lint(*args, cwd=None, timeout=1200):
    env = dict(os.environ)
    env["KERNEL_LSP_WORKER_EXECUTABLE"] = str(SCRATCH / "worker.sh")
    env.pop("KERNEL_LSP_CACHE_DIR", None)
    proc = subprocess.run([BINARY, "lint", "--format", "json", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=timeout)
    if proc.returncode not in (0, 1):
        raise AssertionError(f"lint exited {proc.returncode}: {proc.stderr[-3000:]}")
    return json.loads(proc.stdout)


def comparable(report):
    summary = dict(report["summary"])
    summary.pop("seconds")
    return report["findings"], summary


def age(path, seconds_ago=60):
    """The cache keeps no result whose inputs changed within a second of its analysis."""
    t = time.time() - seconds_ago
    os.utime(path, (t, t))


class SameReport(unittest.TestCase):
    def test_reference_kernels_and_fixtures_report_the_same_with_and_without_the_cache(self):
        fixtures = Path(SOURCE) / "tests" / "fixtures"
        paths = [str(Path(SOURCE) / "kernels")] + [str(p) for p in sorted(fixtures.iterdir())
                                                   if p.is_dir() and p.name != "crash"]
        cache = SCRATCH / "same-report"
        uncached = lint("--no-cache", *paths)
        self.assertGreater(uncached["summary"]["files_analysed"], 50)
        cold = lint("--cache-dir", str(cache), *paths)
        starts = worker_starts()
        warm = lint("--cache-dir", str(cache), *paths)
        self.assertEqual(comparable(cold), comparable(uncached))
        self.assertEqual(comparable(warm), comparable(uncached))
        self.assertEqual(worker_starts(), starts, "a warm run started analysis workers")


class Invalidation(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="kl_cache_", dir=SCRATCH))
        (self.dir / "index.cuh").write_text(HEADER)
        (self.dir / "copy.cu").write_text(KERNEL)
        for name in ("index.cuh", "copy.cu"):
            age(self.dir / name)
        self.cache = str(self.dir / ".cache")

    def run_lint(self, *extra):
        return lint("--cache-dir", self.cache, "--arch", "9.0", *extra, "copy.cu", cwd=self.dir)

    def test_a_touch_hits_an_edited_header_does_not(self):
        first = self.run_lint()
        starts = worker_starts()
        os.utime(self.dir / "index.cuh")  # touched: same content
        self.assertEqual(comparable(self.run_lint()), comparable(first))
        self.assertEqual(worker_starts(), starts)
        (self.dir / "index.cuh").write_text(STRIDED_HEADER)
        age(self.dir / "index.cuh", 30)
        edited = self.run_lint()
        self.assertGreater(worker_starts(), starts)
        self.assertEqual(comparable(edited), comparable(lint("--no-cache", "--arch", "9.0", "copy.cu", cwd=self.dir)))
        self.assertNotEqual(comparable(edited), comparable(first))

    def test_another_setting_or_a_corrupt_entry_is_analysed_again(self):
        first = self.run_lint()
        starts = worker_starts()
        self.run_lint("--extra-flag", "-DSOMETHING=1")
        self.assertGreater(worker_starts(), starts)
        for entry in Path(self.cache).glob("*/*.json"):
            entry.write_text("{ not json")
        starts = worker_starts()
        self.assertEqual(comparable(self.run_lint()), comparable(first))
        self.assertGreater(worker_starts(), starts)


def main():
    global BINARY, SOURCE, SCRATCH
    BINARY, SOURCE = sys.argv[1], sys.argv[2]
    del sys.argv[1:3]
    SCRATCH = Path(tempfile.mkdtemp(prefix="kl_cache_test_"))
    wrapper = SCRATCH / "worker.sh"
    wrapper.write_text(f'#!/bin/sh\necho start >> "{SCRATCH}/workers.log"\nexec "{BINARY}" "$@"\n')
    wrapper.chmod(0o755)
    try:
        unittest.main(verbosity=2)
    finally:
        shutil.rmtree(SCRATCH, ignore_errors=True)


if __name__ == "__main__":
    main()
