#!/usr/bin/env python3
"""Per-kernel labels for shared-race and divergent-barrier from compute-sanitizer's raw outputs.

    sync_labels.py --raw RAW_DIR [--raw RAW_DIR ...] [--log MEASURE_LOG ...] --out labels.json

Each RAW_DIR holds raw/fixtures/<fixture>.<k>.<tool>.txt and raw/programs/<program>.<run>.<tool>.txt
(tests/accuracy/sync/measure_on_gpu.sh); later ones win. A fixture kernel is racy when racecheck
reported a race in its process, divergent when synccheck reported a barrier error; the source lines
reported are kept. A program counts only reports at a line of its own sources: races inside
cuBLAS's kernels (no source line) are the library's, not the program's. Programs whose raw output
did not come back are labelled from the measure logs' report counts ("NAME RUN TOOL: N reports"):
clean when every run reported 0. A run may be a driver (tests/accuracy/sync/drivers/) that calls
some of the program's kernels on their own, for kernels its own runs never reach under a tool.
"""
import argparse, glob, json, os, re

LINE = re.compile(r"in ([^\s:]+\.cuh?):(\d+)")


def parse(path, own_lines_only=False):
    text = open(path, errors="replace").read()
    blocks = re.split(r"\n=========\s*\n", text)
    if own_lines_only:
        blocks = [b for b in blocks if LINE.search(b)]
    text = "\n\n".join(blocks)
    races = [m for m in re.finditer(r"(Error|Warning): Race reported", text)]
    barriers = re.findall(r"Barrier error detected", text)
    kernel = re.search(r"^RAN \d+ (\S+)", text, re.M)
    lines = sorted({int(m.group(2)) for m in LINE.finditer(text)})
    return {"reports": len(races) + len(barriers), "kernel": kernel.group(1) if kernel else None,
            "severities": sorted({m.group(1) for m in races}), "lines": lines}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", action="append", required=True)
    ap.add_argument("--log", action="append", default=[])
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    fixtures, programs = {}, {}
    for log in args.log:
        for m in re.finditer(r"\] (\S+) (\d+) (racecheck|synccheck): (\d+) reports", open(log).read()):
            name, tool, n = m.group(1), m.group(3), int(m.group(4))
            key = "race" if tool == "racecheck" else "divergent"
            entry = programs.setdefault(name, {"race": False, "divergent": False, "runs": 0, "from": "log"})
            entry[key] = entry[key] or n > 0
            entry["runs"] += 1
    raw_programs = {}
    for raw in args.raw:
        for path in sorted(glob.glob(os.path.join(raw, "raw/programs/*.txt"))):
            name, run, tool = os.path.basename(path)[:-4].rsplit(".", 2)
            p = parse(path, own_lines_only=True)
            entry = raw_programs.setdefault(name, {"race": False, "divergent": False, "runs": 0, "from": "raw", "lines": []})
            key = "race" if tool == "racecheck" else "divergent"
            entry[key] = entry[key] or p["reports"] > 0
            entry["lines"] = sorted(set(entry["lines"]) | set(p["lines"] if p["reports"] else []))
            entry["runs"] += 1
    programs.update(raw_programs)
    for path in sorted(p for raw in args.raw for p in glob.glob(os.path.join(raw, "raw/fixtures/*.txt"))):
        fixture, k, tool = os.path.basename(path)[:-4].rsplit(".", 2)
        p = parse(path)
        entry = fixtures.setdefault(fixture, {}).setdefault(int(k), {"kernel": p["kernel"]})
        entry["kernel"] = entry["kernel"] or p["kernel"]
        key = "race" if tool == "racecheck" else "divergent"
        entry[key] = p["reports"] > 0
        entry[key + "_lines"] = p["lines"] if p["reports"] else []
    out = {"about": "compute-sanitizer racecheck (race) and synccheck (divergent) per fixture kernel "
                    "(`./fx N`) and per public program (first launches of each run)",
           "fixtures": {f: {str(k): v for k, v in sorted(ks.items())} for f, ks in fixtures.items()},
           "programs": programs}
    json.dump(out, open(args.out, "w"), indent=1, sort_keys=True)
    print(f"{sum(len(v) for v in fixtures.values())} fixture kernels, {len(programs)} programs -> {args.out}")


if __name__ == "__main__":
    main()
