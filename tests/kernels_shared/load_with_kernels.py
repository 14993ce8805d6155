#!/usr/bin/env python3
"""On a GPU machine with torch and nvcc: builds each reference kernel with `kernel-lsp build
--variant` and loads it the three ways the Hugging Face `kernels` library loads a local kernel:
`get_local_kernel`, `LOCAL_KERNELS` with `get_kernel`, and `LocalLayerRepository` (every layer
class of the kernel's `layers`); then, for each layer, swaps the forward of a module written as
the library it stands in for writes it (Llama's RMSNorm, vLLM's GeluAndMul, transformers'
rotary application, diffusers' AdaLayerNormContinuous) with `kernelize` and compares the
outputs with the module's own.

    load_with_kernels.py KERNEL_LSP KERNELS_SOURCE OUT_DIR [--capability 9.0]

KERNELS_SOURCE is the `kernels` library's source folder (the one holding `kernels/`, e.g. the
v0.13.0 release's src/). Writes OUT_DIR/kernels-load.json; exits 1 when any check fails.
"""
import argparse
import concurrent.futures
import importlib
import inspect
import json
import os
import subprocess
import sys
import tempfile
import tomllib
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def reference_kernels():
    return sorted(p.parent for p in (ROOT / "kernels").glob("*/build.toml"))


def build(kernel_lsp, project, capability):
    ran = subprocess.run([kernel_lsp, "build", str(project), "--variant", "--capability", capability],
                         capture_output=True, text=True, timeout=1200)
    return ran.returncode, ran.stdout.strip(), ran.stderr[-3000:]


def importable_kernels(source):
    """`import kernels` from a source folder: the library reads its own version from package
    metadata, so a minimal dist-info stands in for the installed package."""
    site = Path(tempfile.mkdtemp(prefix="kernels-site-"))
    info = site / "kernels-0.13.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: kernels\nVersion: 0.13.0\n")
    sys.path[:0] = [str(Path(source).resolve()), str(site)]
    return importlib.import_module("kernels")


def op_names(namespace):
    import torch
    return sorted(n for n in torch._C._dispatch_get_all_op_names() if n.startswith(namespace + "::"))


def check_module(module, variant_folder):
    """What every loading path must give: the package of the built variant, its ops registered."""
    folder = Path(module.__file__).resolve().parent
    ops_name = module.ops.name  # torch.ops.<namespace>
    ops = op_names(ops_name)
    return {"file": str(module.__file__), "from_variant": folder == Path(variant_folder).resolve(),
            "namespace": ops_name, "ops": ops, "has_layers": hasattr(module, "layers")}


def layer_classes(module):
    import torch.nn as nn
    if not hasattr(module, "layers"):
        return []
    return sorted(name for name, value in vars(module.layers).items()
                  if inspect.isclass(value) and issubclass(value, nn.Module) and value.__module__ == module.layers.__name__)


def reference_modules():
    """For each kernel, modules written as the libraries it stands in for write them (their own
    forward, in torch), the layer name that maps them, and inputs: kernelize must swap the
    kernel's forward in and give the same outputs."""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class RMSNorm(nn.Module):  # Llama's and Qwen3's
        def __init__(self, hidden, eps=1e-6):
            super().__init__()
            self.weight = nn.Parameter(torch.randn(hidden) * 0.1 + 1.0)
            self.variance_epsilon = eps

        def forward(self, hidden_states):
            dtype = hidden_states.dtype
            x = hidden_states.to(torch.float32)
            x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.variance_epsilon)
            return self.weight * x.to(dtype)

    class GeluAndMul(nn.Module):  # vLLM's
        def __init__(self, approximate="none"):
            super().__init__()
            self.approximate = approximate

        def forward(self, x):
            d = x.shape[-1] // 2
            return F.gelu(x[..., :d], approximate=self.approximate) * x[..., d:]

    class ApplyRotaryEmbedding(nn.Module):  # transformers' apply_rotary_pos_emb as a module
        def forward(self, q, k, cos, sin):
            def rotate_half(t):
                half = t.shape[-1] // 2
                return torch.cat((-t[..., half:], t[..., :half]), dim=-1)
            cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
            return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin

    class AdaLayerNormContinuous(nn.Module):  # diffusers'
        def __init__(self, dim, conditioning_dim, eps=1e-6):
            super().__init__()
            self.silu = nn.SiLU()
            self.linear = nn.Linear(conditioning_dim, dim * 2)
            self.norm = nn.LayerNorm(dim, eps, elementwise_affine=False)

        def forward(self, x, conditioning_embedding):
            emb = self.linear(self.silu(conditioning_embedding).to(x.dtype))
            scale, shift = torch.chunk(emb, 2, dim=1)
            return self.norm(x) * (1 + scale)[:, None, :] + shift[:, None, :]

    bf16, cuda = torch.bfloat16, "cuda"
    angles = torch.randn(2, 333, 32, device=cuda)
    rotary_angles = torch.cat((angles, angles), dim=-1)  # transformers repeats the halves
    return {
        "rmsnorm": [("RMSNorm", lambda: RMSNorm(4096), lambda: (torch.randn(7, 333, 4096, device=cuda, dtype=bf16),))],
        "geglu": [("GeluAndMul", lambda: GeluAndMul("none"), lambda: (torch.randn(5, 77, 2 * 4100, device=cuda, dtype=bf16),)),
                  ("GeluTanhAndMul", lambda: GeluAndMul("tanh"), lambda: (torch.randn(33, 2 * 1000, device=cuda, dtype=bf16),))],
        "rope": [("ApplyRotaryEmbedding", ApplyRotaryEmbedding,
                  lambda: (torch.randn(2, 8, 333, 64, device=cuda, dtype=bf16), torch.randn(2, 2, 333, 64, device=cuda, dtype=bf16),
                           rotary_angles.cos().to(bf16), rotary_angles.sin().to(bf16)))],
        "adaln": [("AdaLayerNormContinuous", lambda: AdaLayerNormContinuous(1000, 256),
                   lambda: (torch.randn(2, 37, 1000, device=cuda, dtype=bf16), torch.randn(2, 256, device=cuda, dtype=bf16)))],
    }


