#!/usr/bin/env python3
"""Scores out-of-bounds on the public programs against memcheck at tail sizes (stdlib only).

    check_real_bounds.py --binary build/cli/kernel-lsp --prepared build-real-tails \
        [--labels tests/accuracy/bounds/labels-real.json] [--max-false-errors 0]

Lints the prepared sources (prepare.py --tail-sizes; the same lines as the corpus) once and holds
each out-of-bounds finding to the memcheck runs of the programs built from its file
(real_bounds_labels.py):
- confirmed: memcheck reported an invalid global access at the finding's line;
- refuted: every run built from the file ended clean (exit 0, no report), none at that line;
- open: otherwise (a run that failed, timed out, or reported elsewhere in the file).
Each line memcheck reported that no finding names is a miss. Fails when more refuted errors than
--max-false-errors (an error on a line that runs clean at tail sizes is what the rule must never
say); warnings are counted apart. Skips (exit 77, saying so) when the prepared folder is absent.
"""
import argparse
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--prepared", required=True)
    ap.add_argument("--labels", default=str(HERE / "labels-real.json"))
    ap.add_argument("--max-false-errors", type=int, default=0)
    args = ap.parse_args()
    prepared = Path(args.prepared).resolve()
    if not (prepared / "plan.json").exists():
        print(f"SKIPPED: {prepared}/plan.json is absent (tests/accuracy/real_programs/prepare.py --tail-sizes "
              f"--out {prepared} makes it from the corpus)")
        return 77
    if not Path(args.labels).exists():
        print(f"SKIPPED: no memcheck labels at {args.labels} (real_programs_memcheck_on_gpu.sh on a GPU, then "
              f"real_bounds_labels.py)")
        return 77
    plan = {p["name"]: p for p in json.loads((prepared / "plan.json").read_text())["programs"]}
    runs = json.loads(Path(args.labels).read_text())["runs"]
    # Per source file (relative to src/): the runs of the programs built from it.
    runs_of_file = defaultdict(list)
    for run in runs:
        program = plan.get(run["program"])
        if program:
            for source in program["sources"]:
                runs_of_file[f'{program["dir"]}/{source}'].append(run)
    lint = subprocess.run([args.binary, "lint", str(prepared / "src"), "--format", "json", "--no-cache",
                           "--severity", "info"], capture_output=True, text=True)
    findings = [f for f in json.loads(lint.stdout)["findings"] if f["rule"] == "out-of-bounds"]
    verdicts = defaultdict(int)
    named = set()
    for f in findings:
        rel = str(Path(f["file"]).resolve().relative_to(prepared / "src"))
        those = runs_of_file.get(rel, [])
        line = f["line"]
        named.add((rel, line))
        reported = any(r["file"] == Path(rel).name and r["line"] == line for run in those for r in run["reports"])
        clean = bool(those) and all(run["exit"] == 0 and not run["reports"] for run in those)
        verdict = "confirmed" if reported else "refuted" if clean else "open"
        verdicts[(f["severity"], verdict)] += 1
        print(f"  {f['severity']:7} {verdict:9} {rel}:{line} {f['message'][:110]}")
    misses = set()
    for run in runs:
        program = plan.get(run["program"])
        for r in run["reports"]:
            rel = next((f'{program["dir"]}/{s}' for s in program["sources"] if Path(s).name == r["file"]), None) \
                if program else None
            if rel and (rel, r["line"]) not in named:
                misses.add((rel, r["line"], r["kernel"]))
    for rel, line, kernel in sorted(misses):
        print(f"  missed            {rel}:{line} ({kernel}): memcheck reported an invalid global access")
    clean_runs = sum(1 for r in runs if r["exit"] == 0 and not r["reports"])
    reported_runs = sum(1 for r in runs if r["reports"])
    print(f"memcheck at tail sizes: {len(runs)} runs, {clean_runs} clean, {reported_runs} with an invalid global access; "
          f"out-of-bounds findings: " + ", ".join(f"{s} {v} {n}" for (s, v), n in sorted(verdicts.items())) +
          f"; lines memcheck reported that no finding names: {len(misses)}")
    false_errors = verdicts[("error", "refuted")]
    if false_errors > args.max_false_errors:
        print(f"FAIL: {false_errors} errors on lines that run clean under memcheck at tail sizes")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
