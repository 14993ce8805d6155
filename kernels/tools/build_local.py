#!/usr/bin/env python3
"""Build a kernel-builder (edition 5) project without Nix.

    python kernels/tools/build_local.py kernels/rmsnorm [--out kernels/build] [--caps 9.0]

Reads <project>/build.toml, compiles the [torch] sources and the CUDA sources
of every [kernel.*] section with backend "cuda" through
torch.utils.cpp_extension.load (ninja), with one
-gencode=arch=compute_XY,code=sm_XY per capability ("X.Ya" -> XYa,
"+PTX" adds code=compute_XY), and TORCH_EXTENSION_NAME set to
_<name>_cuda_<hash> the way kernel-builder names op namespaces. The result is
an importable package:

    <out>/<name>/<python_name>/__init__.py ...      (copied from torch-ext/<python_name>/)
    <out>/<name>/<python_name>/_ops.py              (generated: ops = torch.ops.<namespace>)
    <out>/<name>/<python_name>/_<name>_cuda_<hash>.so

so `PYTHONPATH=<out>/<name> python -c "import <python_name>"` works.

With --layout variant the result is kernel-builder's own layout instead
(variant_layout.py), which the `kernels` library loads:

    <project>/build/<variant>/__init__.py, layers.py, _ops.py, metadata.json,
                             _<name>_cuda_<hash>.abi3.so
    e.g. <variant> = torch211-cxx11-cu130-x86_64-linux

(--out replaces <project>/build), built against Python's stable ABI as kernel-builder's
extensions are.

--caps (or KERNELS_CUDA_CAPS) restricts the build to some of build.toml's
capabilities, e.g. to save compile time on a machine with one GPU kind. A
kernel without cuda-capabilities gets kernel-builder's default list for the
toolkit torch was built with. What kernel-builder's CMake adds to every
compile (USE_CUDA, CUDA_KERNEL, the stable-ABI version define, torch's nvcc
flags) comes from kernel-lsp's builder data, analyzers/data/builder_defaults.toml,
which the linter and `kernel-lsp build` read too. kernels/common
(registration.h) is on the include path.

--print-flags prints what would be compiled and with which flags, as JSON, and
builds nothing (no PyTorch needed).
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # variant_layout.py beside this file
COMMON = HERE.parent / "common"
# kernel-lsp's resources are laid out as in its source tree: kernels/tools/ here, analyzers/data/ there.
BUILDER_DEFAULTS = HERE.parents[1] / "analyzers" / "data" / "builder_defaults.toml"


def builder_defaults():
    try:
        return tomllib.loads(BUILDER_DEFAULTS.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise SystemExit(f"build_local: cannot read kernel-builder's defaults {BUILDER_DEFAULTS}: {e}")


def default_caps(defaults, cuda_version):
    """kernel-builder's cuda-capabilities for a kernel that lists none, for this CUDA toolkit."""
    m = re.match(r"(\d+)\.(\d+)", cuda_version or "")
    if not m:
        raise SystemExit("build_local: a kernel without cuda-capabilities gets the builder's defaults for the "
                         "toolkit: build with a CUDA build of torch, or give --cuda-version with --print-flags")
    have = (int(m.group(1)), int(m.group(2)))
    for entry in defaults["cuda-capabilities"]:
        need = entry.get("min-cuda")
        if need is None or have >= tuple(int(x) for x in need.split(".")):
            return list(entry["capabilities"])
    raise SystemExit(f"build_local: {BUILDER_DEFAULTS} has no fallback cuda-capabilities entry")


def builder_compile_flags(defaults, torch_cfg, depends_on_torch):
    """(-D defines of every compile, extra nvcc flags) that kernel-builder's CMake adds."""
    compile_cfg = defaults["compile"]
    defines = [f"-D{d}" for d in compile_cfg["defines"]]
    stable = torch_cfg.get("stable-abi")
    if isinstance(stable, dict):
        stable = stable.get("cuda")
    m = re.fullmatch(r"(\d+)\.(\d+)", stable or "")
    if m:
        defines.append(f"-D{compile_cfg['stable-abi-define']}=0x{int(m.group(1)):02X}{int(m.group(2)):02X}000000000000ULL")
    return defines, (list(compile_cfg["torch-nvcc-flags"]) if depends_on_torch else [])


