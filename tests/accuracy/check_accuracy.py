#!/usr/bin/env python3
"""Line-level accuracy of uncoalesced-access, misaligned-access and bank-conflict on the access fixtures.

    check_accuracy.py --binary build/cli/kernel-lsp --fixtures tests/fixtures/access \
        [--labels tests/fixtures/access/labels.json | --expectations] \
        [--min-precision 0.95] [--min-recall 0.9]

Lints every fixture once with the real binary (`kernel-lsp lint --format json --arch 9.0`) and
compares, per source line, "the rule reported something on this line" with the truth:

  --labels FILE    measured truth from tests/accuracy/measure_on_gpu.sh (ncu excessive sectors
                   and shared wavefronts, compute-sanitizer misaligned reports). Lines the GPU could not label are left
                   out and counted. Exits 77 (CTest: skipped) when FILE does not exist yet.
  --expectations   the `// expect:` comments written next to the accesses (belief, not
                   measurement: a regression check of the model, not its accuracy).

Prints precision and recall per rule and fails when either is under its threshold.

Findings at `information` level are advisories, not claims of a fault or of wasted sectors (a
`__shared__` byte buffer used as float4 without `__align__` works because nvcc happens to align
it): they are listed, and left out of precision and recall.
"""
import argparse
import json
import os
import re
import subprocess
import sys
from collections import defaultdict

RULES = {"uncoalesced-access": "uncoalesced", "misaligned-access": "misaligned", "bank-conflict": "bank_conflict"}


def lint(binary, files):
    cmd = [binary, "lint", "--no-cache", "--format", "json", "--arch", "9.0"] + files
    proc = subprocess.run(cmd, capture_output=True, text=True)
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError:
        sys.stderr.write(proc.stdout[-2000:] + proc.stderr[-2000:])
        raise SystemExit("kernel-lsp lint did not produce JSON (exit %d)" % proc.returncode)
    flagged = defaultdict(lambda: defaultdict(set))  # file -> rule -> {line}
    for f in doc.get("findings", []):
        if f["rule"] not in RULES:
            continue
        if f.get("severity") in ("info", "information", "hint"):
            ADVISORIES.append(f"{os.path.basename(f['file'])}:{f['line']} {f['rule']} ({f['severity']})")
            continue
        flagged[os.path.basename(f["file"])][f["rule"]].add(int(f["line"]))
    return flagged


ADVISORIES = []


def expectations(path):
    out = {}
    for i, text in enumerate(open(path, encoding="utf-8"), start=1):
        m = re.search(r"//\s*expect:\s*(.*)$", text)
        if not m:
            continue
        words = set(re.split(r"[\s,]+", m.group(1).strip()))
        out[i] = {rule: rule in words for rule in RULES}
    return out


def ratio(a, b):
    return a / b if b else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--labels")
    ap.add_argument("--expectations", action="store_true")
    ap.add_argument("--min-precision", type=float, default=0.95)
    ap.add_argument("--min-recall", type=float, default=0.9)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    if not args.expectations and not args.labels:
        ap.error("give --labels FILE or --expectations")
    labels = None
    if not args.expectations:
        if not os.path.exists(args.labels):
            print(f"no measured labels at {args.labels}: run tests/accuracy/measure_on_gpu.sh on a GPU machine "
                  "and commit its labels.json; skipping.")
            return 77
        labels = json.load(open(args.labels))

    files = sorted(os.path.join(args.fixtures, f) for f in os.listdir(args.fixtures) if f.endswith(".cu"))
    flagged = lint(args.binary, files)

    counts = {rule: {"tp": 0, "fp": 0, "fn": 0, "tn": 0, "unlabeled_findings": 0, "excluded_lines": 0} for rule in RULES}
    mistakes = []
    for path in files:
        name = os.path.basename(path)
        if labels is not None:
            truth_lines = {}
            entry = labels.get("files", {}).get(name, {"lines": {}})
            for line, label in entry.get("lines", {}).items():
                truth_lines[int(line)] = {rule: label.get(key) for rule, key in RULES.items()}
        else:
            truth_lines = expectations(path)
        for rule in RULES:
            c = counts[rule]
            found = flagged[name][rule]
            for line, truth in truth_lines.items():
                t = truth.get(rule)
                if t is None:
                    c["excluded_lines"] += 1
                    continue
                p = line in found
                if p and t:
                    c["tp"] += 1
                elif p and not t:
                    c["fp"] += 1
                    mistakes.append(f"FP {rule} {name}:{line}")
                elif t:
                    c["fn"] += 1
                    mistakes.append(f"FN {rule} {name}:{line}")
                else:
                    c["tn"] += 1
            for line in found:
                if line not in truth_lines or truth_lines[line].get(rule) is None:
                    c["unlabeled_findings"] += 1
                    if labels is None:
                        # An expectation-free finding is a finding nobody asked for.
                        c["fp"] += 1
                        mistakes.append(f"FP {rule} {name}:{line} (no expectation on the line)")

    source = "measured labels " + args.labels if labels is not None else "`// expect:` comments (belief)"
    print(f"accuracy against {source}, {len(files)} fixtures")
    if labels is not None and labels.get("machine"):
        print("measured on: " + labels["machine"].replace("\n", "; "))
    ok = True
    for rule, c in counts.items():
        p = ratio(c["tp"], c["tp"] + c["fp"])
        r = ratio(c["tp"], c["tp"] + c["fn"])
        n = c["tp"] + c["fp"] + c["fn"] + c["tn"]
        print(f"  {rule:20s} precision {p:.3f}  recall {r:.3f}  (tp {c['tp']}, fp {c['fp']}, fn {c['fn']}, tn {c['tn']}; "
              f"{n} labeled lines; {c['excluded_lines']} lines unlabeled; {c['unlabeled_findings']} findings on unlabeled lines)")
        if not (p >= args.min_precision) or not (r >= args.min_recall):
            ok = False
    if ADVISORIES:
        print(f"  advisories (information level, not scored): {len(ADVISORIES)}: " + ", ".join(ADVISORIES))
    if mistakes and (args.verbose or not ok):
        print("\n".join("  " + m for m in mistakes))
    if not ok:
        print(f"FAILED: precision must be >= {args.min_precision} and recall >= {args.min_recall} for each rule")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
