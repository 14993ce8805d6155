#!/usr/bin/env python3
"""out-of-bounds against the memcheck labels of the bounds fixtures, per kernel (stdlib only).

    check_bounds.py --binary build/cli/kernel-lsp [--labels tests/accuracy/bounds/labels.json]
                    [--min-precision P] [--min-recall R]

A kernel is *flagged* when an out-of-bounds finding lies inside its body, *true* when memcheck
reported an invalid global access while it ran (labels.json, tests/accuracy/bounds/README.md).
Kernels launched twice in a fixture (one source, two launches) count once per source kernel: true
when any launch faulted. Exits 77 (skipped) when there are no labels yet; 1 under a threshold, or
when an error-severity finding lands on a kernel memcheck ran clean.
"""
import argparse
import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parents[1] / "fixtures" / "bounds"
KERNEL = re.compile(r"__global__\s+void\s+(\w+)\s*\(")


def kernel_ranges(source):
    """name -> (first line, last line) of each kernel, by brace matching from its signature."""
    text = source.read_text()
    ranges = {}
    for m in KERNEL.finditer(text):
        start = text.index("{", m.end())
        depth, i = 0, start
        while i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        ranges[m.group(1)] = (text.count("\n", 0, m.start()) + 1, text.count("\n", 0, i) + 1)
    return ranges


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--labels", default=str(HERE / "labels.json"))
    ap.add_argument("--min-precision", type=float, default=0.0)
    ap.add_argument("--min-recall", type=float, default=0.0)
    args = ap.parse_args()
    if not Path(args.labels).exists():
        print(f"skipped: {args.labels} does not exist (run measure_on_gpu.sh on a GPU)", file=sys.stderr)
        return 77
    labels = json.loads(Path(args.labels).read_text())
    failed = False
    tp = fp = fn = tn = 0
    for fixture in sorted({k["fixture"] for k in labels["kernels"]}):
        source = FIXTURES / fixture
        ranges = kernel_ranges(source)
        run = subprocess.run([args.binary, "lint", "--no-cache", "--format", "json", "--arch", "9.0", str(source)],
                             capture_output=True, text=True, timeout=600)
        findings = [f for f in json.loads(run.stdout)["findings"] if f["rule"] == "out-of-bounds"]
        truth = defaultdict(lambda: None)
        for k in labels["kernels"]:
            if k["fixture"] != fixture or k["out_of_bounds"] is None:
                continue
            # The launch names the kernel it ran; a second launch of one kernel under another name
            # (add_exact_grid runs add_unguarded) is matched through the lines memcheck named.
            name = k["kernel"] if k["kernel"] in ranges else None
            if name is None:
                continue
            truth[name] = bool(truth[name]) or k["out_of_bounds"]
        for name, (first, last) in sorted(ranges.items(), key=lambda r: r[1]):
            if truth[name] is None:
                continue
            mine = [f for f in findings if first <= f["line"] <= last]
            flagged = bool(mine)
            if truth[name] and flagged: tp += 1
            elif flagged: fp += 1
            elif truth[name]: fn += 1
            else: tn += 1
            if not truth[name] and any(f["severity"] == "error" for f in mine):
                print(f"ERROR on a kernel memcheck ran clean: {fixture} {name}")
                failed = True
            print(f"  {fixture} {name}: memcheck {'out of bounds' if truth[name] else 'clean'}, "
                  f"{'flagged' if flagged else 'not flagged'}")
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    print(f"out-of-bounds per kernel: precision {precision if precision is None else round(precision, 3)} "
          f"recall {recall if recall is None else round(recall, 3)} (tp {tp} fp {fp} fn {fn} tn {tn})")
    if precision is not None and precision < args.min_precision:
        failed = True
    if recall is not None and recall < args.min_recall:
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
