#!/usr/bin/env python3
"""Turns the raw GPU measurements of the access fixtures into per-line labels (stdlib only).

    ncu_labels.py --fixtures tests/fixtures/access --raw RAW_DIR --out labels.json [--machine FILE]

RAW_DIR is what tests/accuracy/measure_on_gpu.sh leaves behind (also inside access_raw.tar.gz):
  memcheck/<fixture>.txt                 compute-sanitizer memcheck output (and the fixture's RAN/FAULT lines)
  ncu/<fixture>.from<k>.source.csv       ncu --page source --csv --print-source cuda,sass
  ncu/<fixture>.from<k>.stdout           the fixture's output under ncu
  ncu/skipped.txt                        fixtures the time budget left unprofiled

Per fixture file and source line (1-based) the labels are:
  executed            warp-level instructions executed on the line (ncu), summed over kernels
  global_sectors      "L2 Theoretical Sectors Global"
  ideal_sectors       "L2 Theoretical Sectors Global Ideal"
  excessive_sectors   "L2 Theoretical Sectors Global Excessive"
  uncoalesced         excessive_sectors > 0; null when ncu did not see the line execute
  shared_wavefronts   "L1 Wavefronts Shared"
  shared_ideal        "L1 Wavefronts Shared Ideal"
  shared_excessive    "L1 Wavefronts Shared Excessive"
  bank_conflict       shared_excessive > 0; null when ncu did not see the line execute
  misaligned          memcheck reported a misaligned access there; false when the line lies in a
                      kernel that ran to completion under memcheck (the fixture printed "RAN") with
                      no misaligned report; null when unknown (the kernel faulted elsewhere, never
                      ran, or memcheck was not run on the fixture)
"""
import argparse
import csv
import io
import json
import os
import re
import sys
from collections import defaultdict

METRIC_EXCESSIVE = "L2 Theoretical Sectors Global Excessive"
METRIC_IDEAL = "L2 Theoretical Sectors Global Ideal"
METRIC_SECTORS = "L2 Theoretical Sectors Global"
METRIC_EXECUTED = "Warp Instructions Executed"  # also matched loosely, see column_index
METRIC_SHARED = "L1 Wavefronts Shared"
METRIC_SHARED_IDEAL = "L1 Wavefronts Shared Ideal"
METRIC_SHARED_EXCESSIVE = "L1 Wavefronts Shared Excessive"
COUNTERS = ("executed", "global_sectors", "ideal_sectors", "excessive_sectors",
            "shared_wavefronts", "shared_ideal", "shared_excessive")


def empty_counters():
    entry = {k: 0.0 for k in COUNTERS}
    entry["has_metrics"] = False
    return entry


def to_number(text):
    text = (text or "").strip().replace(",", "")
    if text in ("", "-", "n/a", "N/A"):
        return None
    try:
        return float(text)
    except ValueError:
        return None


def column_index(header, wanted):
    """Index of the column named `wanted` (exact, case-insensitive), else None."""
    for i, name in enumerate(header):
        if name.strip().lower() == wanted.lower():
            return i
    return None


def executed_index(header):
    for candidate in ("Warp Instructions Executed", "Instructions Executed", "Inst Executed"):
        i = column_index(header, candidate)
        if i is not None:
            return i
    for i, name in enumerate(header):
        n = name.lower()
        if "instructions executed" in n and "thread" not in n and "predicated" not in n:
            return i
    return None


def split_unescaped_row(raw, width):
    """A row whose Source cell holds unescaped double quotes (ncu writes the source line as is:
    an asm statement's `"l"(ptr)` then splits into extra cells and shifts every metric). Every
    other cell is a quoted value without quotes inside, so the row is split from the right:
    the first cell, then the source text, then width - 2 cells. None when that does not fit."""
    raw = raw.strip()
    if len(raw) < 2 or not (raw.startswith('"') and raw.endswith('"')):
        return None
    first, sep, rest = raw[1:-1].partition('","')
    if not sep:
        return None
    cells = rest.rsplit('","', width - 2)
    if len(cells) != width - 1:
        return None
    return [first] + cells


