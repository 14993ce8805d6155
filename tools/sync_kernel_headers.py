#!/usr/bin/env python3
"""Write the kernel projects' copies of the shared files in kernels/common/.

kernel-builder builds each project under kernels/ on its own and sees only
that project's folder, so every project keeps a copy of the shared headers it
uses; likewise each project's benchmarks/ holds a copy of bench_util.py, so
that a project folder benchmarks on its own (`kernel-lsp bench` ships only
that folder to a runner). The copies are generated from kernels/common/: edit
the file there, then

    python3 tools/sync_kernel_headers.py           # write every copy
    python3 tools/sync_kernel_headers.py --check   # exit 1 listing stale copies

The CTest test kernels.shared_headers_in_sync runs --check.
"""

import argparse
import sys
from pathlib import Path

KERNELS = Path(__file__).resolve().parent.parent / "kernels"

# File in kernels/common/ -> folders (under kernels/) that get a copy.
# A new header copy must also be listed in its project's build.toml `src`.
SHARED = {
    "bench_util.py": ["adaln/benchmarks", "geglu/benchmarks", "rmsnorm/benchmarks", "rope/benchmarks"],
    "kl_check.h": ["adaln/torch-ext", "geglu/torch-ext", "rmsnorm/torch-ext", "rope/torch-ext"],
    "row_layout.h": ["geglu/torch-ext", "rmsnorm/torch-ext", "rope/torch-ext"],  # adaln has no row layouts
    "vector_pack.cuh": ["adaln/adaln_cuda", "geglu/geglu_cuda", "rmsnorm/rmsnorm_cuda", "rope/rope_cuda"],
}


def banner(name):
    """The copy's first line, a comment in the file's own language."""
    comment = "#" if name.endswith(".py") else "//"
    return (f"{comment} Generated from kernels/common/{name} by tools/sync_kernel_headers.py; "
            "edit that file, then run the script.\n").encode()


def copies():
    """(destination path, bytes it must hold) for every copy."""
    for name, folders in SHARED.items():
        text = banner(name) + (KERNELS / "common" / name).read_bytes()
        for folder in folders:
            yield KERNELS / folder / name, text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if any copy differs")
    args = ap.parse_args()

    stale = []
    for dest, text in copies():
        if dest.is_file() and dest.read_bytes() == text:
            continue
        rel = dest.relative_to(KERNELS.parent)
        if args.check:
            stale.append(f"{'differs' if dest.exists() else 'missing'}: {rel}")
        else:
            dest.write_bytes(text)
            print(f"wrote {rel}")
    if stale:
        for line in stale:
            print(line, file=sys.stderr)
        print("edit kernels/common/ only, then run: python3 tools/sync_kernel_headers.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
