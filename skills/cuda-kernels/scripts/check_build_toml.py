#!/usr/bin/env python3
"""Check a kernel-builder build.toml (edition 5) before you build.

    python3 check_build_toml.py [--strict] [--no-files] [--nvcc PATH] [build.toml | PROJECT_DIR ...]

Checks what upstream kernel-builder rejects, with a line number and a fix:
  * TOML syntax; unknown keys in any table (with "did you mean");
  * [general]: name (^[a-z][-a-z0-9]*[a-z0-9]$, so no underscores), integer version,
    edition = 5, license, backends, git URLs; python-depends, kernel-depends, [general.cuda],
    [general.hub], [general.xpu], [general.neuron], [general.tpu];
  * exactly one framework section: [torch], [torch-noarch] or [tvm-ffi];
  * every [kernel.<name>]: backend, src, depends (known values), backend-specific keys,
    cuda-capabilities ("8.0", "9.0a", "10.0f", "12.0+PTX");
  * legacy files: v4 (no edition) is a warning, keys of v3 and older are errors;
  * warnings for an empty `depends` where a source includes PyTorch headers, source files that
    do not exist, a missing torch-ext/<python_name>/__init__.py; with --nvcc, capabilities that
    nvcc cannot target are errors (the builder skips them).

The keys, values and edition rules are not written here: they are read from data/, copies of
kernel-lsp's analyzers/data/build_toml_schema.toml and archs.toml (tools/sync_copies.py writes
them), the same data kernel-lsp's own reader uses; a test holds the two readers to the same
verdicts. Output: `FILE:LINE: error|warning: message`. Exit 0 when there is no error (warnings
allowed, unless --strict), 1 when there is one, 2 on usage errors. Standard library only
(Python 3.11+).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
NAME_RE = re.compile(r"^[a-z][-a-z0-9]*[a-z0-9]$")
CAPABILITY_RE = re.compile(r"^(?P<major>\d+)\.(?P<minor>\d)(?P<suffix>[af]?)(?P<ptx>\+PTX)?$")
VERSION_RE = re.compile(r"^\d+(\.\d+)*$")
SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*$")
FRAMEWORKS = ("torch", "torch-noarch", "tvm-ffi")
TORCH_HEADER = re.compile(r'^\s*#\s*include\s*[<"](?:torch|ATen|c10)/', re.M)


class Schema:
    """The parts of build_toml_schema.toml and archs.toml this checker reads."""

    def __init__(self, schema: dict, archs: dict):
        self.edition = schema["edition"]
        self.keys: dict[str, list[str]] = schema["keys"]
        self.backends: list[str] = schema["backends"]
        self.git_url_schemes: list[str] = schema["git-url-schemes"]
        self.backend_keys = {b["name"]: b.get("keys", []) for b in schema["kernel-backend"]}
        self.backend_titles = {b["name"]: b.get("title", b["name"]) for b in schema["kernel-backend"]}
        self.general_python = schema["python-depends"]["general"]
        self.backend_python: dict[str, list[str]] = schema["python-depends"]["backends"]
        self.depends: list[str] = schema["depends"]["values"]
        added = schema["added-in-edition-5"]
        self.edition5_keys = {(t, k) for t, keys in added["keys"].items() for k in keys}
        self.edition5_advice = added["advice"]
        self.edition5_table_values = {(v["table"], v["key"]): v["advice"] for v in added.get("table-values", [])}
        self.removed = {(r["table"], r["key"]): r["advice"] for r in schema["removed-before-v4"]}
        self.languages: dict[str, str] = schema["removed-languages"]
        self.synonyms: dict[str, list[str]] = {}
        for word, key in schema.get("spelling", {}).get("synonyms", []):
            self.synonyms.setdefault(word, []).append(key)
        self.capabilities = {a["capability"] for a in archs["arch"]}

    @classmethod
    def load(cls) -> "Schema":
        with open(DATA / "build_toml_schema.toml", "rb") as s, open(DATA / "archs.toml", "rb") as a:
            return cls(tomllib.load(s), tomllib.load(a))

    def closest(self, word: str, candidates: list[str]) -> str | None:
        """The candidate most likely meant: a synonym, else the nearest within about one edit
        per four letters (`_`, `-` and case alike)."""
        wanted = word.lower().replace("_", "-")
        for key in self.synonyms.get(wanted, []):
            if key in candidates:
                return key
        allowed = max(1, (len(wanted) + 1) // 4)
        best, best_distance = None, allowed + 1
        for candidate in candidates:
            distance = edit_distance(wanted, candidate.lower().replace("_", "-"))
            if distance < best_distance:
                best, best_distance = candidate, distance
        return best


def edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance: an adjacent transposition is one edit."""
    before, previous = [0] * (len(b) + 1), list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        before, previous = previous, current
    return previous[len(b)]