def parse_source_csv(text, fixture_base):
    """Per-line sums from one `--page source --csv --print-source cuda,sass` export.

    The export lists, for each profiled kernel, the CUDA source lines (first column a line number)
    and, with `sass`, the instructions (first column an address). Lines of other files (headers)
    are told apart by "File"/"Path" marker rows when ncu writes them; otherwise every row is taken
    to belong to the fixture. SASS rows add into the CUDA line above them only when the CUDA row
    itself carries no value for a metric.
    """
    lines = defaultdict(empty_counters)
    header = None
    idx = {}
    current_file_ok = True
    current_line = None
    line_row_has = {}
    for raw in text.splitlines():
        row = next(csv.reader([raw]), [])
        if not row:
            continue
        if header is not None and len(row) != len(header):
            row = split_unescaped_row(raw, len(header)) or row
        first = row[0].strip()
        joined = ",".join(row)
        if len(row) <= 2 and ("File" in first or "Path" in first or first.endswith((".cu", ".cuh", ".h"))):
            # ncu 2025 writes `"File Path","/abs/path.cu"`; older exports put "File: path" in one cell.
            if len(row) == 2 and first.lower() in ("file path", "file", "path"):
                path = row[1]
            else:
                path = joined.split(":", 1)[-1].strip() if ":" in joined else first
            current_file_ok = os.path.basename(path.strip().strip('"')) == fixture_base or not path.strip()
            continue
        if any(METRIC_SECTORS.lower() == c.strip().lower() for c in row) or (
                "Source" in [c.strip() for c in row] and any(c.strip().startswith(("#", "Line", "Address")) for c in row[:2])):
            header = row
            idx = {
                "excessive_sectors": column_index(header, METRIC_EXCESSIVE),
                "ideal_sectors": column_index(header, METRIC_IDEAL),
                "global_sectors": column_index(header, METRIC_SECTORS),
                "executed": executed_index(header),
                "shared_wavefronts": column_index(header, METRIC_SHARED),
                "shared_ideal": column_index(header, METRIC_SHARED_IDEAL),
                "shared_excessive": column_index(header, METRIC_SHARED_EXCESSIVE),
            }
            continue
        if header is None or not current_file_ok:
            continue
        is_line = re.fullmatch(r"\d+", first) is not None
        is_sass = re.fullmatch(r"(0x)?[0-9a-fA-F]+", first) is not None and not is_line
        if header and "address" in header[0].strip().lower() and re.fullmatch(r"\d+", first):
            # A SASS-only table whose addresses happen to be decimal.
            is_line, is_sass = False, True
        if is_line:
            current_line = int(first)
            entry = lines[current_line]
            seen = set()
            for key, col in idx.items():
                if col is None or col >= len(row):
                    continue
                v = to_number(row[col])
                if v is None:
                    continue
                entry[key] += v
                entry["has_metrics"] = True
                seen.add(key)
            line_row_has[current_line] = seen
        elif is_sass and current_line is not None:
            entry = lines[current_line]
            for key, col in idx.items():
                if col is None or col >= len(row) or key in line_row_has.get(current_line, set()):
                    continue
                v = to_number(row[col])
                if v is None:
                    continue
                entry[key] += v
                entry["has_metrics"] = True
    return lines


def parse_memcheck(text, fixture_base):
    """(misaligned lines, functions with any error, whether the run completed)."""
    misaligned = set()
    faulting_functions = set()
    blocks = []
    current = []
    for raw in text.splitlines():
        if not raw.startswith("========="):
            continue
        body = raw[len("========="):]
        if body.strip() == "":
            if current:
                blocks.append(current)
            current = []
            continue
        if re.match(r"\s*(Invalid|Misaligned|Program hit|Out-of-range|Warp|Lane|Error)", body) and current:
            blocks.append(current)
            current = []
        current.append(body)
    if current:
        blocks.append(current)
    for block in blocks:
        head = block[0]
        if not re.search(r"Invalid|Misaligned|misaligned", " ".join(block)):
            continue
        is_misaligned = any("misaligned" in b.lower() for b in block)
        location = None
        function = None
        for b in block:
            m = re.search(r"\bat\s+(.*?)\s+in\s+(\S+?):(\d+)", b)
            if not m:
                continue
            where, path, line = m.group(1), m.group(2), int(m.group(3))
            if os.path.basename(path) != fixture_base:
                continue
            location = line
            fm = re.match(r"([A-Za-z_][\w:<>, ]*?)\(", where)
            if fm:
                function = fm.group(1).split("<")[0].split("::")[-1]
            else:
                tail = re.search(rf"{re.escape(path)}:{line}:([A-Za-z_]\w*)", b)
                if tail:
                    function = tail.group(1)
            break
        if location is None:
            continue
        if function:
            faulting_functions.add(function)
        if is_misaligned:
            misaligned.add(location)
    completed = "ERROR SUMMARY" in text
    return misaligned, faulting_functions, completed


def kernel_ranges(source):
    """Line ranges (1-based, inclusive) of the __global__ functions' bodies, by name."""
    ranges = {}
    for m in re.finditer(r"__global__[^;{]*?\b([A-Za-z_]\w*)\s*\(", source):
        name = m.group(1)
        brace = source.find("{", m.end())
        if brace < 0:
            continue
        depth = 0
        end = brace
        for i in range(brace, len(source)):
            if source[i] == "{":
                depth += 1
            elif source[i] == "}":
                depth -= 1
                if depth == 0:
                    end = i
                    break
        start_line = source.count("\n", 0, m.start()) + 1
        end_line = source.count("\n", 0, end) + 1
        ranges.setdefault(name, []).append((start_line, end_line))
    return ranges


