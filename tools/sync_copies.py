#!/usr/bin/env python3
"""Write the generated copies of files that must stand in two places.

Some folders are used on their own, away from the rest of the tree, and keep a copy of a file
whose one home is elsewhere:
  * kernel-builder builds each project under kernels/ on its own and sees only that project's
    folder, so every project keeps a copy of the shared headers it uses; likewise each project's
    benchmarks/ holds a copy of bench_util.py, so that a project folder benchmarks on its own
    (`kernel-lsp bench` ships only that folder to a runner). Home: kernels/common/.
  * the cuda-kernels skill is installed as a folder of its own, and its check_build_toml.py
    reads the build.toml schema and the arch table that kernel-lsp's reader uses. Home:
    analyzers/data/.
The copies are generated: edit the home, then

    python3 tools/sync_copies.py           # write every copy
    python3 tools/sync_copies.py --check   # exit 1 listing stale copies

The CTest test shared.copies_in_sync runs --check.
"""

import argparse
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Home (relative to the root) -> folders (relative to the root) that get a copy, besides the
# kernel projects' copies of kernels/common/, which kernel_project_copies() reads from build.toml.
SHARED = {
    "analyzers/data/build_toml_schema.toml": ["skills/cuda-kernels/scripts/data"],
    "analyzers/data/archs.toml": ["skills/cuda-kernels/scripts/data"],
}


def kernel_project_copies():
    """{home: [folders]} for kernels/common/: a project gets a copy of a header where its
    build.toml lists one of that name among its sources (so a new copy starts with its `src`
    entry), and of bench_util.py in its benchmarks/ folder when it has one."""
    copies = {}
    for toml_path in sorted((ROOT / "kernels").glob("*/build.toml")):
        project = toml_path.parent
        build = tomllib.loads(toml_path.read_text())
        sources = list(build.get("torch", {}).get("src", []))
        for kernel in build.get("kernel", {}).values():
            sources += kernel.get("src", [])
        for home in sorted((ROOT / "kernels" / "common").iterdir()):
            for source in sources:
                if Path(source).name == home.name:
                    copies.setdefault(f"kernels/common/{home.name}", []).append(
                        str((project / source).parent.relative_to(ROOT)))
        if (project / "benchmarks" / "benchmark.py").is_file():
            copies.setdefault("kernels/common/bench_util.py", []).append(
                str((project / "benchmarks").relative_to(ROOT)))
    return copies


def banner(home):
    """The copy's first line, a comment in the file's own language."""
    comment = "#" if home.endswith((".py", ".toml")) else "//"
    return (f"{comment} Generated from {home} by tools/sync_copies.py; "
            "edit that file, then run the script.\n").encode()


def copies():
    """(destination path, bytes it must hold) for every copy."""
    for home, folders in {**kernel_project_copies(), **SHARED}.items():
        text = banner(home) + (ROOT / home).read_bytes()
        for folder in folders:
            yield ROOT / folder / Path(home).name, text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if any copy differs")
    args = ap.parse_args()

    stale = []
    for dest, text in copies():
        if dest.is_file() and dest.read_bytes() == text:
            continue
        rel = dest.relative_to(ROOT)
        if args.check:
            stale.append(f"{'differs' if dest.exists() else 'missing'}: {rel}")
        else:
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(text)
            print(f"wrote {rel}")
    if stale:
        for line in stale:
            print(line, file=sys.stderr)
        print("edit the home of each file only, then run: python3 tools/sync_copies.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
