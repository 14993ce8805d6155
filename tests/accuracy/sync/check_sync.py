#!/usr/bin/env python3
"""shared-race and divergent-barrier against compute-sanitizer's labels (tests/accuracy/sync/labels.json).

    check_sync.py --kernel-lsp BIN [--real-src build-real/src]

Per fixture kernel (tests/fixtures/sync/): a finding belongs to the kernel whose body holds it, or
to the kernel its message names ("(in k)") when it is in a helper. Per public program (when its
sources are present): any finding of the rule in its sources. The gate: no error of either rule on
a fixture kernel that runs clean under racecheck / synccheck. The programs were run for their first
launches only, so an error on one that ran clean is listed for reading, not failed. Recall (findings of
any severity on the labelled bugs) is printed, not gated.
"""
import argparse, json, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
RULES = {"shared-race": "race", "divergent-barrier": "divergent"}


def lint(binary, files):
    r = subprocess.run([binary, "lint", "--format", "json", *files], capture_output=True, text=True, cwd=ROOT)
    data = json.loads(r.stdout)
    return [f for f in (data["findings"] if isinstance(data, dict) else data) if f.get("rule") in RULES]


def kernel_ranges(path):
    """(name, first line, last line) of each __global__ function, 1-based, by brace matching."""
    lines = open(path).read().split("\n")
    out = []
    for i, line in enumerate(lines):
        m = re.match(r"__global__ void (\w+)\(", line)
        if not m:
            continue
        depth, seen, j = 0, False, i
        while j < len(lines):
            depth += lines[j].count("{") - lines[j].count("}")
            seen = seen or "{" in lines[j]
            if seen and depth == 0:
                break
            j += 1
        out.append((m.group(1), i + 1, j + 1))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel-lsp", required=True)
    ap.add_argument("--real-src", default=os.path.join(ROOT, "build-real", "src"))
    args = ap.parse_args()
    labels = json.load(open(os.path.join(HERE, "labels.json")))
    wrong, unmeasured, found, bugs = [], [], 0, 0
    for fixture, kernels in labels["fixtures"].items():
        path = f"tests/fixtures/sync/{fixture}.cu"
        ranges = kernel_ranges(os.path.join(ROOT, path))
        predicted = {}
        for f in lint(args.kernel_lsp, [path]):
            line = f["line"]
            named = re.search(r"\(in (\w+)", f["message"])
            owner = next((k for k, a, b in ranges if a <= line <= b), named.group(1) if named else None)
            predicted.setdefault((owner, RULES[f["rule"]]), []).append(f["severity"])
        for entry in kernels.values():
            for what in ("race", "divergent"):
                severities = predicted.get((entry["kernel"], what), [])
                if entry[what]:
                    bugs += 1
                    found += bool(severities)
                    if not severities:
                        print(f"missed {what}: {fixture} {entry['kernel']}")
                elif "error" in severities:
                    wrong.append(f"error on a clean kernel ({what}): {fixture} {entry['kernel']}")
    programs = json.load(open(os.path.join(ROOT, "tests/accuracy/real_programs/labels-shared-memory.json")))["programs"]
    checked = 0
    if os.path.isdir(args.real_src):
        for prog in programs:
            label = labels["programs"].get(prog["name"])
            files = [os.path.join(args.real_src, prog["dir"], s) for s in prog["sources"] if s.endswith(".cu")]
            if not label or not all(os.path.exists(f) for f in files):
                continue
            checked += 1
            findings = lint(args.kernel_lsp, files)
            for what in ("race", "divergent"):
                severities = [f["severity"] for f in findings if RULES[f["rule"]] == what]
                if label[what]:
                    bugs += 1
                    found += bool(severities)
                    if not severities:
                        print(f"missed {what}: {prog['name']}")
                elif "error" in severities:
                    # Racecheck and synccheck saw each run's first launches only: a finding in a
                    # kernel they did not reach is a disagreement to read, not a proven mistake.
                    unmeasured.append(f"error where the first launches ran clean ({what}): {prog['name']}")
    else:
        print(f"public programs skipped: {args.real_src} is missing (tests/accuracy/real_programs/prepare.py)")
    print(f"labelled bugs found: {found}/{bugs}; public programs checked: {checked}")
    for w in unmeasured + wrong:
        print(w)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
