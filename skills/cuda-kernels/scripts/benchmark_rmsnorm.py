#!/usr/bin/env python3
"""RMSNorm micro-benchmark: correctness against float64, then time and bandwidth.

Compares, for each shape, PyTorch eager (the transformers-style fp32 chain and F.rms_norm),
torch.compile of the chain, and optionally a candidate kernel:

  --builtin            JIT-build the skill's reference kernel (assets/rmsnorm) for this GPU.
                       A measurement harness only: ship kernels through kernel-builder.
  --local PATH         a kernel-builder project or build folder, via kernels.get_local_kernel(PATH)
  --hub ORG/NAME       a Hub kernel loaded with kernels.get_kernel(ORG/NAME, version=--version)
  --fn NAME            the function to call on a loaded kernel, as fn(x, weight, eps) (default rms_norm)

Every candidate is checked first: fresh random inputs, output poisoned with NaN, relative error
against a float64 reference, and (for bf16/fp16) the largest error in units of the output dtype's
spacing. Times are medians from triton.testing.do_bench when Triton is present (it flushes L2
between runs), else CUDA events over rotating buffers. Bandwidth counts the minimum bytes moved
(read x and w, write out) and is reported as a share of a measured device-to-device copy.

Needs torch with CUDA. Exit codes: 0 ok, 1 a candidate failed its check, 2 no torch/CUDA.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import tempfile

DEFAULT_SHAPES = [
    "128x4096",      # Qwen3-8B decode-sized batch: launch-bound
    "1024x4096",
    "8192x4096",     # Qwen3-8B prefill
    "32768x4096",
    "262144x128",    # Qwen3 q_norm on [B,S,32,128] flattened: narrow rows
    "7392x2048",     # LTX-Video 2B, 512x704x161 frames
    "6144x4096",     # LTX-Video 13B hidden
]


def die(msg: str, code: int = 2) -> None:
    print(f"benchmark_rmsnorm: {msg}", file=sys.stderr)
    sys.exit(code)


try:
    import torch
    import torch.nn.functional as F
except ImportError:
    torch = None  # type: ignore[assignment]


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shapes", nargs="*", default=DEFAULT_SHAPES, help="ROWSxHIDDEN ...")
    p.add_argument("--dtype", default="bfloat16", choices=["bfloat16", "float16", "float32"])
    p.add_argument("--eps", type=float, default=1e-6)
    p.add_argument("--builtin", action="store_true")
    p.add_argument("--local", metavar="PATH")
    p.add_argument("--hub", metavar="ORG/NAME")
    p.add_argument("--version", type=int, default=1)
    p.add_argument("--trust-remote-code", action="store_true", help="allow a Hub kernel outside trusted orgs")
    p.add_argument("--fn", default="rms_norm")
    p.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    p.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    return p.parse_args()


# --------------------------------------------------------------------------- references
def chain(x, w, eps):
    """transformers' LlamaRMSNorm / Qwen3RMSNorm forward: fp32 math, rounded twice."""
    dtype = x.dtype
    h = x.float()
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps)
    return w * h.to(dtype)


def reference64(x, w, eps):
    h = x.double()
    return h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps) * w.double()


def check(name, fn, rows, hidden, dtype, eps):
    """Fresh inputs, poisoned output, float64 reference. Returns (ok, rel_err, max_ulps)."""
    x = torch.randn(rows, hidden, device="cuda", dtype=dtype) * 3 + 0.5
    w = torch.randn(hidden, device="cuda", dtype=dtype).abs() + 0.5
    # Poison the caching allocator: the output that `fn` allocates next most likely reuses this
    # NaN-filled block, so an element the kernel fails to write shows up as NaN.
    poison = torch.full_like(x, float("nan"))
    del poison
    out = fn(x, w, eps)
    torch.cuda.synchronize()
    if out.shape != x.shape or out.dtype != dtype:
        return False, math.inf, math.inf
    if not torch.isfinite(out).all():
        return False, math.inf, math.inf
    ref = reference64(x, w, eps)
    rel = ((out.double() - ref).norm() / ref.norm()).item()
    spacing = torch.finfo(dtype).eps * ref.abs().clamp_min(torch.finfo(dtype).tiny)
    ulps = ((out.double() - ref).abs() / spacing.double()).max().item()
    tol = {torch.float32: 1e-5, torch.bfloat16: 1e-2, torch.float16: 2e-3}[dtype]
    return rel <= tol, rel, ulps


# --------------------------------------------------------------------------- candidates
ASSET_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets", "rmsnorm")
BINDING = r"""
#include <optional>
#include <torch/all.h>
#include <torch/library.h>
void rms_norm(torch::Tensor& out, const torch::Tensor& input,
              const std::optional<torch::Tensor>& weight, double eps, bool round_twice);
TORCH_LIBRARY(rms_norm_skill_bench, m) {
  m.def("rms_norm(Tensor! out, Tensor input, Tensor? weight, float eps, bool round_twice) -> ()");
  m.impl("rms_norm", torch::kCUDA, &rms_norm);
}
"""


