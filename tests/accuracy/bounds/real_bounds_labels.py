#!/usr/bin/env python3
"""Labels from the memcheck runs of the public programs at tail sizes (stdlib only).

    real_bounds_labels.py --raw DIR --plan PREPARED/plan.json --out labels-real.json

DIR holds real_programs_memcheck_on_gpu.sh's reports, <program>.<run>.txt. Per run: how it ended
(memcheck's exit status; 0 is a run with no report) and each invalid global access memcheck
reported: the kind, the kernel (its name without the parameter list) and the source line, as a
path relative to the program's folder. Runs that did not start (a build that failed, the
deadline) are not listed.
"""
import argparse
import json
import re
from pathlib import Path

INVALID = re.compile(r"Invalid __global__ (read|write|atomic)")
AT = re.compile(r"^=+\s+at (.+?)\+0x[0-9a-f]+ in (\S+):(\d+)\s*$")
EXIT = re.compile(r"^EXIT (\d+)\s*$")


def read_report(path):
    reports, pending, status = [], None, None
    for line in path.read_text(errors="replace").splitlines():
        m = INVALID.search(line)
        if m:
            pending = m.group(1)
            continue
        m = AT.match(line)
        if m and pending:
            kernel = re.sub(r"\(.*$", "", m.group(1)).strip()
            kernel = re.sub(r"^void\s+", "", kernel)
            reports.append({"kind": pending, "kernel": kernel, "file": Path(m.group(2)).name, "line": int(m.group(3))})
            pending = None
        m = EXIT.match(line)
        if m:
            status = int(m.group(1))
    unique = {json.dumps(r, sort_keys=True): r for r in reports}
    return status, list(unique.values())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", required=True)
    ap.add_argument("--plan", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--machine")
    args = ap.parse_args()
    plan = {p["name"]: p for p in json.loads(Path(args.plan).read_text())["programs"]}
    runs = []
    for path in sorted(Path(args.raw).glob("*.txt")):
        name, _, index = path.stem.rpartition(".")
        if name not in plan or not index.isdigit():
            continue
        status, reports = read_report(path)
        program = plan[name]
        runs.append({"program": name, "dir": program["dir"], "run": int(index),
                     "args": program["runs"][int(index)], "exit": status, "reports": reports,
                     **({"tail_sizes": program["tail_sizes"]} if "tail_sizes" in program else {})})
    machine = Path(args.machine).read_text().strip() if args.machine else ""
    Path(args.out).write_text(json.dumps({"machine": machine, "runs": runs}, indent=1) + "\n")
    reported = sum(1 for r in runs if r["reports"])
    print(f"{len(runs)} runs, {reported} with an invalid global access")


if __name__ == "__main__":
    main()