def git_url_problem(text: str, schemes: list[str]) -> str | None:
    """Why `text` is not a git URL kernel-builder accepts, or None."""
    bad = f'must be a git URL such as "https://github.com/org/repo" or "git@github.com:org/repo.git", not "{text}"'
    before, colon, after = text.partition(":")
    if not colon:
        return bad
    if SCHEME_RE.match(before):
        scheme = before.lower()
        host = after.lstrip("/\\")
        if scheme in ("http", "https") and (not host or host[0] in "?#" or re.search(r"\s", host.split("/")[0])):
            return bad
        return None if scheme in schemes else f"has the unsupported scheme `{scheme}` (kernel-builder accepts {', '.join(schemes)})"
    if not before or re.search(r"\s|/", before) or not after or after.startswith("/"):
        return bad
    return None


@dataclass
class Finding:
    line: int
    severity: str  # "error" | "warning"
    message: str


class LineIndex:
    """Maps a table path, a key and a list item to their lines (tomllib keeps no positions)."""

    HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
    KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"'.]+)\s*=")

    def __init__(self, text: str):
        self.text_lines = text.splitlines()
        self.tables: dict[str, int] = {}
        self.keys: dict[tuple[str, str], int] = {}
        table = ""
        for n, line in enumerate(self.text_lines, start=1):
            if (m := self.HEADER.match(line)):
                table = ".".join(p.strip().strip('"\'') for p in m.group(1).split("."))
                self.tables.setdefault(table, n)
            elif (m := self.KEY.match(line)):
                parts = [p.strip().strip('"\'') for p in m.group(1).split(".")]
                full = ".".join([table] + parts[:-1]) if table else ".".join(parts[:-1])
                self.keys.setdefault((full, parts[-1]), n)

    def of(self, table: str, key: str | None = None) -> int:
        if key is not None:
            if (table, key) in self.keys:
                return self.keys[(table, key)]
            if f"{table}.{key}" in self.tables:
                return self.tables[f"{table}.{key}"]
        if table in self.tables:
            return self.tables[table]
        # An inline or dotted table: use the line of its key in the parent table.
        parent, _, last = table.rpartition(".")
        if (parent, last) in self.keys:
            return self.keys[(parent, last)]
        return 1

    def item(self, table: str, key: str, value: str) -> int:
        """The line of the string `value` in the list of `key`, from the key's line on."""
        start = self.of(table, key)
        quoted = re.compile(r"[\"']" + re.escape(value) + r"[\"']")
        for n in range(start, min(start + 200, len(self.text_lines) + 1)):
            if quoted.search(self.text_lines[n - 1]):
                return n
        return start


