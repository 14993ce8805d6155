"""Inline expectations in fixtures, shared by the fixture and oracle tests.

A fixture line may end with `// expect: <rule>` or `// expect: <rule>(<arch>,<arch>)`; several
may follow one another (`// expect: a // expect: b`). Every finding of a checked rule must start
on a line that expects it, and every expectation must be met.
"""
import json
import re
import subprocess
from pathlib import Path

EXPECT = re.compile(r"expect:\s*([a-z-]+)(?:\(([^)]*)\))?")
LISTED = re.compile(r"^(\S+) is listed here$")


def expectations(path: Path):
    """{(line 1-based, rule): set(archs) or None}"""
    out = {}
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if "//" not in line:
            continue
        comment = line[line.index("//"):]
        for rule, archs in EXPECT.findall(comment):
            out[(number, rule)] = set(a.strip() for a in archs.split(",")) if archs else None
    return out


def lint_json(binary: str, paths, extra=()):
    proc = subprocess.run([binary, "lint", "--no-cache", "--format", "json", *extra, *map(str, paths)],
                          capture_output=True, text=True, timeout=900)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"kernel-lsp lint failed ({proc.returncode}): {proc.stderr}")
    return json.loads(proc.stdout)["findings"]


def finding_archs(finding):
    """The archs an arch-mismatch/smem-limit finding names, read from its notes."""
    archs = set()
    for note in finding.get("notes", []):
        m = LISTED.match(note["message"])
        if m:
            archs.add(m.group(1))
    return archs


def compare(path: Path, findings, rules):
    """Returns a list of human-readable mismatches for one fixture file."""
    wanted = expectations(path)
    problems = []
    got = {}
    for f in findings:
        if f["rule"] not in rules:
            continue
        if Path(f["file"]).resolve() != path.resolve():
            continue
        got.setdefault((f["line"], f["rule"]), set()).update(finding_archs(f))
    for key, archs in wanted.items():
        if key[1] not in rules:
            continue
        if key not in got:
            problems.append(f"{path}:{key[0]}: expected {key[1]} but got none")
        elif archs is not None and got[key] != archs:
            problems.append(f"{path}:{key[0]}: {key[1]} for {sorted(got[key])}, expected {sorted(archs)}")
    for key in got:
        if key not in wanted:
            problems.append(f"{path}:{key[0]}: unexpected {key[1]}")
    return problems
