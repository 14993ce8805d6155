#!/usr/bin/env python3
"""Turns the raw GPU measurements of the real programs into labels (stdlib only).

    label.py --raw RAW_DIR [--raw RAW_DIR2 ...] --out labels.json

RAW_DIR is what measure_on_gpu.sh leaves (also inside real_raw.tar.gz): plan.json, machine.txt,
ncu/<program>.<run>.source.csv (`ncu -i --page source --csv --print-source cuda,sass`),
ncu/<program>.<run>.stdout, memcheck/<program>.<run>.txt. Several RAW_DIRs (runs split over
device calls) are merged; a run present twice keeps its larger export.

The export has one block per (file, kernel): a "File Path" row, a "Function Name" row, a header,
then CUDA source rows (first cell the line number, the metrics summed over the line's SASS) and
SASS rows (first cell empty), which are skipped. Per kernel (program + function name, summed over
the runs that profiled it) and per source line the labels keep:
  sectors            "L2 Theoretical Sectors Global"
  ideal              "L2 Theoretical Sectors Global Ideal"
  excessive          "L2 Theoretical Sectors Global Excessive"
  shared, shared_ideal, shared_excessive   "L1 Wavefronts Shared" (Ideal, Excessive)
and the verdict, by the rule's own threshold (waste = excessive / ideal; the same thresholds for
bank_conflict, from the shared wavefronts):
  uncoalesced = true   waste >= 1/8 (the rule reports from one-eighth extra traffic up)
  uncoalesced = false  waste < 1/32
  uncoalesced = null   in between: neither side claims it, the scorer leaves it out
A kernel is uncoalesced when one of its lines is and that line carries at least 2 % of the
kernel's sectors; it is coalesced when none is and the whole kernel wastes less than 1/32.
Lines in CUDA's own headers (cuda_bf16.hpp, where nvcc puts the load of a bf16 conversion) count
for their kernel only; the per-line labels are those of the programs' own files.
A run that ended without "misaligned address" in its output and with no memcheck report of a
misaligned access ran clean for the alignment rule.
Programs, kernels and lines keep the plan's `set` ("first" when absent); the summary counts per set.
"""
import argparse
import csv
import io
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

EXCESSIVE = "L2 Theoretical Sectors Global Excessive"
IDEAL = "L2 Theoretical Sectors Global Ideal"
SECTORS = "L2 Theoretical Sectors Global"
SHARED = "L1 Wavefronts Shared"
SHARED_IDEAL = "L1 Wavefronts Shared Ideal"
SHARED_EXCESSIVE = "L1 Wavefronts Shared Excessive"
METRICS = (SECTORS, IDEAL, EXCESSIVE, SHARED, SHARED_IDEAL, SHARED_EXCESSIVE)
POSITIVE, NEGATIVE, KERNEL_SHARE = 1 / 8, 1 / 32, 0.02


def number(text):
    text = (text or "").strip().replace(",", "")
    try:
        return float(text)
    except ValueError:
        return 0.0


def kernel_base_name(function):
    """`void ns::k<float, 4>(float *, int)` -> `k`: the name the source spells at its definition."""
    head = function.split("(", 1)[0]
    depth, out = 0, []
    for ch in head:  # drop template arguments, which may nest
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return re.split(r"[\s:]+", "".join(out).strip())[-1]


def parse_source_export(text):
    """(file, function) -> line -> [sectors, ideal, excessive, shared, shared ideal, shared excessive]."""
    blocks = defaultdict(lambda: defaultdict(lambda: [0.0] * len(METRICS)))
    path = function = None
    cols = None
    for row in csv.reader(io.StringIO(text)):
        if not row:
            continue
        if row[0] == "File Path" and len(row) >= 2:
            path, cols = row[1], None
            continue
        if row[0] == "Function Name" and len(row) >= 2:
            function = row[1]
            continue
        if row[0] == "Line No":
            names = [c.strip() for c in row]
            cols = tuple(names.index(n) if n in names else None for n in METRICS)
            continue
        if cols is None or not re.fullmatch(r"\d+", row[0].strip()):
            continue
        entry = blocks[(path, function)][int(row[0])]
        for k, col in enumerate(cols):
            if col is not None and col < len(row):
                entry[k] += number(row[col])
    return blocks


