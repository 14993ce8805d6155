#!/usr/bin/env python3
"""Copies the real programs named in programs.json out of the corpus into a git-ignored folder
that the device tool carries, and writes the plan the GPU script follows (stdlib only).

    prepare.py [--corpus /work/corpus] [--out build-real]

The plan (OUT/plan.json) lists, per program: its name, folder (relative to OUT/src), the nvcc
command line, and the argument lists to run it with. llm.c's dev/cuda programs take a kernel
number; the numbers are the `case N:` labels of their `switch (kernel_num)`, so every version in
the file is run. The corpus commit of each project is copied into the plan from MANIFEST.json.
An entry may name more folders of its project to copy (`copy`, e.g. a shared header folder), and
compile-time sizes to shrink (`redefine`: file -> macro -> value; each `#define MACRO value` line of
the copied file gets the new value, the line numbers stay): where a `-DMACRO` would not do (a
header defines it unconditionally, or the macro's name is also a parameter name in cuda.h).
Its `set` ("first" when absent) is kept in the plan: the programs are scored per set.

    prepare.py --tail-sizes --out build-real-tails

also rewrites, in every header of a program's folder, the size macros that programs.json's
`tail_sizes` names for its project (PolyBench's NI, NJ, N, ...) to sizes no block size divides, so
that a run reaches the last block's extra threads (tests/accuracy/bounds/real_programs_memcheck_on_gpu.sh).
"""
import argparse
import fnmatch
import json
import re
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASE_FLAGS = "-O3 -lineinfo -arch=sm_90"


def kernel_switch_cases(source: str):
    """The case labels of the first `switch (kernel_num)` block, in order."""
    m = re.search(r"switch\s*\(\s*kernel_num\s*\)\s*\{", source)
    if not m:
        return []
    depth, i = 1, m.end()
    while i < len(source) and depth:
        depth += {"{": 1, "}": -1}.get(source[i], 0)
        i += 1
    return [int(n) for n in re.findall(r"\bcase\s+(\d+)\s*:", source[m.end():i])]


def expand(entry, corpus: Path):
    """One manifest entry -> programs (an `each` entry names one program per matching file)."""
    folder = corpus / entry["project"] / entry["dir"]
    if "each" not in entry:
        yield dict(entry)
        return
    for path in sorted(folder.glob(entry["each"])):
        if any(fnmatch.fnmatch(path.name, x) for x in entry.get("exclude", [])):
            continue
        program = {k: v for k, v in entry.items() if k not in ("each", "exclude")}
        program["name"] = f'{entry["project"]}-{path.stem}'
        program["sources"] = [path.name]
        if entry.get("runs") == "kernel-switch":
            cases = kernel_switch_cases(path.read_text(errors="replace"))
            program["runs"] = [[str(n)] for n in cases] or [[]]
        yield program


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default="/work/corpus")
    parser.add_argument("--out", default=str(HERE.parents[2] / "build-real"))
    parser.add_argument("--tail-sizes", action="store_true",
                        help="rewrite the size macros of programs.json's tail_sizes to sizes no block divides")
    args = parser.parse_args()
    corpus, out = Path(args.corpus), Path(args.out)
    manifest = json.loads((HERE / "programs.json").read_text())
    commits = {p["project"]: p for p in json.loads((corpus / "MANIFEST.json").read_text())}
    src = out / "src"
    if src.exists():
        shutil.rmtree(src)
    plan = []
    copied = set()
    for entry in manifest["programs"]:
        project = entry["project"]
        extra = (["Common"] if "Common" in entry.get("flags", "") else []) + entry.get("copy", [])
        for folder in [entry["dir"]] + extra:
            if (project, folder) in copied:
                continue
            shutil.copytree(corpus / project / folder, src / project / folder,
                            ignore=shutil.ignore_patterns("doc", "*.pdf", "*.docx", "*.png", "data"))
            copied.add((project, folder))
        for name, macros in entry.get("redefine", {}).items():
            path = src / project / entry["dir"] / name
            text = path.read_text()
            for macro, value in macros.items():
                text, n = re.subn(rf"^(\s*#\s*define\s+{macro}\s+)\S+", lambda m: m.group(1) + value, text, flags=re.M)
                if not n:
                    sys.exit(f"prepare.py: no #define {macro} in {path}")
            path.write_text(text)
        tail_sizes = manifest.get("tail_sizes", {}).get(project, {}) if args.tail_sizes else {}
        applied = {}
        for path in sorted((src / project / entry["dir"]).glob("*.cuh")) + sorted((src / project / entry["dir"]).glob("*.h")):
            text = path.read_text()
            for macro, value in tail_sizes.items():
                text, n = re.subn(rf"^(\s*#\s*define\s+{macro}\s+)\d+\s*$", lambda m: m.group(1) + value, text, flags=re.M)
                if n:
                    applied.setdefault(path.name, {})[macro] = value
            path.write_text(text)
        for program in expand(entry, corpus):
            sources = " ".join(program["sources"])
            plan.append({
                "name": program["name"],
                "project": project,
                "repo": commits[project]["repo"],
                "commit": commits[project]["commit"],
                "dir": f'{project}/{entry["dir"]}',
                "sources": program["sources"],
                "build": f'nvcc {BASE_FLAGS} {program.get("flags", "")} {sources} -o BIN'.replace("  ", " "),
                "runs": program["runs"],
                "set": program.get("set", "first"),
                **({"redefine": entry["redefine"]} if "redefine" in entry else {}),
                **({"tail_sizes": applied} if applied else {}),
            })
    (out / "plan.json").write_text(json.dumps({"programs": plan}, indent=1))
    runs = sum(len(p["runs"]) for p in plan)
    size = sum(f.stat().st_size for f in src.rglob("*") if f.is_file())
    sets = {}
    for p in plan:
        sets.setdefault(p["set"], []).append(p)
    per_set = ", ".join(f"{s}: {len(ps)} programs, {sum(len(p['runs']) for p in ps)} runs" for s, ps in sets.items())
    print(f"{len(plan)} programs, {runs} runs ({per_set}), {size / 1e6:.1f} MB copied into {src}", file=sys.stderr)


if __name__ == "__main__":
    main()
