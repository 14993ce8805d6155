#!/usr/bin/env python3
"""Can this machine benchmark a kernel project? Run by `kernel-lsp bench` before it builds,
locally and on a runner's machine (runner/project_bench.cpp, runner/scripts/bench_on_runner.sh).

    probe_machine.py [PROJECT/build.toml]

Prints one JSON object on one line:

    {"ready": true, "python": "3.12.3", "torch": "2.11.0+cu130", "cuda": "13.0",
     "gpu": "NVIDIA H200", "capability": "9.0", "sm_count": 132, "memory_gib": 139.8,
     "triton": "3.6.0", "name": "rmsnorm", "build_caps": "9.0"}

"name" is build.toml's [general] name (the builder's output folder); "build_caps" the
capabilities of build.toml that this GPU runs natively ("9.0", "9.0a"; the GPU's own for a CUDA
kernel that lists none, as kernel-builder's default lists hold each major.minor), for the
builder's --caps, or "" when none matches (then everything is built). Exit 0: ready; 3: torch is not
importable; 4: torch sees no CUDA GPU. The reason is also printed on stderr, for people.
Standard library and torch only.
"""

import json
import platform
import sys


def project_facts(build_toml, capability):
    facts = {}
    try:
        import tomllib

        with open(build_toml, "rb") as f:
            cfg = tomllib.load(f)
    except Exception:  # noqa: BLE001 - Python < 3.11 or no build.toml: the builder will say
        return facts
    facts["name"] = cfg.get("general", {}).get("name", "")
    if capability:
        listed = set()
        for kernel in cfg.get("kernel", {}).values():
            if kernel.get("backend", "cuda") != "cuda":
                continue
            caps = kernel.get("cuda-capabilities") or []
            if not caps:  # kernel-builder's defaults for the toolkit, which list each major.minor
                listed.add(capability)
            for cap in caps:
                base = cap.removesuffix("+PTX")
                if base.rstrip("af") == capability:
                    listed.add(base)
        facts["build_caps"] = ",".join(sorted(listed))
    return facts


def main():
    info = {"ready": False, "python": platform.python_version()}
    build_toml = sys.argv[1] if len(sys.argv) > 1 else None
    try:
        import torch
    except Exception as e:  # noqa: BLE001 - any failure to import is "no torch" here
        info["problem"] = f"torch is not installed for {sys.executable} ({type(e).__name__}: {e})"
        print(json.dumps(info))
        print(f"probe: {info['problem']}", file=sys.stderr)
        return 3
    info["torch"] = torch.__version__
    info["cuda"] = torch.version.cuda
    if not torch.cuda.is_available():
        info["problem"] = f"torch {torch.__version__} sees no CUDA GPU"
        print(json.dumps(info))
        print(f"probe: {info['problem']}", file=sys.stderr)
        return 4
    props = torch.cuda.get_device_properties(0)
    major, minor = torch.cuda.get_device_capability(0)
    info.update(ready=True, gpu=props.name, capability=f"{major}.{minor}", sm_count=props.multi_processor_count,
                memory_gib=round(props.total_memory / 2**30, 1))
    try:
        import triton

        info["triton"] = triton.__version__
    except Exception:  # noqa: BLE001 - optional
        pass
    if build_toml:
        info.update(project_facts(build_toml, info["capability"]))
    print(json.dumps(info))
    return 0


if __name__ == "__main__":
    sys.exit(main())