def kernel_of(run_name, ranges):
    """The kernel a fixture's run name refers to: `k<1024>` -> k, `k_even` -> k (longest prefix)."""
    base = run_name.split("<")[0]
    if base in ranges:
        return base
    prefixes = [k for k in ranges if base.startswith(k)]
    return max(prefixes, key=len) if prefixes else base


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--raw", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--machine", default=None)
    args = ap.parse_args()

    skipped = set()
    skipped_path = os.path.join(args.raw, "ncu", "skipped.txt")
    if os.path.exists(skipped_path):
        for line in open(skipped_path):
            if line.strip():
                skipped.add(line.split()[0])

    result = {"machine": open(args.machine).read().strip() if args.machine and os.path.exists(args.machine) else "",
              "files": {}}
    summary = []
    for name in sorted(os.listdir(args.fixtures)):
        if not name.endswith(".cu"):
            continue
        stem = name[:-3]
        source = open(os.path.join(args.fixtures, name)).read()
        ranges = kernel_ranges(source)
        per_line = defaultdict(empty_counters)
        ncu_dir = os.path.join(args.raw, "ncu")
        reports = sorted(f for f in os.listdir(ncu_dir) if f.startswith(stem + ".from") and f.endswith(".source.csv")) \
            if os.path.isdir(ncu_dir) else []
        for report in reports:
            text = open(os.path.join(ncu_dir, report), errors="replace").read()
            for line, v in parse_source_csv(text, name).items():
                for k in COUNTERS:
                    per_line[line][k] += v[k]
                per_line[line]["has_metrics"] |= v["has_metrics"]

        memcheck_path = os.path.join(args.raw, "memcheck", stem + ".txt")
        memcheck_text = open(memcheck_path, errors="replace").read() if os.path.exists(memcheck_path) else ""
        misaligned, faulting, completed = parse_memcheck(memcheck_text, name)
        ran = set()
        for m in re.finditer(r"^RAN \d+ (\S+)", memcheck_text, re.M):
            ran.add(kernel_of(m.group(1), ranges))
        for m in re.finditer(r"^FAULT \d+ (\S+?):", memcheck_text, re.M):
            faulting.add(kernel_of(m.group(1), ranges))
        clean_lines = set()
        for fn in ran - faulting:
            for (a, b) in ranges.get(fn, []):
                clean_lines.update(range(a, b + 1))
        if completed and not misaligned:
            inside = set()
            for spans in ranges.values():
                for (a, b) in spans:
                    inside.update(range(a, b + 1))
            clean_lines.update(set(range(1, source.count("\n") + 2)) - inside)

        labels = {}
        for line in sorted(set(per_line) | misaligned | clean_lines):
            v = per_line.get(line)
            executed = v["executed"] if v else 0.0
            sectors = v["global_sectors"] if v else 0.0
            measured = v is not None and v["has_metrics"] and (executed > 0 or sectors > 0)
            entry = {
                "executed": int(executed),
                "global_sectors": int(sectors),
                "ideal_sectors": int(v["ideal_sectors"]) if v else 0,
                "excessive_sectors": int(v["excessive_sectors"]) if v else 0,
                "uncoalesced": (v["excessive_sectors"] > 0) if measured else None,
                "shared_wavefronts": int(v["shared_wavefronts"]) if v else 0,
                "shared_ideal": int(v["shared_ideal"]) if v else 0,
                "shared_excessive": int(v["shared_excessive"]) if v else 0,
                "bank_conflict": (v["shared_excessive"] > 0) if measured else None,
            }
            if line in misaligned:
                entry["misaligned"] = True
            elif line in clean_lines:
                entry["misaligned"] = False
            else:
                entry["misaligned"] = None
            if entry["uncoalesced"] is None and entry["misaligned"] is None:
                continue
            labels[str(line)] = entry
        result["files"][name] = {
            "lines": labels,
            "memcheck_completed": completed,
            "memcheck_faulting_kernels": sorted(faulting),
            "ncu_reports": len(reports),
            "ncu_skipped": stem in skipped,
        }
        n_unc = sum(1 for e in labels.values() if e["uncoalesced"])
        n_mis = sum(1 for e in labels.values() if e["misaligned"])
        n_bank = sum(1 for e in labels.values() if e["bank_conflict"])
        summary.append(f"{name:28s} lines={len(labels):3d} uncoalesced={n_unc:3d} misaligned={n_mis:2d} bank={n_bank:2d}"
                       f" reports={len(reports)} memcheck={'ok' if completed else 'MISSING'}"
                       + (" SKIPPED" if stem in skipped else ""))
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    print("\n".join(summary))
    total = sum(len(v["lines"]) for v in result["files"].values())
    print(f"labels: {total} lines in {len(result['files'])} fixtures -> {args.out}")


if __name__ == "__main__":
    sys.exit(main())