def gencode_flags(caps):
    flags = []
    for cap in caps:
        m = re.fullmatch(r"(\d+)\.(\d+)([af]?)(\+PTX)?", cap)
        if not m:
            raise SystemExit(f"build_local: cannot read cuda capability {cap!r}")
        arch = f"{m.group(1)}{m.group(2)}{m.group(3)}"
        code = f"sm_{arch}"
        if m.group(4):
            code += f",compute_{arch}"
        flags.append(f"-gencode=arch=compute_{arch},code=[{code}]" if "," in code else f"-gencode=arch=compute_{arch},code={code}")
    return flags


def read_project(project: Path):
    cfg = tomllib.loads((project / "build.toml").read_text())
    general = cfg.get("general", {})
    if general.get("edition") != 5:
        print(f"build_local: warning: {project}/build.toml is not edition 5", file=sys.stderr)
    name = general["name"]
    if "cuda" not in general.get("backends", ["cuda"]):
        raise SystemExit(f"build_local: {name} has no cuda backend")
    torch_cfg = cfg.get("torch")
    if torch_cfg is None:
        raise SystemExit("build_local: only [torch] projects are supported")
    kernels = [k for k in cfg.get("kernel", {}).values() if k.get("backend") == "cuda"]
    if not kernels:
        raise SystemExit(f"build_local: {name} has no [kernel.*] with backend = \"cuda\"")
    return name, general, torch_cfg, kernels


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("project", type=Path)
    ap.add_argument("--out", type=Path, default=None,
                    help="package: default kernels/build; variant: default <project>/build")
    ap.add_argument("--caps", default=os.environ.get("KERNELS_CUDA_CAPS", ""),
                    help="comma-separated subset of build.toml's cuda-capabilities")
    ap.add_argument("--layout", choices=("package", "variant"), default="package",
                    help="package: <out>/<name>/<python_name>/; variant: kernel-builder's <out>/<variant>/")
    ap.add_argument("--cuda-version", default="",
                    help="with --print-flags: the toolkit whose default capabilities apply (default: torch's)")
    ap.add_argument("--print-flags", action="store_true",
                    help="print the sources and flags as JSON and build nothing")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    project = args.project.resolve()
    name, general, torch_cfg, kernels = read_project(project)
    pyname = name.replace("-", "_")

    sources, headers, include_dirs = [], [], [project / "torch-ext", COMMON]
    for rel in torch_cfg.get("src", []):
        (sources if rel.endswith((".cpp", ".cc", ".cu")) else headers).append(project / rel)
    for rel in torch_cfg.get("include", []):
        include_dirs.append(project / rel)

    defaults = builder_defaults()
    toolkit = args.cuda_version  # the CUDA version the default capabilities are picked for
    if not args.print_flags:
        try:  # imported late: --help and --print-flags work without torch
            import torch
            from torch.utils import cpp_extension
        except ImportError as e:
            raise SystemExit(f"build_local: building needs PyTorch in this Python ({sys.executable}): {e}")
        toolkit = toolkit or torch.version.cuda

    caps, cuda_flags, cxx_flags = None, None, list(torch_cfg.get("cxx-flags", []))
    any_torch = False
    for k in kernels:
        for rel in k["src"]:
            (sources if rel.endswith((".cu", ".cpp", ".cc")) else headers).append(project / rel)
        for rel in k.get("include", []):
            include_dirs.append(project / rel)
        # an empty list gets the defaults too
        kcaps = k.get("cuda-capabilities") or default_caps(defaults, toolkit)
        any_torch = any_torch or "torch" in k.get("depends", [])
        kflags = k.get("cuda-flags", [])
        if caps is not None and (kcaps != caps or kflags != cuda_flags):
            raise SystemExit(f"build_local: {name}: kernels with different capabilities or flags are not supported here")
        caps, cuda_flags = kcaps, kflags
        cxx_flags += k.get("cxx-flags", [])

    if args.caps:
        wanted = [c.strip() for c in args.caps.split(",") if c.strip()]
        chosen = [c for c in caps if c.removesuffix("+PTX") in wanted or c in wanted]
        if not chosen:
            raise SystemExit(f"build_local: none of {wanted} is in build.toml's {caps}")
        caps = chosen

    builder_defines, torch_nvcc = builder_compile_flags(defaults, torch_cfg, any_torch)
    digest = hashlib.sha1()
    for f in sorted(set(sources + headers)) + [COMMON / "registration.h"]:
        digest.update(f.name.encode())
        digest.update(f.read_bytes())
    digest.update(repr((caps, cuda_flags, cxx_flags, builder_defines, torch_nvcc)).encode())
    ext_name = f"_{pyname}_cuda_{digest.hexdigest()[:7]}"

    if args.print_flags:
        print(json.dumps({"name": name, "extension": ext_name, "capabilities": caps,
                          "sources": [str(s.relative_to(project)) for s in sources],
                          "defines": builder_defines, "cuda_flags": torch_nvcc + list(cuda_flags),
                          "cxx_flags": cxx_flags,
                          "include_dirs": [str(d) for d in include_dirs]}, indent=1))
        return

    variant = args.layout == "variant"
    if variant:
        out_root = args.out.resolve() if args.out else project / "build"
    else:
        out_root = (args.out or HERE.parent / "build").resolve() / name
    pkg = out_root / pyname
    build_dir = out_root / f".build-{ext_name}"
    build_dir.mkdir(parents=True, exist_ok=True)

    # kernel-builder's extensions use only Python's stable ABI (hence `.abi3.so`); so does
    # registration.h's module.
    abi_flags = ["-DPy_LIMITED_API=0x03090000"] if variant else []
    # torch.utils.cpp_extension defines TORCH_API_INCLUDE_EXTENSION_H, which makes <torch/torch.h>
    # pull in Python and pybind11; kernel-builder's CMake does not, and pybind11 does not compile
    # against the stable ABI: bindings that include <torch/torch.h> build only without it.
    builder_defines = builder_defines + ["-UTORCH_API_INCLUDE_EXTENSION_H"]
    cuda_cflags = ["-std=c++17", "-O3"] + builder_defines + gencode_flags(caps) + torch_nvcc + list(cuda_flags)
    print(f"build_local: {name}: {ext_name}, capabilities {caps}", flush=True)
    cpp_extension.load(
        name=ext_name,
        sources=[str(s) for s in sources],
        extra_cflags=["-O3", "-std=c++17"] + builder_defines + abi_flags + cxx_flags,
        extra_cuda_cflags=cuda_cflags,
        extra_include_paths=[str(d) for d in include_dirs],
        build_directory=str(build_dir),
        with_cuda=True,
        is_python_module=False,
        verbose=args.verbose,
    )
    so = build_dir / f"{ext_name}.so"
    if not so.exists():
        raise SystemExit(f"build_local: expected {so}")

    if variant:
        import variant_layout
        if not torch.version.cuda:
            raise SystemExit("build_local: this torch has no CUDA: no CUDA variant to name")
        folder = out_root / variant_layout.variant_name(torch.__version__, torch.version.cuda)
        variant_layout.write_variant(folder, project / "torch-ext" / pyname, so, ext_name, general, caps,
                                     "kernels/tools/build_local.py")
        print(f"build_local: {name}: variant at {folder}", flush=True)
        return

    if pkg.exists():
        shutil.rmtree(pkg)
    shutil.copytree(project / "torch-ext" / pyname, pkg, ignore=shutil.ignore_patterns("__pycache__", "_ops.py"))
    shutil.copy2(so, pkg / so.name)
    (pkg / "_ops.py").write_text(
        "# Generated by kernels/tools/build_local.py; do not edit.\n"
        "import torch\n\n"
        f"from . import {ext_name}  # noqa: F401  (loads the library, registers the ops)\n\n"
        f"ops = torch.ops.{ext_name}\n\n\n"
        "def add_op_namespace_prefix(op_name: str) -> str:\n"
        f"    return \"{ext_name}::\" + op_name\n"
    )
    print(f"build_local: {name}: package at {pkg} (PYTHONPATH={out_root})", flush=True)


if __name__ == "__main__":
    main()