class Checker:
    def __init__(self, schema: Schema, path: Path, text: str, check_files: bool, nvcc_caps: set[str] | None):
        self.schema, self.path, self.text = schema, path, text
        self.root = path.parent
        self.check_files, self.nvcc_caps = check_files, nvcc_caps
        self.lines = LineIndex(text)
        self.findings: list[Finding] = []
        self.legacy = False  # the v4 format: no `edition`

    # ------------------------------------------------------------------ helpers
    def error(self, msg: str, table: str = "", key: str | None = None, item: str | None = None) -> None:
        line = self.lines.item(table, key, item) if item is not None else self.lines.of(table, key)
        self.findings.append(Finding(line, "error", msg))

    def warn(self, msg: str, table: str = "", key: str | None = None) -> None:
        self.findings.append(Finding(self.lines.of(table, key), "warning", msg))

    def check_keys(self, table: dict, allowed: list[str], where: str, schema_table: str, title: str,
                   skip: set[str] = frozenset(), anchor: str | None = None) -> None:
        """Reports removed, edition-5-only and unknown keys (other than `skip`), each on its own
        line or, for an inline table, on the line of the key `anchor` in `where`. A misspelt key
        is then read as the key it resembles, so that the key is not also reported missing."""
        for key in [k for k in table if k not in skip]:
            line_key = anchor or key
            if (schema_table, key) in self.schema.removed:
                self.error(f"`{key}` in {title} is a key of build.toml v3 and older, which kernel-builder no "
                           f"longer reads: {self.schema.removed[(schema_table, key)]} (or run "
                           "`kernel-builder update-build`)", where, line_key)
                continue
            if (schema_table, key) in self.schema.edition5_keys:
                if self.legacy:
                    self.error(f"`{key}` in {title} exists only in edition 5: {self.schema.edition5_advice}",
                               where, line_key)
                continue
            if key in allowed:
                continue
            hint = self.schema.closest(key, allowed)
            extra = f"; did you mean `{hint}`?" if hint else f" (known keys: {', '.join(allowed)})"
            self.error(f"unknown key `{key}` in {title}{extra}", where, line_key)
            if hint and hint not in table:
                table[hint] = table[key]

    def require(self, table: dict, key: str, where: str, title: str, example: str) -> bool:
        if key in table:
            return True
        self.error(f"{title} is missing the required key `{key}`, e.g. `{example}`", where)
        return False

    def string_list(self, table: dict, key: str, where: str) -> list[str] | None:
        if key not in table:
            return None
        value = table[key]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.error(f"`{key}` in [{where}] must be a list of strings", where, key)
            return None
        return value

    def version(self, table: dict, key: str, where: str, example: str) -> None:
        if key in table and not (isinstance(table[key], str) and VERSION_RE.match(table[key])):
            self.error(f"`{key}` must be a version string such as \"{example}\"", where, key)

    # ------------------------------------------------------------------ sections
    def run(self) -> list[Finding]:
        try:
            doc = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as e:
            m = re.search(r"line (\d+)", str(e))
            self.findings.append(Finding(int(m.group(1)) if m else 1, "error", f"TOML syntax: {e}"))
            return self.findings

        general = doc.get("general")
        if not isinstance(general, dict):
            self.error("build.toml has no [general] section: it needs `name`, `version`, `edition = 5`, "
                       "`license` and `backends`")
            return self.findings
        self.legacy = "edition" not in general
        self.check_general(general)
        self.check_framework(doc, general)
        kernels = doc.get("kernel", {})
        if not isinstance(kernels, dict):
            self.error("`kernel` must hold [kernel.<name>] sections", "kernel")
            kernels = {}
        framework = next((f for f in FRAMEWORKS if f in doc), None)
        for name, kernel in kernels.items():
            self.check_kernel(name, kernel, framework)
        top_level = self.schema.keys["top-level"]
        for top in doc:
            if top not in top_level:
                hint = self.schema.closest(top, top_level)
                self.error(f"unknown table [{top}]" + (f"; did you mean [{hint}]?" if hint else ""), top)
        return self.findings

    def check_general(self, g: dict) -> None:
        self.check_keys(g, self.schema.keys["general"], "general", "general", "[general]")
        if self.legacy:
            self.warn("no `edition`: this is the legacy v4 format, read with a warning upstream; add "
                      "`edition = 5` under [general] (or run `kernel-builder update-build`)", "general")
        elif g["edition"] != self.schema.edition:
            self.error(f"unsupported `edition = {g['edition']!r}`: the current edition is {self.schema.edition}",
                       "general", "edition")
        if self.require(g, "name", "general", "[general]", 'name = "my-kernel"') and isinstance(g["name"], str):
            name = g["name"]
            if not NAME_RE.match(name):
                fixed = re.sub(r"[^a-z0-9-]+", "-", name.lower()).strip("-")
                self.error(f"invalid name `{name}`: must match ^[a-z][-a-z0-9]*[a-z0-9]$ (no underscores); "
                           f"try `{fixed}` (the Python package is then `{fixed.replace('-', '_')}`)",
                           "general", "name")
        legacy_v3 = self.legacy and any(("general", k) in self.schema.removed for k in g)
        if not legacy_v3:
            self.require(g, "version", "general", "[general]", "version = 1")
        version = g.get("version")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool) or version < 0):
            self.error(f"`version` must be a non-negative integer, not {version!r}", "general", "version")
        self.require(g, "license", "general", "[general]", 'license = "apache-2.0"')
        if self.require(g, "backends", "general", "[general]", 'backends = ["cuda"]'):
            for b in self.string_list(g, "backends", "general") or []:
                if b not in self.schema.backends:
                    hint = self.schema.closest(b, self.schema.backends)
                    self.error(f"unknown backend `{b}` in [general] backends"
                               + (f"; did you mean `{hint}`?" if hint else f" (known: {', '.join(self.schema.backends)})"),
                               "general", "backends", b)
        for key in ("upstream", "source"):
            if isinstance(g.get(key), str) and (problem := git_url_problem(g[key], self.schema.git_url_schemes)):
                self.error(f"`{key}` in [general] {problem}", "general", key)
        self.python_depends(g, "general", None)
        self.kernel_depends(g.get("kernel-depends"), "general")
        for sub in ("cuda", "hub", "xpu", "neuron", "tpu"):
            if sub not in g:
                continue
            where = f"general.{sub}"
            if not isinstance(g[sub], dict):
                self.error(f"[{where}] must be a table", "general", sub)
                continue
            self.check_keys(g[sub], self.schema.keys[where], where, where, f"[{where}]")
            self.version(g[sub], "minver", where, "12.8")
            self.version(g[sub], "maxver", where, "12.8")
            if sub != "hub":
                self.python_depends(g[sub], where, sub)
            if "kernel-depends" in self.schema.keys[where]:
                self.kernel_depends(g[sub].get("kernel-depends"), where)
        if isinstance(g.get("cuda"), dict) and ("minver" in g["cuda"] or "maxver" in g["cuda"]):
            self.warn("[general.cuda] minver/maxver make the whole build fail outside that CUDA range and can "
                      "drop build variants a compliant kernel must have; prefer a per-kernel `cuda-minver`",
                      "general.cuda")

    def python_depends(self, table: dict, where: str, backend: str | None) -> None:
        backend_of = {p: b for b, packages in self.schema.backend_python.items() for p in packages}
        for dep in self.string_list(table, "python-depends", where) or []:
            if backend is None:
                if dep in self.schema.general_python:
                    continue
                if dep in backend_of:
                    message = f"`{dep}` is a {backend_of[dep]} dependency: move it to [general.{backend_of[dep]}] python-depends"
                else:
                    hint = self.schema.closest(dep, self.schema.general_python)
                    message = (f"unknown Python dependency `{dep}` in [general] python-depends"
                               + (f"; did you mean `{hint}`?" if hint else
                                  f": kernel-builder provides only {', '.join(self.schema.general_python)}"))
            elif backend_of.get(dep) == backend:
                continue
            elif dep in self.schema.general_python:
                message = f"`{dep}` is not specific to {backend}: move it to [general] python-depends"
            else:
                message = f"`{dep}` is not a {backend} Python dependency kernel-builder knows"
            self.error(message, where, "python-depends", dep)

    def kernel_depends(self, value, where: str) -> None:
        if value is None:
            return
        if not isinstance(value, list):
            self.error("`kernel-depends` must be a list of {repo-id, version} tables", where, "kernel-depends")
            return
        for dep in value:
            if not isinstance(dep, dict):
                self.error("entries of `kernel-depends` must be tables like { repo-id = \"org/name\", version = 1 }",
                           where, "kernel-depends")
                continue
            self.check_keys(dep, self.schema.keys["kernel-depends"], where, "kernel-depends", "a `kernel-depends` entry",
                            anchor="kernel-depends")
            self.require(dep, "repo-id", where, "a `kernel-depends` entry", 'repo-id = "kernels-community/activation"')
            if isinstance(dep.get("version"), int) and dep["version"] < 0:
                self.error("`version` of a kernel dependency must be 0 or more", where, "kernel-depends")
            if ("version" in dep) == ("revision" in dep):
                self.error("a `kernel-depends` entry needs exactly one of `version = <major>` or "
                           "`revision = \"<git revision>\"`", where, "kernel-depends")

    def check_framework(self, doc: dict, general: dict) -> None:
        present = [f for f in FRAMEWORKS if f in doc]
        if len(present) > 1:
            self.error("exactly one framework section is allowed: [torch], [torch-noarch] or [tvm-ffi] (found "
                       + ", ".join(f"[{p}]" for p in present) + ")", present[1])
        for fw in present:
            table = doc[fw]
            if not isinstance(table, dict):
                self.error(f"[{fw}] must be a table", fw)
                continue
            self.check_keys(table, self.schema.keys[fw], fw, fw, f"[{fw}]")
            if fw == "tvm-ffi":
                self.require(table, "src", fw, "[tvm-ffi]", 'src = ["tvm-ffi/binding.cpp"]')
            for s in self.string_list(table, "src", fw) or []:
                self.source_exists(s, fw, "src")
            for key in ("include", "pyext", "cxx-flags"):
                self.string_list(table, key, fw)
            self.version(table, "minver", fw, "2.9")
            self.version(table, "maxver", fw, "2.9")
            if fw == "torch-noarch":
                for cap in self.string_list(table, "cuda_capabilities", fw) or []:
                    self.capability(cap, fw, "cuda_capabilities")
            if fw == "torch" and "stable-abi" in table:
                abi = table["stable-abi"]
                if isinstance(abi, dict) and self.legacy:
                    self.error("`stable-abi` as a table: " + self.schema.edition5_table_values[("torch", "stable-abi")],
                               fw, "stable-abi")
                elif not (isinstance(abi, str) or (isinstance(abi, dict) and all(isinstance(v, str) for v in abi.values()))):
                    self.error("`stable-abi` must be a Torch version string (\"2.10\") or a table backend = version",
                               fw, "stable-abi")
            name = general.get("name")
            if fw == "torch" and self.check_files and isinstance(name, str) and NAME_RE.match(name):
                pkg = self.root / "torch-ext" / name.replace("-", "_") / "__init__.py"
                if not pkg.is_file():
                    self.warn(f"missing {pkg.relative_to(self.root)}: the Python package of a [torch] kernel lives "
                              f"in torch-ext/<name with - replaced by _>/", fw)

    def check_kernel(self, name: str, kernel, framework: str | None) -> None:
        where, title = f"kernel.{name}", f"[kernel.{name}]"
        if not isinstance(kernel, dict):
            self.error(f"`kernel.{name}` must be a [kernel.{name}] section (a table)", where)
            return
        backend = kernel.get("backend")
        if backend is None and isinstance(kernel.get("language"), str):
            backend = self.schema.languages.get(kernel["language"], kernel["language"])
        elif backend is None:
            self.error(f"{title} is missing the required key `backend`, e.g. `backend = \"cuda\"`", where)
        elif backend not in self.schema.backend_keys:
            hint = self.schema.closest(str(backend), list(self.schema.backend_keys))
            self.error(f"unknown kernel backend `{backend}` in {title}"
                       + (f"; did you mean `{hint}`?" if hint else ""), where, "backend")
        own = self.schema.backend_keys.get(backend)
        allowed = self.schema.keys["kernel"] + (own if own is not None else
                                                [k for keys in self.schema.backend_keys.values() for k in keys])
        for other, keys in self.schema.backend_keys.items():
            for key in keys:
                if key in kernel and key not in allowed:
                    self.error(f"`{key}` only applies to {self.schema.backend_titles[other]} kernels, but {title} "
                               f"has backend = \"{backend}\"", where, key)
        foreign = {k for keys in self.schema.backend_keys.values() for k in keys} - set(allowed)
        self.check_keys(kernel, allowed, where, "kernel", title, skip=foreign)
        if self.require(kernel, "src", where, title, f'src = ["{name}/{name}.cu"]'):
            for s in self.string_list(kernel, "src", where) or []:
                self.source_exists(s, where, "src")
        if self.require(kernel, "depends", where, title, 'depends = ["torch"]'):
            depends = self.string_list(kernel, "depends", where)
            if depends == [] and framework == "torch" and self.sources_include_torch(kernel):
                self.warn(f"{title} has `depends = []`: a kernel whose sources include PyTorch headers (torch/, "
                          "ATen/, c10/) needs [\"torch\"]", where, "depends")
            for d in depends or []:
                if d not in self.schema.depends:
                    hint = self.schema.closest(d, self.schema.depends)
                    self.error(f"unknown dependency `{d}` in {title} depends"
                               + (f"; did you mean `{hint}`?" if hint else f" (known: {', '.join(self.schema.depends)})"),
                               where, "depends", d)
        for key in ("include", "cxx-flags", "cuda-flags", "hip-flags", "sycl-flags", "rocm-archs"):
            self.string_list(kernel, key, where)
        self.version(kernel, "cuda-minver", where, "12.8")
        caps = self.string_list(kernel, "cuda-capabilities", where) if "cuda-capabilities" in allowed else None
        if caps == []:
            self.warn(f"{title} `cuda-capabilities = []` is read as absent: the builder uses its default list; "
                      "list capabilities or remove the key", where, "cuda-capabilities")
        for cap in caps or []:
            self.capability(cap, where, "cuda-capabilities")

    def sources_include_torch(self, kernel: dict) -> bool:
        """Whether a source (or a project header it includes) includes PyTorch headers; true when
        one cannot be read."""
        for source in kernel.get("src") or []:
            try:
                text = (self.root / source).read_text(errors="replace")
            except OSError:
                return True
            if TORCH_HEADER.search(text):
                return True
            for header in re.findall(r'^\s*#\s*include\s*"([^"]+)"', text, re.M):
                try:
                    if TORCH_HEADER.search((self.root / source).parent.joinpath(header).read_text(errors="replace")):
                        return True
                except OSError:
                    pass
        return False

    # ------------------------------------------------------------------ values
    def capability(self, cap, where: str, key: str) -> None:
        m = CAPABILITY_RE.match(cap)
        if not m:
            self.error(f"`{cap}` is not a compute capability: write \"<major>.<minor>\" with an optional a/f suffix "
                       "and optional +PTX, e.g. \"8.0\", \"9.0a\", \"10.0f\", \"12.0+PTX\"", where, key, cap)
            return
        base, suffix = f"{m.group('major')}.{m.group('minor')}", m.group("suffix")
        if base not in self.schema.capabilities:
            self.error(f"unknown compute capability \"{cap}\": no GPU has it", where, key, cap)
            return
        start = {"a": 9, "f": 10}.get(suffix)
        if start and int(m.group("major")) < start:
            self.error(f"\"{cap}\" does not exist: arch-specific (a) targets start at 9.0 and family (f) targets "
                       f"at 10.0; use \"{base}\"", where, key, cap)
        if self.nvcc_caps is not None and base not in self.nvcc_caps:
            self.error(f"capability \"{cap}\" cannot be targeted by this nvcc (it accepts "
                       f"{', '.join(sorted(self.nvcc_caps, key=lambda c: tuple(map(int, c.split('.')))))}): "
                       "the builder skips it", where, key, cap)

    def source_exists(self, rel: str, where: str, key: str) -> None:
        if self.check_files and not (self.root / rel).exists():
            self.warn(f"`{rel}` does not exist (paths are relative to the folder of build.toml)", where, key)