def build_builtin():
    from torch.utils import cpp_extension

    # A fixed folder, so that a second run reuses the build (ninja skips what is up to date).
    build_dir = os.path.join(tempfile.gettempdir(), "rms_norm_skill_bench_build")
    os.makedirs(build_dir, exist_ok=True)
    binding = os.path.join(build_dir, "binding.cpp")
    with open(binding, "w") as f:
        f.write(BINDING)
    major, minor = torch.cuda.get_device_capability()
    os.environ.setdefault("TORCH_CUDA_ARCH_LIST", f"{major}.{minor}")
    cpp_extension.load(
        name="rms_norm_skill_bench",
        sources=[os.path.join(ASSET_DIR, "rms_norm_torch.cu"), binding],
        extra_include_paths=[os.path.abspath(ASSET_DIR)],
        extra_cuda_cflags=["-O3", "-std=c++17"],
        build_directory=build_dir,
        is_python_module=False,
        verbose=False,
    )
    # This harness owns the namespace it registered above (a JIT build, not a kernel-builder
    # package, whose namespace is generated: there use `from ._ops import ops`).
    op = getattr(torch.ops, "rms_norm_skill_bench").rms_norm

    def run(x, w, eps):
        out = torch.empty_like(x)
        op(out, x, w, eps, True)
        return out

    return run


def load_kernel_fn(args):
    from pathlib import Path

    import kernels  # the Hugging Face `kernels` package

    if args.local:
        mod = kernels.get_local_kernel(Path(args.local))
    else:
        mod = kernels.get_kernel(args.hub, version=args.version, trust_remote_code=args.trust_remote_code)
    fn = getattr(mod, args.fn)
    return lambda x, w, eps: fn(x, w, eps)


# --------------------------------------------------------------------------- timing
def make_timer():
    try:
        from triton.testing import do_bench

        return lambda fn: do_bench(fn, warmup=25, rep=200, return_mode="median") * 1e3  # µs
    except ImportError:
        pass

    def event_timer(fn, reps=200):
        for _ in range(10):
            fn()
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
        scrub = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
        for s, e in zip(starts, ends):
            scrub.zero_()  # evict L2 so that every run reads from HBM
            s.record()
            fn()
            e.record()
        torch.cuda.synchronize()
        return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends)) * 1e3

    return event_timer


def copy_bandwidth(timer) -> float:
    n = 1 << 30
    a = torch.empty(n, dtype=torch.uint8, device="cuda").random_(0, 255)
    b = torch.empty_like(a)
    us = timer(lambda: b.copy_(a))
    return 2 * n / (us * 1e-6) / 1e9  # GB/s, bytes read + written


# --------------------------------------------------------------------------- main
def main() -> int:
    args = parse_args()
    if torch is None:
        die("PyTorch is not installed; run this on a machine with torch and a CUDA GPU")
    if not torch.cuda.is_available():
        die("torch.cuda.is_available() is False; run this on a machine with an NVIDIA GPU")
    dtype = getattr(torch, args.dtype)
    torch.manual_seed(0)
    timer = make_timer()

    candidates = {"eager chain": chain, "F.rms_norm": lambda x, w, eps: F.rms_norm(x, (x.shape[-1],), w, eps)}
    if not args.no_compile:
        from torch import _dynamo

        _dynamo.config.cache_size_limit = 64
        candidates["torch.compile"] = torch.compile(chain, dynamic=False)
    if args.builtin:
        candidates["skill kernel"] = build_builtin()
    if args.local or args.hub:
        candidates[args.local or args.hub] = load_kernel_fn(args)

    props = torch.cuda.get_device_properties(0)
    copy = copy_bandwidth(timer)
    print(f"# {props.name}, {props.multi_processor_count} SMs, torch {torch.__version__}, {args.dtype}, "
          f"eps {args.eps}; device-to-device copy {copy:.0f} GB/s")
    print("| shape | candidate | rel err | max ulps | time µs | GB/s | % of copy |")
    print("|---|---|---|---|---|---|---|")
    results, failed = [], False
    elt = torch.finfo(dtype).bits // 8
    for shape in args.shapes:
        rows, hidden = (int(s) for s in shape.lower().split("x"))
        x = torch.randn(rows, hidden, device="cuda", dtype=dtype)
        w = torch.randn(hidden, device="cuda", dtype=dtype)
        nbytes = (2 * rows * hidden + hidden) * elt
        for name, fn in candidates.items():
            ok, rel, ulps = check(name, fn, rows, hidden, dtype, args.eps)
            us = timer(lambda: fn(x, w, args.eps))
            gbs = nbytes / (us * 1e-6) / 1e9
            flag = "" if ok else " FAILED"
            failed |= not ok
            print(f"| {rows}x{hidden} | {name}{flag} | {rel:.2e} | {ulps:.1f} | {us:.1f} | {gbs:.0f} | {100 * gbs / copy:.0f} % |")
            results.append(dict(shape=shape, candidate=name, ok=ok, rel_err=rel, max_ulps=ulps,
                                time_us=us, gb_per_s=gbs, pct_of_copy=100 * gbs / copy))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(device=props.name, copy_gb_per_s=copy, dtype=args.dtype, torch=torch.__version__,
                           results=results), f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
