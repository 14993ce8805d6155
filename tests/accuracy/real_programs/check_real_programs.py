#!/usr/bin/env python3
"""Scores the access rules against the GPU labels of the real programs (stdlib only).

    check_real_programs.py --binary build/cli/kernel-lsp [--src build-real/src]
                           [--labels tests/accuracy/real_programs/labels.json ...] [--json OUT]
                           [--rule uncoalesced-access | bank-conflict]

The programs' sources are not in the repository: prepare.py copies them out of the corpus into
build-real/src (run it first). Each program's .cu files are linted from inside its folder
(`lint --format json --arch 9.0` with the program's -I/-D flags), then compared:
  per kernel   the linter flags a kernel when a finding of the rule (uncoalesced-access unless
               --rule says bank-conflict, scored against the shared-wavefront labels), or one of its
               "called from" notes, lies in the kernel's body; truth is the kernel's label
  per line     a labelled line of the program's own files is flagged when a finding or one of its
               "called from" notes sits on it; scored over every labelled line and over the
               attributable ones, whose text performs a memory access (a subscript, `->`, a
               dereference, a load/store/atomic call): ncu also charges loads to lines that only
               use the value (a loop header, an `if`), which no linter can point at
  alignment    a misaligned-access error in a program whose runs all ran clean is a false error
Labels that are null (waste between 1/32 and 1/8) are left out and counted.
Each program belongs to a set (its `set` in programs.json, "first" when absent): the scores are
given per set and in total (the total is what the gates check). --labels may be given more than
once (e.g. the labels of each set, measured in separate device calls); the files are merged.
Exit status: 0; 1 under --min-kernel-precision / --min-kernel-recall or with a misaligned-access
error on a clean program; 77 when the sources are missing (not prepared: nothing was scored).
"""
import argparse
import json
import re
import shlex
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The rules scored, and the label key that holds each one's truth (label.py).
TRUTH_OF_RULE = {"uncoalesced-access": "uncoalesced", "bank-conflict": "bank_conflict"}


def body_ranges(text, name):
    """(first, last) 1-based lines of every __global__ definition of `name` in `text`."""
    ranges = []
    for m in re.finditer(r"__global__[^;{]*?\b" + re.escape(name) + r"\s*\(", text):
        brace = text.find("{", m.end())
        semi = text.find(";", m.end())
        if brace < 0 or (0 <= semi < brace and ")" in text[m.end():semi]):
            continue  # a declaration
        depth, i = 0, brace
        while i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        ranges.append((text.count("\n", 0, m.start()) + 1, text.count("\n", 0, i) + 1))
    return ranges


def lint(binary, folder, program):
    flags = [a for a in shlex.split(program["build"]) if a.startswith(("-I", "-D"))]
    files = [s for s in program["sources"] if s.endswith((".cu", ".cuh"))]
    cmd = [binary, "lint", "--no-cache", "--format", "json", "--arch", "9.0", "-j", "2"] + \
          [x for f in flags for x in ("--extra-flag", f)] + files
    run = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, timeout=900)
    if not run.stdout.strip():
        raise RuntimeError(f"{program['name']}: no output from {' '.join(cmd)}: {run.stderr[-500:]}")
    return json.loads(run.stdout)


def where(finding_file, folder, rel_dir):
    """A finding's file as the labels name it (`project/dir/file`), or the absolute path."""
    path = Path(finding_file)
    if not path.is_absolute():
        path = folder / path
    try:
        return rel_dir + "/" + str(path.resolve().relative_to(folder.resolve()))
    except ValueError:
        return str(path)


ACCESS_TEXT = re.compile(r"\[|->|(^|[=(,\s])\*\s*\w|\b(__ld\w*|__st\w*|atomic\w*|load128\w*|store128\w*|st_vec|ld_vec)\s*\(")


def attributable(src, label):
    """Does the labelled line's own text access memory?"""
    path = src / label["file"]
    if not path.exists():
        return False
    lines = path.read_text(errors="replace").splitlines()
    if label["line"] > len(lines):
        return False
    code = lines[label["line"] - 1].split("//", 1)[0]
    return ACCESS_TEXT.search(code) is not None


