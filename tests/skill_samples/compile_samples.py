#!/usr/bin/env python3
"""Compile every ```cuda code block of the bundled skill with nvcc.

Each fenced block tagged `cuda` in every .md file under the given roots (default: the
repository's skills/ folder) is written to a temporary .cu file and compiled as a standalone
translation unit:

    nvcc -std=c++17 -gencode=arch=compute_90,code=sm_90 -c -o /dev/null block.cu

A block may choose its targets with a comment among its first lines:

    // nvcc-arch: 9.0a          -> -gencode=arch=compute_90a,code=sm_90a
    // nvcc-arch: 7.5 9.0       -> compiled once for each (every one must pass)

and add flags with `// nvcc-flags: -rdc=true` (split on spaces).

Usage: compile_samples.py [--nvcc PATH] [--jobs N] [ROOT_OR_FILE ...]
nvcc: --nvcc, else $NVCC, else /usr/local/cuda/bin/nvcc.
Prints `file:line: ...` for each failure and closes with `N passed, N failed`.
Exit status: 0 all passed, 1 a block failed (or none was found), 2 usage error / no nvcc.
Standard library only.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ARCH = "9.0"
FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`]*)$")
ARCH_DIRECTIVE = re.compile(r"^\s*//\s*nvcc-arch:\s*(?P<archs>.+?)\s*$")
FLAGS_DIRECTIVE = re.compile(r"^\s*//\s*nvcc-flags:\s*(?P<flags>.+?)\s*$")
CAPABILITY = re.compile(r"^(?P<major>\d+)\.(?P<minor>\d)(?P<suffix>[af]?)$")


@dataclass
class Block:
    path: Path
    line: int  # 1-based line of the opening fence
    code: str
    archs: list[str] = field(default_factory=lambda: [DEFAULT_ARCH])
    flags: list[str] = field(default_factory=list)


def extract_blocks(path: Path) -> list[Block]:
    """Fenced blocks whose info string's first word is `cuda` (CommonMark fences)."""
    blocks: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE_OPEN.match(lines[i])
        if not m:
            i += 1
            continue
        fence, indent = m.group("fence"), len(m.group("indent").expandtabs())
        info = m.group("info").strip().split()
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines):
            stripped = lines[i].strip()
            if stripped.startswith(fence[0] * len(fence)) and set(stripped) == {fence[0]}:
                break
            line = lines[i]
            # Remove up to the fence's indentation (blocks inside list items).
            remove = min(indent, len(line) - len(line.lstrip(" ")))
            body.append(line[remove:])
            i += 1
        i += 1  # past the closing fence (or the end of the file)
        if info and info[0].lower() == "cuda":
            block = Block(path=path, line=start + 1, code="\n".join(body) + "\n")
            for text in body[:5]:
                if (a := ARCH_DIRECTIVE.match(text)):
                    block.archs = [s for s in re.split(r"[,\s]+", a.group("archs")) if s]
                elif (f := FLAGS_DIRECTIVE.match(text)):
                    block.flags = f.group("flags").split()
            blocks.append(block)
    return blocks


def gencode(capability: str) -> str:
    m = CAPABILITY.match(capability)
    if not m:
        raise ValueError(f"bad capability '{capability}' in // nvcc-arch (expected e.g. 8.0, 9.0a, 10.0f)")
    xy = f"{m.group('major')}{m.group('minor')}{m.group('suffix')}"
    return f"-gencode=arch=compute_{xy},code=sm_{xy}"


def compile_block(nvcc: str, block: Block, workdir: str) -> tuple[Block, list[tuple[str, str]]]:
    """Returns the block and a list of (arch, error text) for each failing arch."""
    failures = []
    fd, src = tempfile.mkstemp(suffix=".cu", dir=workdir)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(block.code)
    for arch in block.archs:
        try:
            cmd = [nvcc, "-std=c++17", gencode(arch), *block.flags, "-c", "-o", os.devnull, src]
        except ValueError as e:
            failures.append((arch, str(e)))
            continue
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            text = (proc.stderr + proc.stdout).strip()
            # Point nvcc's "tmpXXXX.cu(N)" at the Markdown line (block line N follows the fence).
            text = re.sub(re.escape(src) + r"\((\d+)\)",
                          lambda m: f"{block.path}:{block.line + int(m.group(1))}", text)
            failures.append((arch, text))
    return block, failures


def collect(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files.extend(sorted(p.rglob("*.md")))
        elif p.is_file():
            files.append(p)
        else:
            print(f"compile_samples: no such file or folder: {p}", file=sys.stderr)
            sys.exit(2)
    return files


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nvcc", default=os.environ.get("NVCC") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("paths", nargs="*", type=Path, default=[REPO_ROOT / "skills"])
    args = ap.parse_args()

    if not (os.path.isfile(args.nvcc) and os.access(args.nvcc, os.X_OK)):
        print(f"compile_samples: nvcc not found at '{args.nvcc}' (use --nvcc or NVCC)", file=sys.stderr)
        return 2

    blocks = [b for f in collect(args.paths) for b in extract_blocks(f)]
    if not blocks:
        print("compile_samples: no ```cuda blocks found", file=sys.stderr)
        print("0 passed, 1 failed")
        return 1

    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="skill_samples_") as workdir, \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda b: compile_block(args.nvcc, b, workdir), blocks))
    for block, failures in results:
        try:
            shown = block.path.resolve().relative_to(REPO_ROOT)
        except ValueError:
            shown = block.path
        if failures:
            failed += 1
            for arch, err in failures:
                print(f"{shown}:{block.line}: error: ```cuda block does not compile for {arch}")
                for line in err.splitlines()[:12]:
                    print(f"    {line}")
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