def nvcc_capabilities(nvcc: str) -> set[str]:
    out = subprocess.run([nvcc, "--list-gpu-arch"], capture_output=True, text=True, check=True).stdout
    caps = set()
    for token in out.split():
        m = re.match(r"compute_(\d+)(\d)$", token)
        if m:
            caps.add(f"{m.group(1)}.{m.group(2)}")
    return caps


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", default=["build.toml"], help="build.toml files or project folders")
    ap.add_argument("--strict", action="store_true", help="treat warnings as errors")
    ap.add_argument("--no-files", action="store_true", help="do not check that listed files exist")
    ap.add_argument("--nvcc", help="also check capabilities against this nvcc's --list-gpu-arch")
    args = ap.parse_args()

    try:
        schema = Schema.load()
    except (OSError, tomllib.TOMLDecodeError, KeyError) as e:
        print(f"check_build_toml: cannot read the schema in {DATA}: {e}", file=sys.stderr)
        return 2
    caps = None
    if args.nvcc:
        try:
            caps = nvcc_capabilities(args.nvcc)
        except (OSError, subprocess.CalledProcessError) as e:
            print(f"check_build_toml: cannot run {args.nvcc} --list-gpu-arch: {e}", file=sys.stderr)
            return 2
    errors = warnings = 0
    for raw in args.paths:
        path = Path(raw)
        if path.is_dir():
            path = path / "build.toml"
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            print(f"check_build_toml: cannot read {path}: {e.strerror}", file=sys.stderr)
            return 2
        findings = Checker(schema, path, text, not args.no_files, caps).run()
        for f in sorted(findings, key=lambda f: f.line):
            print(f"{path}:{f.line}: {f.severity}: {f.message}")
            errors += f.severity == "error"
            warnings += f.severity == "warning"
    print(f"check_build_toml: {errors} error(s), {warnings} warning(s)", file=sys.stderr)
    return 1 if errors or (args.strict and warnings) else 0


if __name__ == "__main__":
    sys.exit(main())
