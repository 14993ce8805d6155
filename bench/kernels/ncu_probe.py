#!/usr/bin/env python3
"""Close calls under Nsight Compute: our kernel and the peer's on the same
inputs, one profiled launch each, to see why one is faster (DRAM bytes and
throughput, occupancy, registers, instructions, stalls) instead of guessing.

    ncu --profile-from-start off --cache-control all --clock-control none \\
        --metrics <list> python bench/kernels/ncu_probe.py
    (bench/kernels/run_ncu_probe.sh runs it with the metrics it reports)

Everything is called once before profiling starts (torch.compile's
compilation, Triton's autotuning, our first launch); then
cudaProfilerStart, one call of each case, cudaProfilerStop. The order of the
profiled launches is printed so that ncu's rows can be named.
NCU_CASES=rope_qwen3 profiles Qwen3 RoPE at T=1024 and 4096 instead.
"""

import importlib.util
import os
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "kernels" / "common"))
from bench_util import compiled, liger_ops  # noqa: E402

import adaln  # noqa: E402
import rmsnorm  # noqa: E402
import rope  # noqa: E402

EPS = 1e-6


def benchmark_module(project):
    """The project's benchmark module: the peers' reference code, as timed there."""
    path = ROOT / "kernels" / project / "benchmarks" / "benchmark.py"
    spec = importlib.util.spec_from_file_location(f"bench_{project}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def cases():
    L = liger_ops()
    hf_rmsnorm = benchmark_module("rmsnorm").hf_rmsnorm
    rms_mod = benchmark_module("adaln").rms_mod
    ltx_apply_qk = benchmark_module("rope").ltx_apply_qk
    dt = torch.bfloat16
    x = torch.randn(32768, 4096, device="cuda", dtype=dt)
    w = (1 + 0.1 * torch.randn(4096, device="cuda")).to(dt)
    out = [
        ("rmsnorm 32768x4096 ours (128 x 4)", lambda: rmsnorm.rms_norm(x, w, EPS, True)),
        ("rmsnorm 32768x4096 ours v2 (256 x 2)", lambda: (rmsnorm.ops.set_variant(2), rmsnorm.rms_norm(x, w, EPS, True), rmsnorm.ops.set_variant(0))),
        ("rmsnorm 32768x4096 compile", lambda: compiled(hf_rmsnorm)(x, w, EPS)),
    ]
    if L is not None:
        fn = L.rms_norm.LigerRMSNormFunction.apply
        out.append(("rmsnorm 32768x4096 liger", lambda: fn(x, w, EPS, 0.0, "llama", False)))
    b, s, d = 2, 7392, 4096
    xa = torch.randn(b, s, d, device="cuda", dtype=dt)
    sc = (0.1 * torch.randn(b, s, d, device="cuda")).to(dt)
    sh = (0.1 * torch.randn(b, s, d, device="cuda")).to(dt)
    out += [
        ("adaln per-token 2x7392x4096 ours", lambda: adaln.adaln(xa, sc, sh, EPS, "rms")),
        ("adaln per-token 2x7392x4096 compile", lambda: compiled(rms_mod)(xa, sc, sh, EPS)),
    ]
    q = torch.randn(b, s, d, device="cuda", dtype=dt)
    k = torch.randn(b, s, d, device="cuda", dtype=dt)
    ang = torch.rand(b, s, d // 2, device="cuda") * 100
    cos = ang.cos().repeat_interleave(2, dim=-1)
    sin = ang.sin().repeat_interleave(2, dim=-1)
    out += [
        ("rope ltx given 2x7392x4096 ours", lambda: rope.rope_interleaved(q, k, cos, sin)),
        ("rope ltx given 2x7392x4096 compile", lambda: compiled(ltx_apply_qk)(q, k, cos, sin)),
    ]
    return out


def rope_qwen3_cases():
    """Qwen3 RoPE at T=1024 (where Liger's kernel is ahead) and T=4096 (where
    ours is): ours by heads per thread, Liger's."""
    L = liger_ops()
    dt = torch.bfloat16
    out = []
    cache = rope.build_cos_sin_cache(8192, 128, 1e6, device="cuda")
    for t in (1024, 4096):
        q = torch.randn(1, t, 32, 128, device="cuda", dtype=dt)
        k = torch.randn(1, t, 8, 128, device="cuda", dtype=dt)
        c = cache[:t]
        cos = torch.cat([c[:, :64], c[:, :64]], -1)[None].to(dt)
        sin = torch.cat([c[:, 64:], c[:, 64:]], -1)[None].to(dt)

        def ours(v, q=q, k=k, cos=cos, sin=sin):
            rope.ops.set_variant(v)
            rope.rope_neox_cos_sin(q, k, cos, sin)
            rope.ops.set_variant(0)

        out.append((f"rope qwen3 T={t} ours", lambda ours=ours: ours(0)))
        out.append((f"rope qwen3 T={t} ours 4 heads/thread", lambda ours=ours: ours(3)))
        if L is not None:
            fn = L.rope.LigerRopeFunction.apply
            out.append((f"rope qwen3 T={t} liger",
                        lambda fn=fn, q=q, k=k, cos=cos, sin=sin: fn(q.transpose(1, 2), k.transpose(1, 2), cos, sin)))
    return out


def main():
    cs = rope_qwen3_cases() if os.environ.get("NCU_CASES") == "rope_qwen3" else cases()
    for _, fn in cs:  # compile, autotune, first launches: outside the profile
        fn()
        fn()
    torch.cuda.synchronize()
    cudart = torch.cuda.cudart()
    for name, fn in cs:
        cudart.cudaProfilerStart()
        fn()
        torch.cuda.synchronize()
        cudart.cudaProfilerStop()
        print(f"profiled: {name}", flush=True)


if __name__ == "__main__":
    main()
