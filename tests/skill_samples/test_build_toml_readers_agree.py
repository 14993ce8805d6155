#!/usr/bin/env python3
"""CTest driver: kernel-lsp's build.toml reader and the skill's check_build_toml.py agree.

Both read the schema in analyzers/data/build_toml_schema.toml (the checker through the copy
tools/sync_copies.py writes beside it). This test generates build.toml files from that schema,
so that a key added there is tried here without an edit:
  * every key of every table, with a valid sample value (a key without one fails the test);
  * every key in each table that does not list it, and each backend's kernel keys in a kernel
    of another backend;
  * the edition-5 keys in a legacy (v4) file, and the keys removed before v4;
  * every backend, `depends` value and `python-depends` package, where allowed and where not;
and adds the build.toml files of this repository and, when given, of a corpus folder.

For each file it compares the lines on which each reader reports an error (the C++ reader's
build-toml and arch-unsupported findings, the checker's `error:` lines, both with the same
nvcc). Exit 1 listing every file where they differ.

Usage: test_build_toml_readers_agree.py KERNEL_LSP [--nvcc NVCC] [--corpus DIR]
"""
import argparse
import copy
import json
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "analyzers" / "data" / "build_toml_schema.toml"
CHECKER = ROOT / "skills" / "cuda-kernels" / "scripts" / "check_build_toml.py"

# A valid value for each key, by table ("*" for any table). Sub-tables are written as tables.
SAMPLES = {
    ("general", "name"): "xy-kernel", ("general", "version"): 1, ("general", "edition"): 5,
    ("general", "license"): "apache-2.0", ("general", "backends"): ["cuda"],
    ("general", "upstream"): "https://github.com/acme/xy", ("general", "source"): "https://github.com/acme/xy",
    ("general", "python-depends"): ["einops"],
    ("general", "cuda"): {"minver": "12.8"}, ("general", "hub"): {"repo-id": "acme/xy"},
    ("general", "xpu"): {}, ("general", "neuron"): {}, ("general", "tpu"): {},
    ("general.cuda", "python-depends"): ["nvidia-cutlass-dsl"], ("general.xpu", "python-depends"): ["onednn"],
    ("general.neuron", "python-depends"): ["nki"], ("general.tpu", "python-depends"): [],
    ("general.hub", "repo-id"): "acme/xy", ("general.hub", "branch"): "main",
    ("*", "kernel-depends"): [{"repo-id": "kernels-community/activation", "version": 1}],
    ("kernel-depends", "repo-id"): "kernels-community/activation", ("kernel-depends", "version"): 1,
    ("kernel-depends", "revision"): "main",
    ("*", "minver"): "12.8", ("*", "maxver"): "13.0", ("torch", "minver"): "2.9", ("torch", "maxver"): "2.11",
    ("*", "src"): ["k.cu"], ("*", "include"): ["."], ("*", "pyext"): ["py"], ("*", "cxx-flags"): ["-O3"],
    ("torch", "stable-abi"): "2.10", ("torch-noarch", "cuda_capabilities"): ["8.0"],
    ("torch-noarch", "rocm_archs"): ["gfx942"],
    ("kernel", "backend"): "cuda", ("kernel", "depends"): ["torch"],
    ("kernel", "cuda-capabilities"): ["8.0", "9.0a"], ("kernel", "cuda-flags"): ["-lineinfo"],
    ("kernel", "cuda-minver"): "12.8", ("kernel", "rocm-archs"): ["gfx942"], ("kernel", "hip-flags"): ["-O3"],
    ("kernel", "sycl-flags"): ["-O3"],
}


def sample(table, key):
    for where in (table, "*"):
        if (where, key) in SAMPLES:
            return copy.deepcopy(SAMPLES[(where, key)])
    raise KeyError(f"no sample value for `{key}` in [{table}]: add one to SAMPLES")


def base_document(edition=True):
    general = {k: sample("general", k) for k in ("name", "version", "license", "backends")}
    if edition:
        general["edition"] = 5
    return {"general": general, "torch": {"src": ["torch-ext/torch_binding.cpp"]},
            "kernel": {"xy": {"backend": "cuda", "depends": ["torch"], "src": ["k.cu"]}}}


def toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{ " + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + " }"


def write_table(path, table, out):
    """[path] with its plain keys, then its sub-tables (a dict of dicts) as [path.sub]."""
    plain = {k: v for k, v in table.items() if not isinstance(v, dict)}
    subs = {k: v for k, v in table.items() if isinstance(v, dict)}
    if path and (plain or not subs):
        out.append(f"[{path}]")
    for key, value in plain.items():
        out.append(f"{json.dumps(key) if not re.fullmatch(r'[A-Za-z0-9_-]+', key) else key} = {toml_value(value)}")
    out.append("")
    for key, value in subs.items():
        write_table(f"{path}.{key}" if path else key, value, out)


def to_toml(document):
    out = []
    write_table("", document, out)
    return "\n".join(out) + "\n"


def table_of(document, table):
    """The dict holding [table]'s keys in `document` ("kernel" is the kernel `xy`)."""
    if table == "kernel":
        return document["kernel"]["xy"]
    node = document
    for part in table.split("."):
        node = node.setdefault(part, {})
    return node


