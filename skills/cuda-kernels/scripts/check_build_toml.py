#!/usr/bin/env python3
"""Check a kernel-builder build.toml (edition 5) before you build.

    python3 check_build_toml.py [--strict] [--no-files] [--nvcc PATH] [build.toml | PROJECT_DIR ...]

Checks what upstream kernel-builder rejects, with a line number and a fix:
  * TOML syntax; unknown keys in any table (with "did you mean");
  * [general]: name (^[a-z][-a-z0-9]*[a-z0-9]$, so no underscores), integer version,
    edition = 5, license, backends; python-depends, kernel-depends, [general.cuda], [general.hub];
  * exactly one framework section: [torch], [torch-noarch] or [tvm-ffi];
  * every [kernel.<name>]: backend, src, depends (known values), backend-specific keys,
    cuda-capabilities strings ("8.0", "9.0a", "10.0f", "12.0+PTX");
  * legacy files: v4 (no edition) is a warning, v3 markers (universal, language, cuda-minver in
    [general]) are errors — both say to run `kernel-builder update-build`;
  * warnings for empty `depends`, source files that do not exist, a missing
    torch-ext/<python_name>/__init__.py, and capabilities nvcc cannot target (--nvcc).

Output: `FILE:LINE: error|warning: message`. Exit 0 when there is no error (warnings allowed,
unless --strict), 1 when there is one, 2 on usage errors. Standard library only (Python 3.11+).
"""
from __future__ import annotations

import argparse
import difflib
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

NAME_RE = re.compile(r"^[a-z][-a-z0-9]*[a-z0-9]$")
CAPABILITY_RE = re.compile(r"^(?P<major>\d+)\.(?P<minor>\d)(?P<suffix>[af]?)(?P<ptx>\+PTX)?$")
BACKENDS = {"cann", "cpu", "cuda", "metal", "neuron", "rocm", "tpu", "xpu"}
DEPENDS = {"torch", "cutlass_2_10", "cutlass_3_5", "cutlass_3_6", "cutlass_3_8", "cutlass_3_9",
           "cutlass_4_0", "cutlass_4_4", "cutlass_4_5", "sycl_tla", "metal-cpp"}
PYTHON_DEPENDS = {"einops", "helion", "tvm-ffi"}
PYTHON_DEPENDS_BY_BACKEND = {"cuda": {"nvidia-cutlass-dsl"}, "xpu": {"onednn"}, "neuron": {"nki"}}
# Capabilities that some CUDA release can target (sm_101 became sm_110 in CUDA 13).
KNOWN_CAPABILITIES = {"5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0", "7.2", "7.5", "8.0", "8.6", "8.7",
                      "8.8", "8.9", "9.0", "10.0", "10.1", "10.3", "11.0", "12.0", "12.1"}
ARCH_SPECIFIC_OK = {"9.0", "10.0", "10.1", "10.3", "11.0", "12.0", "12.1"}  # have an "a" variant

GENERAL_KEYS = {"name", "version", "edition", "license", "upstream", "source", "backends", "cuda",
                "hub", "kernel-depends", "neuron", "python-depends", "tpu", "xpu"}
GENERAL_SUB_KEYS = {
    "cuda": {"minver", "maxver", "kernel-depends", "python-depends"},
    "hub": {"repo-id", "branch"},
    "neuron": {"kernel-depends", "python-depends"},
    "tpu": {"python-depends"},
    "xpu": {"kernel-depends", "python-depends"},
}
FRAMEWORK_KEYS = {
    "torch": {"src", "include", "pyext", "minver", "maxver", "cxx-flags", "stable-abi"},
    "torch-noarch": {"pyext", "cuda-capabilities", "rocm-archs"},
    "tvm-ffi": {"src", "include", "pyext", "cxx-flags"},
}
KERNEL_COMMON = {"backend", "src", "depends", "include", "cxx-flags"}
KERNEL_KEYS = {
    "cuda": KERNEL_COMMON | {"cuda-capabilities", "cuda-flags", "cuda-minver"},
    "rocm": KERNEL_COMMON | {"rocm-archs", "hip-flags"},
    "xpu": KERNEL_COMMON | {"sycl-flags"},
    "cpu": KERNEL_COMMON,
    "metal": KERNEL_COMMON,
}
VERSION_RE = re.compile(r"^\d+(\.\d+){0,2}$")