def kernelized(kernels, project, pyname, layer_name, make_module, make_inputs):
    import torch
    import torch.nn as nn

    torch.manual_seed(0)
    module = make_module()
    cls = kernels.use_kernel_forward_from_hub(layer_name)(type(module))
    model = nn.Sequential(module).cuda().to(torch.bfloat16)
    inputs = make_inputs()
    with torch.no_grad():
        expected = model[0](*inputs)
    repository = kernels.LocalLayerRepository(Path(project), package_name=pyname, layer_name=layer_name)
    with kernels.use_kernel_mapping({layer_name: {"cuda": repository}}, inherit_mapping=False):
        kernels.kernelize(model, mode=kernels.Mode.INFERENCE, device="cuda", use_fallback=False)
    replaced = model[0].forward.__func__ is not cls.forward
    with torch.no_grad():
        got = model[0](*inputs)
    pairs = list(zip(got, expected)) if isinstance(got, tuple) else [(got, expected)]
    difference = max((g.float() - e.float()).abs().max().item() for g, e in pairs)
    close = all(torch.allclose(g.float(), e.float(), atol=3e-2, rtol=3e-2) for g, e in pairs)
    return {"forward_replaced": replaced, "max_abs_difference": difference, "close": bool(close)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kernel_lsp")
    ap.add_argument("kernels_source")
    ap.add_argument("out")
    ap.add_argument("--capability", default="9.0")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    report, failures = {"kernels": {}}, []

    projects = reference_kernels()
    with concurrent.futures.ThreadPoolExecutor(len(projects)) as pool:
        builds = dict(zip(projects, pool.map(lambda p: build(args.kernel_lsp, p, args.capability), projects)))
    kernels = importable_kernels(args.kernels_source)
    report["kernels_version"] = kernels.__version__
    for project in projects:
        name = tomllib.loads((project / "build.toml").read_text())["general"]["name"]
        pyname = name.replace("-", "_")
        code, folder, log = builds[project]
        entry = report["kernels"][name] = {"build_exit": code, "variant": folder}
        if code != 0:
            entry["build_log"] = log
            failures.append(f"{name}: build")
            continue
        entry["files"] = sorted(os.listdir(folder))
        entry["metadata"] = json.loads((Path(folder) / "metadata.json").read_text())
        ways = {
            "get_local_kernel": lambda: kernels.get_local_kernel(project, pyname),
            "LOCAL_KERNELS + get_kernel": lambda: (os.environ.__setitem__("LOCAL_KERNELS", f"kernel-lsp/{name}={project}"),
                                                   kernels.get_kernel(f"kernel-lsp/{name}"))[1],
        }
        module = None
        for way, load in ways.items():
            try:
                module = load()
                checked = entry[way] = check_module(module, folder)
                if not (checked["from_variant"] and checked["ops"] and checked["has_layers"]):
                    failures.append(f"{name}: {way}: {checked}")
            except Exception:
                entry[way] = {"error": traceback.format_exc()[-2000:]}
                failures.append(f"{name}: {way}")
        entry["LocalLayerRepository"] = {}
        for layer in layer_classes(module) if module else []:
            try:
                cls = kernels.LocalLayerRepository(project, package_name=pyname, layer_name=layer).load()
                entry["LocalLayerRepository"][layer] = cls.__qualname__
            except Exception:
                entry["LocalLayerRepository"][layer] = {"error": traceback.format_exc()[-2000:]}
                failures.append(f"{name}: LocalLayerRepository {layer}")
        if not entry["LocalLayerRepository"]:
            failures.append(f"{name}: no layer class loaded")
        print(f"{name}: {folder}: " + ", ".join(
            f"{way} {'ok' if isinstance(entry.get(way), dict) and entry[way].get('ops') else 'FAILED'}" for way in ways)
            + f", {len(entry['LocalLayerRepository'])} layer(s)", flush=True)
    references = reference_modules()
    report["kernelize"] = {}
    for project in projects:
        name = project.name
        if report["kernels"].get(name, {}).get("build_exit") != 0:
            continue
        for layer_name, make_module, make_inputs in references.get(name, []):
            key = f"{name}.{layer_name}"
            try:
                result = kernelized(kernels, project, name.replace("-", "_"), layer_name, make_module, make_inputs)
            except Exception:
                result = {"error": traceback.format_exc()[-3000:]}
            report["kernelize"][key] = result
            if not (result.get("forward_replaced") and result.get("close")):
                failures.append(f"kernelize {key}")
            print(f"kernelize {key}: {result}", flush=True)
    report["failures"] = failures
    with open(os.path.join(args.out, "kernels-load.json"), "w") as f:
        json.dump(report, f, indent=1)
    print("FAILURES: " + "; ".join(failures) if failures else "all loaded", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
