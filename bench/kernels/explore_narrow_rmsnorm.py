#!/usr/bin/env python3
"""Qwen3's 128-wide q/k RMSNorm at many rows: launch shapes of our kernel
beside torch.compile and Liger, five alternating rounds per shape (median),
plus the kernel time each gets with the L2 flushed before every call.

    PYTHONPATH=kernels/build/rmsnorm:.peers/liger/src python bench/kernels/explore_narrow_rmsnorm.py --json out.json

Variants 5 and 6 exist only with results/2026-11-30-h200-v6-rmsnorm-lean-variants.diff
applied to kernels/rmsnorm/rmsnorm_cuda/rmsnorm.cu (results/
2026-11-30-h200-v6-rmsnorm-narrow2.json; an earlier set of launch shapes, with its own
.diff: 2026-11-30-h200-v6-rmsnorm-narrow.json). Measured in v6, not adopted;
without the .diff these variant numbers run the default kernel. Variants
that reduce in another order (1) may differ from the default in the last bit.
The .diffs and the results are in bench/kernels/results/archive-*.tar.xz (tar -xJf).
"""

import argparse
import importlib.util
import json
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "kernels" / "common"))
from bench_util import bench_ms, compiled, first_calls, kernel_us_cold, liger_ops  # noqa: E402

import rmsnorm  # noqa: E402

EPS = 1e-6
# variant -> launch shape for rows of 16 vectors (see rmsnorm.cu dispatch)
VARIANTS = {0: "16 lanes x 2 rows", 5: "same, plain loads fixed at compile time",
            6: "same, plain loads, 32-bit row offsets"}


def hf_rmsnorm():
    path = ROOT / "kernels" / "rmsnorm" / "benchmarks" / "benchmark.py"
    spec = importlib.util.spec_from_file_location("bench_rmsnorm", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.hf_rmsnorm


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--rows", default="65536,262144,1048576")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    L = liger_ops()
    hf = hf_rmsnorm()
    dt = torch.bfloat16
    rows_out = []
    for rows in (int(r) for r in args.rows.split(",")):
        x = torch.randn(rows, 128, device="cuda", dtype=dt)
        w = (1 + 0.1 * torch.randn(128, device="cuda")).to(dt)
        nbytes = 2 * rows * 128 * 2 + 256
        src = torch.empty(nbytes // 2, dtype=torch.uint8, device="cuda")
        dst = torch.empty_like(src)
        ref = rmsnorm.rms_norm(x, w, EPS, True)
        impls = {}
        for v in VARIANTS:
            rmsnorm.ops.set_variant(v)
            if not torch.equal(rmsnorm.rms_norm(x, w, EPS, True), ref):
                print(f"rows={rows}: variant {v} differs from the default", flush=True)
            impls[f"ours_v{v}"] = (v, lambda: rmsnorm.rms_norm(x, w, EPS, True))
        rmsnorm.ops.set_variant(0)
        first_calls(lambda: compiled(hf)(x, w, EPS))
        impls["compile"] = (None, lambda: compiled(hf)(x, w, EPS))
        if L is not None:
            liger_rms = L.rms_norm.LigerRMSNormFunction.apply
            impls["liger"] = (None, lambda: liger_rms(x, w, EPS, 0.0, "llama", False))
        impls["copy_same_bytes"] = (None, lambda: dst.copy_(src))
        times = {name: [] for name in impls}
        for _ in range(args.rounds):
            for name, (v, fn) in impls.items():
                rmsnorm.ops.set_variant(v or 0)
                fn()
                times[name].append(bench_ms(fn) * 1e3)
        cold = {}
        for name, (v, fn) in impls.items():
            if name != "copy_same_bytes":
                rmsnorm.ops.set_variant(v or 0)
                cold[name] = kernel_us_cold(fn)
        rmsnorm.ops.set_variant(0)
        line = [f"rows={rows:<8}"]
        for name, ts in times.items():
            med = sorted(ts)[len(ts) // 2]
            rows_out.append({"rows": rows, "impl": name, "label": VARIANTS.get(impls[name][0], name)
                             if impls[name][0] is not None else name, "us_median": med, "rounds_us": ts,
                             "kernel_us_cold_l2": cold.get(name), "bytes": nbytes})
            line.append(f"{name}={med:.2f}" + (f"/{cold[name]:.2f}" if name in cold else ""))
        print("  ".join(line), flush=True)
        del x, src, dst, ref
    print("(do_bench median / kernel time with a cold L2, us)")
    if args.json:
        Path(args.json).write_text(json.dumps({"device": torch.cuda.get_device_name(0), "rows": rows_out}, indent=1))


if __name__ == "__main__":
    main()