def ratio(a, b):
    return round(a / b, 3) if b else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--src", default=str(HERE.parents[2] / "build-real" / "src"))
    parser.add_argument("--labels", action="append",
                        help="a labels file (default: the committed labels.json and labels-second.json); repeatable")
    parser.add_argument("--rule", choices=sorted(TRUTH_OF_RULE), default="uncoalesced-access")
    parser.add_argument("--json")
    parser.add_argument("--min-kernel-precision", type=float, default=0.0)
    parser.add_argument("--min-kernel-recall", type=float, default=0.0)
    args = parser.parse_args()
    labels = {"programs": [], "kernels": [], "lines": [], "runs": {}}
    for path in args.labels or [str(HERE / "labels.json"), str(HERE / "labels-second.json")]:
        part = json.loads(Path(path).read_text())
        for key in ("programs", "kernels", "lines"):
            labels[key] += part[key]
        labels["runs"].update(part["runs"])
    src = Path(args.src)
    if not src.is_dir():
        print(f"skipped: {src} is missing (run tests/accuracy/real_programs/prepare.py)", file=sys.stderr)
        return 77
    programs = {p["name"]: p for p in labels["programs"]}
    set_of = {name: p.get("set", "first") for name, p in programs.items()}
    set_of_dir = {p["dir"]: set_of[name] for name, p in programs.items()}
    kernels_of = defaultdict(list)
    for k in labels["kernels"]:
        kernels_of[k["program"]].append(k)
    truth = TRUTH_OF_RULE[args.rule]
    flagged_lines = set()          # (file, line) with a finding of the rule
    kernel_rows, false_errors, warnings = [], [], 0
    for name, program in sorted(programs.items()):
        if name not in kernels_of:
            continue
        folder = src / program["dir"]
        report = lint(args.binary, folder, program)
        findings = [f for f in report["findings"] if f["rule"] == args.rule]
        spots = []
        for f in findings:
            places = [(where(f["file"], folder, program["dir"]), f["line"])]
            places += [(where(n["file"], folder, program["dir"]), n["line"]) for n in f.get("notes", []) if n.get("file")]
            spots.append(places)
            # The finding's line, and the call sites its notes name: nvcc attributes an inlined
            # helper's access to the line that calls it as often as to the helper's own line.
            flagged_lines.update(places)
        clean = all(not labels["runs"][r]["misaligned_fault"] for k in kernels_of[name] for r in k["runs"])
        for f in report["findings"]:
            if f["rule"] == "misaligned-access":
                if f["severity"] == "error" and clean:
                    false_errors.append(f"{program['dir']}/{f['file']}:{f['line']}: {f['message'][:120]}")
                warnings += f["severity"] == "warning"
        texts = {}
        for path in folder.rglob("*"):
            if path.suffix in (".cu", ".cuh", ".h") and path.is_file():
                texts[program["dir"] + "/" + str(path.relative_to(folder))] = path.read_text(errors="replace")
        for k in kernels_of[name]:
            ranges = [(file, r) for file, text in texts.items() for r in body_ranges(text, k["kernel"])]
            hit = any(file == f and r[0] <= line <= r[1] for places in spots for (f, line) in places for file, r in ranges)
            kernel_rows.append({"program": name, "set": set_of[name], "kernel": k["kernel"], "truth": k.get(truth), "flagged": hit,
                                "found_in_source": bool(ranges), "waste": k["waste"]})
    def score(rows):
        tp = sum(1 for r in rows if r["truth"] is True and r["flagged"])
        fp = sum(1 for r in rows if r["truth"] is False and r["flagged"])
        fn = sum(1 for r in rows if r["truth"] is True and not r["flagged"])
        return {"tp": tp, "fp": fp, "fn": fn, "precision": ratio(tp, tp + fp), "recall": ratio(tp, tp + fn),
                "left_out": sum(1 for r in rows if r["truth"] is None)}
    def line_set(label):
        if "set" in label:
            return label["set"]
        dirs = [d for d in set_of_dir if label["file"].startswith(d + "/")]
        return set_of_dir[max(dirs, key=len)] if dirs else "first"
    line_rows = [{"truth": l.get(truth), "flagged": (l["file"], l["line"]) in flagged_lines, "set": line_set(l),
                  "file": l["file"], "line": l["line"], "attributable": attributable(src, l)} for l in labels["lines"]]
    sets = sorted({r["set"] for r in kernel_rows + line_rows})
    per_set = {s: {"kernels": score([r for r in kernel_rows if r["set"] == s]),
                   "lines": score([r for r in line_rows if r["set"] == s]),
                   "attributable_lines": score([r for r in line_rows if r["set"] == s and r["attributable"]])}
               for s in sets}
    result = {"kernels": score(kernel_rows), "lines": score(line_rows),
              "attributable_lines": score([r for r in line_rows if r["attributable"]]), "sets": per_set,
              "misaligned_errors_on_clean_programs": false_errors, "misaligned_warnings": warnings,
              "kernel_rows": kernel_rows,
              "missed_lines": [f'{r["file"]}:{r["line"]}' + ("" if r["attributable"] else " (not attributable)")
                               for r in line_rows if r["truth"] is True and not r["flagged"]],
              "false_lines": [f'{r["file"]}:{r["line"]}' for r in line_rows if r["truth"] is False and r["flagged"]]}
    k, l = result["kernels"], result["lines"]
    print(f"{args.rule}:")
    print(f"per kernel: precision {k['precision']} recall {k['recall']} (tp {k['tp']} fp {k['fp']} fn {k['fn']}, {k['left_out']} left out)")
    print(f"per line:   precision {l['precision']} recall {l['recall']} (tp {l['tp']} fp {l['fp']} fn {l['fn']}, {l['left_out']} left out)")
    a = result["attributable_lines"]
    print(f"attributable lines: precision {a['precision']} recall {a['recall']} (tp {a['tp']} fp {a['fp']} fn {a['fn']})")
    if len(sets) > 1:
        for s in sets:
            k, l, a = per_set[s]["kernels"], per_set[s]["lines"], per_set[s]["attributable_lines"]
            print(f"{s} set: per kernel {k['precision']} / {k['recall']} (tp {k['tp']} fp {k['fp']} fn {k['fn']}, {k['left_out']} left out); "
                  f"per line {l['precision']} / {l['recall']} (tp {l['tp']} fp {l['fp']} fn {l['fn']}); "
                  f"attributable lines {a['precision']} / {a['recall']}")
        k = result["kernels"]
    print(f"misaligned-access errors on programs that ran clean: {len(false_errors)}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    if (k["precision"] or 0) < args.min_kernel_precision or (k["recall"] or 0) < args.min_kernel_recall or false_errors:
        print(f"FAIL: per-kernel precision/recall under {args.min_kernel_precision}/{args.min_kernel_recall}, "
              f"or misaligned-access errors on programs that ran clean", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
