#!/usr/bin/env python3
"""Turns compute-sanitizer memcheck reports of the out-of-bounds fixtures into labels (stdlib only).

    bounds_labels.py --raw DIR --out labels.json [--machine FILE]

DIR holds <fixture>.<kernel index>.txt, one memcheck run of one kernel each (measure_on_gpu.sh).
Per kernel: its name (the fixture prints "RAN k name" or "FAULT k name"), whether memcheck
reported an invalid global access, and the source lines it named ("at ... in FILE:LINE").
"""
import argparse
import json
import re
from pathlib import Path

INVALID = re.compile(r"Invalid __global__ (read|write|atomic)")
AT_LINE = re.compile(r"^=+\s+at .*?in (\S+):(\d+)\s*$")
RAN = re.compile(r"^(RAN|FAULT) (\d+) (\S+)")


def label(path):
    name, reported, lines, ran = None, False, set(), False
    for line in path.read_text(errors="replace").splitlines():
        m = RAN.match(line)
        if m:
            name, ran = m.group(3), True
        if INVALID.search(line):
            reported = True
        m = AT_LINE.match(line)
        if m and reported:
            lines.add(int(m.group(2)))
    return name, ran, reported, sorted(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--machine")
    args = ap.parse_args()
    kernels = []
    for path in sorted(Path(args.raw).glob("*.txt"), key=lambda p: (p.name.split(".")[0], int(p.name.split(".")[1]))):
        fixture, index = path.name.split(".")[:2]
        name, ran, reported, lines = label(path)
        kernels.append({"fixture": fixture + ".cu", "index": int(index), "kernel": name,
                        "out_of_bounds": reported if (ran or reported) else None, "lines": lines})
    machine = Path(args.machine).read_text().strip() if args.machine else ""
    Path(args.out).write_text(json.dumps({"machine": machine, "kernels": kernels}, indent=1) + "\n")


if __name__ == "__main__":
    main()