def verdict(excessive, ideal):
    if ideal <= 0:
        return None if excessive > 0 else False
    waste = excessive / ideal
    return True if waste >= POSITIVE else False if waste < NEGATIVE else None


def collect_runs(raw_dirs):
    """(program, run) -> (raw dir, stem): the larger export wins where a run was measured twice."""
    runs = {}
    for raw in raw_dirs:
        for csv_path in sorted((raw / "ncu").glob("*.source.csv")):
            stem = csv_path.name[: -len(".source.csv")]
            program, run = stem.rsplit(".", 1)
            size = csv_path.stat().st_size
            if size and (stem not in runs or runs[stem][2] < size):
                runs[stem] = (raw, stem, size)
    return runs


def run_alignment(raw, stem):
    stdout = (raw / "ncu" / f"{stem}.stdout").read_text(errors="replace")
    memcheck = raw / "memcheck" / f"{stem}.txt"
    text = stdout + (memcheck.read_text(errors="replace") if memcheck.exists() else "")
    faulted = "misaligned address" in text.lower() or re.search(r"Invalid __global__ .* is misaligned", text) is not None
    return {"misaligned_fault": faulted, "memcheck": memcheck.exists()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--raw", action="append", required=True)
    parser.add_argument("--src", help="the folder the programs were built in (build-real/src)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    raws = [Path(r) for r in args.raw]
    plan = {p["name"]: p for p in json.loads((raws[0] / "plan.json").read_text())["programs"]}
    kernels = {}
    lines = defaultdict(lambda: [0.0] * len(METRICS))
    line_set = {}
    alignment = {}
    for stem, (raw, _, _) in sorted(collect_runs(raws).items()):
        program = stem.rsplit(".", 1)[0]
        root = "/" + plan[program]["dir"] + "/"
        alignment[stem] = run_alignment(raw, stem)
        for (path, function), per_line in parse_source_export((raw / "ncu" / f"{stem}.source.csv").read_text(errors="replace")).items():
            own = root in (path or "")
            rel = plan[program]["dir"] + "/" + path.split(root, 1)[1] if own else path
            key = f"{program}::{kernel_base_name(function or '?')}"
            k = kernels.setdefault(key, {"program": program, "kernel": kernel_base_name(function or "?"),
                                         "set": plan[program].get("set", "first"),
                                         "functions": set(), "runs": set(), "sectors": 0.0, "ideal": 0.0,
                                         "excessive": 0.0, "shared": 0.0, "shared_ideal": 0.0, "shared_excessive": 0.0,
                                         "lines": defaultdict(lambda: [0.0] * len(METRICS))})
            k["functions"].add(function)
            k["runs"].add(stem)
            for line, values in per_line.items():
                if not any(v > 0 for v in values):
                    continue
                for name, v in zip(("sectors", "ideal", "excessive", "shared", "shared_ideal", "shared_excessive"), values):
                    k[name] += v
                slot = k["lines"][(rel, line, own)]
                for i, v in enumerate(values):
                    slot[i] += v
                if own:
                    cell = lines[(rel, line)]
                    line_set[(rel, line)] = plan[program].get("set", "first")
                    for i, v in enumerate(values):
                        cell[i] += v
    out_kernels = []
    for key, k in sorted(kernels.items()):
        heavy = [(where, v) for where, v in k["lines"].items() if k["sectors"] and v[0] >= KERNEL_SHARE * k["sectors"]]
        positive_lines = [f"{w[0]}:{w[1]}" for w, v in heavy if verdict(v[2], v[1]) is True]
        whole = verdict(k["excessive"], k["ideal"])
        label = True if positive_lines else (False if k["ideal"] and k["excessive"] / k["ideal"] < NEGATIVE else None)
        # The same for shared memory: a line with at least 2 % of the kernel's wavefronts wasting
        # an eighth makes the kernel bank-conflicted; none, and a kernel wasting under 1/32, clean.
        heavy_shared = [(where, v) for where, v in k["lines"].items()
                        if k["shared"] and v[3] >= KERNEL_SHARE * k["shared"]]
        bank_lines = [f"{w[0]}:{w[1]}" for w, v in heavy_shared if verdict(v[5], v[4]) is True]
        bank = None if not k["shared"] else True if bank_lines else (
            False if k["shared_ideal"] and k["shared_excessive"] / k["shared_ideal"] < NEGATIVE else None)
        out_kernels.append({
            "program": k["program"], "kernel": k["kernel"], "set": k["set"], "functions": sorted(k["functions"]),
            "runs": sorted(k["runs"]), "sectors": k["sectors"], "ideal": k["ideal"], "excessive": k["excessive"],
            "waste": round(k["excessive"] / k["ideal"], 4) if k["ideal"] else None,
            "uncoalesced": label, "uncoalesced_lines": positive_lines,
            "header_lines": [f"{w[0]}:{w[1]}" for w, v in heavy if not w[2] and verdict(v[2], v[1])],
            "whole_kernel_verdict": whole,
            "shared": k["shared"], "shared_ideal": k["shared_ideal"], "shared_excessive": k["shared_excessive"],
            "bank_conflict": bank, "bank_conflict_lines": bank_lines,
        })
    out_lines = [{"file": f, "line": n, "set": line_set[(f, n)], "sectors": v[0], "ideal": v[1], "excessive": v[2],
                  "uncoalesced": verdict(v[2], v[1]) if v[0] > 0 or v[2] > 0 else None,
                  "shared": v[3], "shared_ideal": v[4], "shared_excessive": v[5],
                  "bank_conflict": verdict(v[5], v[4]) if v[3] > 0 or v[5] > 0 else None}
                 for (f, n), v in sorted(lines.items())]
    machine = (raws[0] / "machine.txt").read_text().strip() if (raws[0] / "machine.txt").exists() else ""
    result = {
        "about": "GPU labels of the real programs in programs.json; see label.py for the definitions",
        "machine": machine,
        "programs": [dict({k: plan[p][k] for k in ("name", "repo", "commit", "dir", "sources", "build", "runs")},
                          set=plan[p].get("set", "first")) for p in sorted(plan)],
        "thresholds": {"positive_waste": POSITIVE, "negative_waste": NEGATIVE, "kernel_line_share": KERNEL_SHARE},
        "kernels": out_kernels, "lines": out_lines, "runs": alignment,
    }
    Path(args.out).write_text(json.dumps(result, indent=1))
    run_set = {stem: plan[stem.rsplit(".", 1)[0]].get("set", "first") for stem in alignment}
    for name in sorted(set(run_set.values())) + (["total"] if len(set(run_set.values())) > 1 else []):
        ks = [k for k in out_kernels if name in ("total", k["set"])]
        ls = [l for l in out_lines if name in ("total", l["set"]) and l["uncoalesced"] is not None]
        runs = [a for stem, a in alignment.items() if name in ("total", run_set[stem])]
        pos = sum(1 for k in ks if k["uncoalesced"] is True)
        neg = sum(1 for k in ks if k["uncoalesced"] is False)
        lp = sum(1 for l in ls if l["uncoalesced"] is True)
        ln = sum(1 for l in ls if l["uncoalesced"] is False)
        faults = sum(1 for a in runs if a["misaligned_fault"])
        bank_pos = sum(1 for k in ks if k["bank_conflict"] is True)
        bank_neg = sum(1 for k in ks if k["bank_conflict"] is False)
        print(f"{name if name == 'total' else name + ' set'}: kernels: {len(ks)} ({pos} uncoalesced, {neg} coalesced, {len(ks) - pos - neg} in between); "
              f"lines with global traffic: {len(ls)} ({lp} uncoalesced, {ln} coalesced); "
              f"runs: {len(runs)}, misaligned faults: {faults}; "
              f"kernels using shared memory: {bank_pos} bank-conflicted, {bank_neg} clean", file=sys.stderr)


if __name__ == "__main__":
    main()