@dataclass
class Finding:
    line: int
    severity: str  # "error" | "warning"
    message: str


class LineIndex:
    """Maps a table path and key to the line it is written on (tomllib keeps no positions)."""

    HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
    KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"'.]+)\s*=")

    def __init__(self, text: str):
        self.tables: dict[str, int] = {}
        self.keys: dict[tuple[str, str], int] = {}
        table = ""
        for n, line in enumerate(text.splitlines(), start=1):
            if (m := self.HEADER.match(line)):
                table = ".".join(p.strip().strip('"\'') for p in m.group(1).split("."))
                self.tables.setdefault(table, n)
            elif (m := self.KEY.match(line)):
                parts = [p.strip().strip('"\'') for p in m.group(1).split(".")]
                full = ".".join([table] + parts[:-1]) if table else ".".join(parts[:-1])
                self.keys.setdefault((full, parts[-1]), n)

    def of(self, table: str, key: str | None = None) -> int:
        if key is not None and (table, key) in self.keys:
            return self.keys[(table, key)]
        if table in self.tables:
            return self.tables[table]
        # An inline or dotted table: use the line of its key in the parent table.
        parent, _, last = table.rpartition(".")
        if (parent, last) in self.keys:
            return self.keys[(parent, last)]
        return 1


class Checker:
    def __init__(self, path: Path, text: str, check_files: bool, nvcc_caps: set[str] | None):
        self.path, self.text = path, text
        self.root = path.parent
        self.check_files, self.nvcc_caps = check_files, nvcc_caps
        self.lines = LineIndex(text)
        self.findings: list[Finding] = []

    # ------------------------------------------------------------------ helpers
    def error(self, msg: str, table: str = "", key: str | None = None) -> None:
        self.findings.append(Finding(self.lines.of(table, key), "error", msg))

    def warn(self, msg: str, table: str = "", key: str | None = None) -> None:
        self.findings.append(Finding(self.lines.of(table, key), "warning", msg))

    def unknown_keys(self, table: dict, allowed: set[str], where: str) -> None:
        for key in table:
            if key not in allowed:
                hint = difflib.get_close_matches(key, sorted(allowed), n=1, cutoff=0.6)
                extra = f"; did you mean `{hint[0]}`?" if hint else f" (allowed: {', '.join(sorted(allowed))})"
                self.error(f"unknown key `{key}` in [{where}]{extra}", where, key)

    def string_list(self, table: dict, key: str, where: str, required: bool = False) -> list[str] | None:
        if key not in table:
            if required:
                self.error(f"[{where}] needs `{key}` (a list of strings)", where)
            return None
        value = table[key]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.error(f"`{key}` in [{where}] must be a list of strings", where, key)
            return None
        return value

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
            self.error("missing [general] table (name, version, edition = 5, license, backends)")
            return self.findings

        edition = general.get("edition")
        legacy_v3 = self.v3_markers(doc)
        if edition is None:
            if legacy_v3:
                for msg, table, key in legacy_v3:
                    self.error(msg, table, key)
                self.error("legacy (v3 or older) build.toml: kernel-builder no longer reads it; run "
                           "`kernel-builder update-build`, or make the changes above and add `edition = 5`",
                           "general")
                return self.findings
            self.warn("no `edition`: this is the legacy v4 format, read with a warning upstream; add "
                      "`edition = 5` under [general] (or run `kernel-builder update-build`)", "general")
        elif edition != 5:
            self.error(f"unsupported `edition = {edition!r}`: the current edition is 5", "general", "edition")

        self.check_general(general, edition)
        self.check_framework(doc, general)
        kernels = doc.get("kernel", {})
        if not isinstance(kernels, dict):
            self.error("`kernel` must be a table of [kernel.<name>] sections", "kernel")
            kernels = {}
        backends = set(general.get("backends", [])) if isinstance(general.get("backends"), list) else set()
        if "torch-noarch" not in doc and not kernels:
            self.warn("no [kernel.<name>] section: nothing will be compiled")
        for name, kernel in kernels.items():
            self.check_kernel(name, kernel, backends)
        for top in doc:
            if top not in {"general", "kernel", *FRAMEWORK_KEYS}:
                hint = difflib.get_close_matches(top, ["general", "kernel", *FRAMEWORK_KEYS], n=1)
                self.error(f"unknown table [{top}]" + (f"; did you mean [{hint[0]}]?" if hint else ""), top)
        return self.findings

    def v3_markers(self, doc: dict) -> list[tuple[str, str, str | None]]:
        found = []
        general = doc.get("general", {})
        for key in ("cuda-minver", "cuda-maxver"):
            if key in general:
                found.append((f"`{key}` in [general] is a v3 key: move it to [general.cuda] as "
                              f"`{key.split('-')[1]}`", "general", key))
        if isinstance(doc.get("torch"), dict) and "universal" in doc["torch"]:
            found.append(("`universal` in [torch] is a v3 key: pure-Python kernels now use a "
                          "[torch-noarch] section instead of [torch]", "torch", "universal"))
        for name, kernel in (doc.get("kernel") or {}).items():
            if isinstance(kernel, dict) and "language" in kernel:
                found.append((f"`language` in [kernel.{name}] is a v3 key: use `backend = \"cuda\"` "
                              "(\"rocm\" for cuda-hipify, \"metal\" for metal)", f"kernel.{name}", "language"))
        return found

    def check_general(self, g: dict, edition) -> None:
        allowed = GENERAL_KEYS if edition is not None else GENERAL_KEYS - {"edition", "kernel-depends", "tpu"}
        self.unknown_keys(g, allowed, "general")
        name = g.get("name")
        if not isinstance(name, str):
            self.error("[general] needs `name` (lowercase letters, digits and dashes)", "general")
        elif not NAME_RE.match(name):
            fixed = re.sub(r"[^a-z0-9-]+", "-", name.lower()).strip("-")
            self.error(f"invalid name `{name}`: must match ^[a-z][-a-z0-9]*[a-z0-9]$ (no underscores); "
                       f"try `{fixed}` (the Python package is then `{fixed.replace('-', '_')}`)",
                       "general", "name")
        version = g.get("version")
        if version is None:
            self.error("[general] needs `version`, an integer major version (hub branch v<version>)", "general")
        elif not isinstance(version, int) or isinstance(version, bool) or version < 0:
            self.error(f"`version` must be a non-negative integer, not {version!r}", "general", "version")
        if not isinstance(g.get("license"), str) or not g.get("license"):
            self.error("[general] needs `license`, e.g. \"Apache-2.0\"", "general")
        backends = g.get("backends")
        if not isinstance(backends, list) or not backends:
            self.error("[general] needs `backends`, a non-empty list, e.g. [\"cuda\"]", "general")
        else:
            for b in backends:
                if b not in BACKENDS:
                    hint = difflib.get_close_matches(str(b), sorted(BACKENDS), n=1)
                    self.error(f"unknown backend `{b}` (one of {', '.join(sorted(BACKENDS))})"
                               + (f"; did you mean `{hint[0]}`?" if hint else ""), "general", "backends")
        for key in ("upstream", "source"):
            if key in g and not isinstance(g[key], str):
                self.error(f"`{key}` must be a git URL string", "general", key)
        for dep in self.string_list(g, "python-depends", "general") or []:
            if dep not in PYTHON_DEPENDS:
                where = next((b for b, s in PYTHON_DEPENDS_BY_BACKEND.items() if dep in s), None)
                hint = f"; it is allowed under [general.{where}] python-depends" if where else ""
                self.error(f"python dependency `{dep}` is not allowed in [general] "
                           f"(allowed: {', '.join(sorted(PYTHON_DEPENDS))}){hint}", "general", "python-depends")
        self.kernel_depends(g.get("kernel-depends"), "general")
        for sub, keys in GENERAL_SUB_KEYS.items():
            if sub not in g:
                continue
            table = g[sub]
            where = f"general.{sub}"
            if not isinstance(table, dict):
                self.error(f"[{where}] must be a table", "general", sub)
                continue
            self.unknown_keys(table, keys, where)
            for vkey in ("minver", "maxver"):
                if vkey in table and not (isinstance(table[vkey], str) and VERSION_RE.match(table[vkey])):
                    self.error(f"`{vkey}` must be a version string such as \"12.8\"", where, vkey)
            for dep in self.string_list(table, "python-depends", where) or []:
                if dep not in PYTHON_DEPENDS_BY_BACKEND.get(sub, set()):
                    self.error(f"python dependency `{dep}` is not allowed in [{where}]", where, "python-depends")
            self.kernel_depends(table.get("kernel-depends"), where)
        if "cuda" in g and isinstance(g["cuda"], dict) and ("minver" in g["cuda"] or "maxver" in g["cuda"]):
            self.warn("[general.cuda] minver/maxver make the whole build fail outside that CUDA range and can "
                      "drop build variants a compliant kernel must have; prefer a per-kernel `cuda-minver`",
                      "general.cuda")

    def kernel_depends(self, value, where: str) -> None:
        if value is None:
            return
        if not isinstance(value, list):
            self.error("`kernel-depends` must be a list of {repo-id, version} tables", where, "kernel-depends")
            return
        for dep in value:
            if not isinstance(dep, dict) or not isinstance(dep.get("repo-id"), str):
                self.error("each `kernel-depends` entry needs `repo-id` and `version` (or `revision`)",
                           where, "kernel-depends")
                continue
            extra = set(dep) - {"repo-id", "version", "revision"}
            if extra:
                self.error(f"unknown key(s) {sorted(extra)} in a kernel-depends entry", where, "kernel-depends")
            if ("version" in dep) == ("revision" in dep):
                self.error(f"kernel dependency `{dep['repo-id']}` needs exactly one of `version` or `revision`",
                           where, "kernel-depends")

    def check_framework(self, doc: dict, general: dict) -> None:
        present = [f for f in FRAMEWORK_KEYS if f in doc]
        if len(present) != 1:
            self.error("exactly one framework section is required: [torch], [torch-noarch] or [tvm-ffi]"
                       + (f" (found {', '.join('[' + p + ']' for p in present)})" if present else ""),
                       present[1] if len(present) > 1 else "general")
            if not present:
                return
        for fw in present:
            table = doc[fw]
            if not isinstance(table, dict):
                self.error(f"[{fw}] must be a table", fw)
                continue
            self.unknown_keys(table, FRAMEWORK_KEYS[fw], fw)
            if fw in ("torch", "tvm-ffi"):
                src = self.string_list(table, "src", fw, required=(fw == "tvm-ffi"))
                if fw == "torch" and src is None:
                    self.warn("[torch] has no `src`: list torch-ext/torch_binding.cpp and torch_binding.h", fw)
                for s in src or []:
                    self.source_exists(s, fw, "src")
            for key in ("include", "pyext", "cxx-flags"):
                self.string_list(table, key, fw)
            for vkey in ("minver", "maxver"):
                if vkey in table and not (isinstance(table[vkey], str) and VERSION_RE.match(table[vkey])):
                    self.error(f"`{vkey}` must be a version string such as \"2.9\"", fw, vkey)
            if fw == "torch-noarch":
                for cap in self.string_list(table, "cuda-capabilities", fw) or []:
                    self.capability(cap, fw)
            if fw == "torch" and "stable-abi" in table:
                abi = table["stable-abi"]
                ok = isinstance(abi, str) or (isinstance(abi, dict) and all(isinstance(v, str) for v in abi.values()))
                if not ok:
                    self.error("`stable-abi` must be a Torch version string (\"2.10\") or a table backend = version",
                               fw, "stable-abi")
            name = general.get("name")
            if fw == "torch" and self.check_files and isinstance(name, str) and NAME_RE.match(name):
                pkg = self.root / "torch-ext" / name.replace("-", "_") / "__init__.py"
                if not pkg.is_file():
                    self.warn(f"missing {pkg.relative_to(self.root)}: the Python package of a [torch] kernel lives "
                              f"in torch-ext/<name with - replaced by _>/", fw)

    def check_kernel(self, name: str, kernel, backends: set[str]) -> None:
        where = f"kernel.{name}"
        if not isinstance(kernel, dict):
            self.error(f"[{where}] must be a table", where)
            return
        backend = kernel.get("backend")
        if backend is None:
            self.error(f"[{where}] needs `backend` (e.g. \"cuda\")", where)
            return
        if backend not in KERNEL_KEYS:
            self.error(f"unknown backend `{backend}` in [{where}] (one of {', '.join(sorted(KERNEL_KEYS))})",
                       where, "backend")
            return
        if backends and backend not in backends:
            self.warn(f"[{where}] has backend `{backend}`, which [general] backends does not list: it is not built",
                      where, "backend")
        self.unknown_keys(kernel, KERNEL_KEYS[backend], where)
        src = self.string_list(kernel, "src", where, required=True)
        if src == []:
            self.error(f"[{where}] `src` is empty", where, "src")
        for s in src or []:
            self.source_exists(s, where, "src")
        depends = self.string_list(kernel, "depends", where)
        if "depends" not in kernel:
            self.error(f"[{where}] needs `depends`: [\"torch\"] for a kernel that includes torch headers "
                       "(add cutlass_X_Y when it uses CUTLASS)", where)
        elif depends is not None:
            if not depends:
                self.warn(f"[{where}] has `depends = []`: a kernel whose sources include torch/ATen headers "
                          "needs [\"torch\"]", where, "depends")
            for d in depends:
                if d not in DEPENDS:
                    hint = difflib.get_close_matches(d, sorted(DEPENDS), n=1)
                    self.error(f"unknown dependency `{d}` in [{where}]"
                               + (f"; did you mean `{hint[0]}`?" if hint else f" (one of {', '.join(sorted(DEPENDS))})"),
                               where, "depends")
        for key in ("include", "cxx-flags", "cuda-flags", "hip-flags", "sycl-flags", "rocm-archs"):
            self.string_list(kernel, key, where)
        if "cuda-minver" in kernel and not (isinstance(kernel["cuda-minver"], str)
                                            and VERSION_RE.match(kernel["cuda-minver"])):
            self.error("`cuda-minver` must be a version string such as \"12.8\"", where, "cuda-minver")
        caps = self.string_list(kernel, "cuda-capabilities", where)
        if caps is not None:
            if not caps:
                self.error(f"[{where}] `cuda-capabilities = []` builds nothing; list capabilities or remove the key "
                           "to use the builder's default list", where, "cuda-capabilities")
            for cap in caps:
                self.capability(cap, where)
            if self.nvcc_caps is not None:
                usable = [c for c in caps if self.base_cap(c) in self.nvcc_caps]
                if caps and not usable:
                    self.error(f"none of {caps} can be targeted by this nvcc: kernel-builder fails with "
                               "\"empty set of capabilities after intersection\"", where, "cuda-capabilities")

    # ------------------------------------------------------------------ values
    @staticmethod
    def base_cap(cap: str) -> str:
        m = CAPABILITY_RE.match(cap)
        return f"{m.group('major')}.{m.group('minor')}" if m else cap

    def capability(self, cap, where: str) -> None:
        m = CAPABILITY_RE.match(cap) if isinstance(cap, str) else None
        if not m:
            self.error(f"bad capability {cap!r}: write \"<major>.<minor>\" with an optional a/f suffix "
                       "and optional +PTX, e.g. \"8.0\", \"9.0a\", \"10.0f\", \"12.0+PTX\"", where, "cuda-capabilities")
            return
        base = f"{m.group('major')}.{m.group('minor')}"
        if base not in KNOWN_CAPABILITIES:
            hint = difflib.get_close_matches(base, sorted(KNOWN_CAPABILITIES), n=1)
            self.error(f"unknown compute capability \"{cap}\"" + (f"; did you mean \"{hint[0]}\"?" if hint else ""),
                       where, "cuda-capabilities")
            return
        if m.group("suffix") and base not in ARCH_SPECIFIC_OK:
            self.error(f"\"{cap}\": arch-specific (a) and family (f) targets exist only for 9.0 and later",
                       where, "cuda-capabilities")
        if self.nvcc_caps is not None and base not in self.nvcc_caps:
            self.warn(f"capability \"{cap}\" cannot be targeted by this nvcc (it accepts "
                      f"{', '.join(sorted(self.nvcc_caps, key=lambda c: tuple(map(int, c.split('.')))))}): "
                      "the builder drops it", where, "cuda-capabilities")

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
        findings = Checker(path, text, not args.no_files, caps).run()
        for f in sorted(findings, key=lambda f: f.line):
            print(f"{path}:{f.line}: {f.severity}: {f.message}")
            errors += f.severity == "error"
            warnings += f.severity == "warning"
    print(f"check_build_toml: {errors} error(s), {warnings} warning(s)", file=sys.stderr)
    return 1 if errors or (args.strict and warnings) else 0


if __name__ == "__main__":
    sys.exit(main())
