#!/usr/bin/env python3
"""Where do the ~5 us of a tiny call go? For a few tiny shapes, compare the
do_bench median (what the results tables report) with the GPU kernel time the
profiler records, for our kernels and the peers' (one launch each).

    PYTHONPATH=kernels/build/...:.peers/liger/src python bench/kernels/small_probe.py
"""

import sys
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "kernels" / "common"))
from bench_util import bench_ms, liger_ops  # noqa: E402

import geglu  # noqa: E402
import rmsnorm  # noqa: E402
import rope  # noqa: E402


def kernel_us(fn, n=50):
    from torch.profiler import ProfilerActivity, profile

    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(n):
            fn()
        torch.cuda.synchronize()
    total, names = 0.0, set()
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            total += e.device_time
            names.add(e.name[:60])
    return total / n, sorted(names)


def main():
    L = liger_ops()
    dt = torch.bfloat16
    x1 = torch.randn(1, 4096, device="cuda", dtype=dt)
    w1 = torch.randn(4096, device="cuda", dtype=dt)
    x8 = torch.randn(8, 128, device="cuda", dtype=dt)
    w8 = torch.randn(128, device="cuda", dtype=dt)
    g1 = torch.randn(1, 16384, device="cuda", dtype=dt)
    q = torch.randn(1, 1, 32, 128, device="cuda", dtype=dt)
    k = torch.randn(1, 1, 8, 128, device="cuda", dtype=dt)
    pos = torch.zeros(1, dtype=torch.long, device="cuda")
    cache = rope.build_cos_sin_cache(16, 128, 1e6, device="cuda")
    cos = torch.randn(1, 1, 128, device="cuda", dtype=dt)
    sin = torch.randn(1, 1, 128, device="cuda", dtype=dt)
    t = torch.zeros(1, device="cuda")
    cases = [
        ("torch add_ (1 elem)", lambda: t.add_(1)),
        ("ours rms 1x4096", lambda: rmsnorm.rms_norm(x1, w1, 1e-6, True)),
        ("F.rms_norm 1x4096", lambda: F.rms_norm(x1, (4096,), w1, 1e-6)),
        ("ours rms 8x128", lambda: rmsnorm.rms_norm(x8, w8, 1e-6, True)),
        ("F.rms_norm 8x128", lambda: F.rms_norm(x8, (128,), w8, 1e-6)),
        ("ours geglu 1x2*8192", lambda: geglu.geglu(g1)),
        ("F.gelu 1x8192", lambda: F.gelu(g1[:, :8192], approximate="tanh")),
        ("ours rope cache T=1", lambda: rope.rope_neox(q, k, pos, cache)),
        ("ours rope cos/sin T=1", lambda: rope.rope_neox_cos_sin(q, k, cos, sin)),
    ]
    if L is not None:
        qt, kt = q.transpose(1, 2), k.transpose(1, 2)
        cases.append(("liger rope T=1", lambda: L.rope.LigerRopeFunction.apply(qt, kt, cos, sin)))
        cases.append(("liger rms 1x4096", lambda: L.rms_norm.LigerRMSNormFunction.apply(x1, w1, 1e-6, 0.0, "llama", False)))
    print(f"{'case':<24} {'do_bench us':>11} {'kernel us':>10}  kernels")
    for name, fn in cases:
        b = bench_ms(fn) * 1e3
        ku, names = kernel_us(fn)
        print(f"{name:<24} {b:11.2f} {ku:10.2f}  {names}")


if __name__ == "__main__":
    main()