def generated_cases(schema):
    keys = schema["keys"]
    backend_keys = {b["name"]: b.get("keys", []) for b in schema["kernel-backend"]}
    tables = [t for t in keys if t not in ("top-level", "kernel-depends")]
    every_key = sorted({k for t in tables for k in keys[t]} | {k for ks in backend_keys.values() for k in ks})
    cases = {"base": base_document()}

    def with_key(name, table, key, value, document=None):
        document = document or base_document()
        if table.startswith("torch-noarch"):
            document.pop("torch")
            document.pop("kernel")
        if table == "tvm-ffi":
            document.pop("torch")
        table_of(document, table)[key] = value
        cases[name] = document

    for table in tables:
        allowed = set(keys[table]) | (set(backend_keys["cuda"]) if table == "kernel" else set())
        for key in keys[table]:
            with_key(f"{table}/{key}", table, key, sample(table, key))
        for key in every_key:
            if key not in allowed:
                with_key(f"{table}/not-{key}", table, key, ["x"])
    for backend, own in backend_keys.items():
        for other, their in backend_keys.items():
            for key in their if other != backend else []:
                document = base_document()
                document["general"]["backends"] = [backend]
                document["kernel"]["xy"]["backend"] = backend
                with_key(f"kernel-{backend}/{key}", "kernel", key, sample("kernel", key), document)
    for entry_key in keys["kernel-depends"]:
        entry = {"repo-id": "kernels-community/activation", entry_key: sample("kernel-depends", entry_key)}
        with_key(f"kernel-depends/{entry_key}", "general", "kernel-depends", [entry])
    with_key("kernel-depends/unknown", "general", "kernel-depends",
             [{"repo-id": "kernels-community/activation", "version": 1, "branch": "x"}])
    for table, added in schema["added-in-edition-5"]["keys"].items():
        for key in added:
            with_key(f"v4/{table}/{key}", table, key, sample(table, key), base_document(edition=False))
    for removed in schema["removed-before-v4"]:
        for edition in (True, False):
            with_key(f"removed/{removed['table']}/{removed['key']}/{edition}", removed["table"], removed["key"],
                     "12.0" if "ver" in removed["key"] else "cuda", base_document(edition))
    for backend in schema["backends"] + ["cudda"]:
        with_key(f"backends/{backend}", "general", "backends", [backend])
    for depend in schema["depends"]["values"] + ["cutlass_9_9", "torchh"]:
        with_key(f"depends/{depend}", "kernel", "depends", [depend])
    packages = set(schema["python-depends"]["general"])
    for per_backend in schema["python-depends"]["backends"].values():
        packages |= set(per_backend)
    for package in sorted(packages) + ["numpy"]:
        with_key(f"python-depends/general/{package}", "general", "python-depends", [package])
        for sub in ("cuda", "xpu", "neuron", "tpu"):
            with_key(f"python-depends/{sub}/{package}", f"general.{sub}", "python-depends", [package])
    for top in keys["top-level"] + ["torch-ext"]:
        if top not in ("general", "kernel"):
            document = base_document()
            document[top] = {"src": ["a.cpp"]} if top != "torch-noarch" else {}
            cases[f"top/{top}"] = document
    return {name: to_toml(document) for name, document in cases.items()}


def cpp_error_lines(kernel_lsp, paths):
    """{build.toml path: its error lines} from one `kernel-lsp lint` of every file."""
    run = subprocess.run([kernel_lsp, "lint", "--format", "json", *map(str, paths)], capture_output=True, text=True)
    lines = {path.resolve(): set() for path in paths}
    for f in json.loads(run.stdout)["findings"]:
        if f["severity"] == "error" and Path(f["file"]).name == "build.toml":
            lines.setdefault(Path(f["file"]).resolve(), set()).add(f["line"])
    return {path: sorted(found) for path, found in lines.items()}


def checker_error_lines(paths, nvcc):
    """{build.toml path: its error lines} from one run of the checker over every file."""
    command = [sys.executable, str(CHECKER), *map(str, paths)] + (["--nvcc", nvcc] if nvcc else [])
    run = subprocess.run(command, capture_output=True, text=True)
    lines = {path.resolve(): set() for path in paths}
    for m in re.finditer(r"^(.*?build\.toml):(\d+): error:", run.stdout, re.M):
        lines.setdefault(Path(m.group(1)).resolve(), set()).add(int(m.group(2)))
    return {path: sorted(found) for path, found in lines.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kernel_lsp")
    parser.add_argument("--nvcc", help="the nvcc kernel-lsp finds, so that both judge capabilities alike")
    parser.add_argument("--corpus", help="a folder whose */build.toml files are compared too")
    args = parser.parse_args()
    schema = tomllib.loads(SCHEMA.read_text())
    differences, compared = [], 0
    with tempfile.TemporaryDirectory(prefix="build_toml_agree_") as tmp:
        files, generated = [], generated_cases(schema)
        for name, text in generated.items():
            folder = Path(tmp) / re.sub(r"[^A-Za-z0-9_.-]+", "_", name)
            folder.mkdir()
            (folder / "build.toml").write_text(text)
            files.append((name, folder / "build.toml"))
        real = sorted(ROOT.glob("kernels/*/build.toml")) + sorted(ROOT.glob("examples/**/build.toml"))
        if args.corpus:
            real += sorted(Path(args.corpus).glob("*/build.toml"))
        files += [(str(path), path) for path in real]
        paths = [path for _, path in files]
        all_ours, all_theirs = cpp_error_lines(args.kernel_lsp, paths), checker_error_lines(paths, args.nvcc)
        for name, path in files:
            ours, theirs = all_ours[path.resolve()], all_theirs[path.resolve()]
            compared += 1
            if ours != theirs:
                differences.append(f"{name}: kernel-lsp errors on lines {ours}, check_build_toml.py on {theirs}")
                if name in generated:
                    differences.append("    " + path.read_text().replace("\n", "\n    "))
    for line in differences:
        print(line)
    failed = sum(1 for line in differences if not line.startswith("    "))
    print(f"{compared - failed} agree, {failed} differ")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
