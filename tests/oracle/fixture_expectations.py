#!/usr/bin/env python3
"""Lints every fixture folder with inline `// expect:` comments and checks the findings match.

Covers the arch and smem fixtures and the real-world-style kernels (tests/fixtures/{arch,smem,real_world}).
usage: fixture_expectations.py KERNEL_LSP FIXTURE_ROOT
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from expectations import compare, lint_json  # noqa: E402

RULES = {"arch-mismatch", "smem-limit", "arch-unsupported"}
SUITES = ("arch", "smem", "real_world")


def main():
    binary, root = sys.argv[1], Path(sys.argv[2])
    failures, files = [], 0
    for suite in SUITES:
        folder = root / suite
        if not folder.exists():
            continue
        findings = lint_json(binary, [folder], ["--severity", "warning"])
        for source in sorted(folder.rglob("*.cu")) + sorted(folder.rglob("*.cuh")):
            files += 1
            failures += compare(source, findings, RULES)
    for failure in failures:
        print("FAIL:", failure)
    print(f"fixture expectations: {files} files")
    print(f"{files - len({f.split(':')[0] for f in failures})} passed, {len({f.split(':')[0] for f in failures})} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
