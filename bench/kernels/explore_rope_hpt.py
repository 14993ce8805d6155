#!/usr/bin/env python3
"""How many heads should one thread rotate? Qwen3 RoPE (q [T,32,128], k [T,8,128],
bf16, per-token cos/sin) at token counts around one wave of resident threads,
for every heads-per-thread variant of the NeoX kernel, beside Liger's kernel
and a device copy of the same bytes. Three alternating rounds per shape; the
median is printed. Output: one JSON row per (T, impl).

    PYTHONPATH=kernels/build/rope:.peers/liger/src python bench/kernels/explore_rope_hpt.py --json out.json

Variants 4-8 exist only with results/2026-11-30-h200-v6-rope-variants.diff applied to
kernels/rope/rope_cuda/rope.cu (measured in v6, none adopted; without
it they run the default kernel). Results: results/2026-11-30-h200-v6-rope-hpt.json.
The .diff and the results are in bench/kernels/results/archive-*.tar.xz (tar -xJf).
"""

import argparse
import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "kernels" / "common"))
from bench_util import bench_ms, kernel_us_cold, liger_ops  # noqa: E402

import rope  # noqa: E402

# variant -> (heads per thread, minimum blocks per SM in __launch_bounds__); see rope.cu
VARIANTS = {0: "1h/8b", 2: "2h/1b", 3: "4h/1b", 4: "2h/6b", 5: "2h/8b", 6: "4h/4b", 7: "1h/16b x128", 8: "block per token"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--tokens", default="256,512,768,1024,1280,1536,2048,3072,4096,8192")
    args = ap.parse_args()
    L = liger_ops()
    dt = torch.bfloat16
    cache = rope.build_cos_sin_cache(40960, 128, 1e6, device="cuda")
    rows = []
    props = torch.cuda.get_device_properties(0)
    print(f"{props.name}, {props.multi_processor_count} SMs")
    for t in (int(x) for x in args.tokens.split(",")):
        q = torch.randn(1, t, 32, 128, device="cuda", dtype=dt)
        k = torch.randn(1, t, 8, 128, device="cuda", dtype=dt)
        c = cache[torch.arange(t, device="cuda")]
        cos = torch.cat([c[:, :64], c[:, :64]], -1)[None].to(dt)
        sin = torch.cat([c[:, 64:], c[:, 64:]], -1)[None].to(dt)
        nbytes = 2 * t * 40 * 128 * 2 + 2 * t * 128 * 2
        src = torch.empty(nbytes // 2, dtype=torch.uint8, device="cuda")
        dst = torch.empty_like(src)
        # every variant must give the default's bits (same arithmetic per element)
        ref_q, ref_k = q.clone(), k.clone()
        rope.rope_neox_cos_sin(ref_q, ref_k, cos, sin)
        for v in VARIANTS:
            rope.ops.set_variant(v)
            tq, tk = q.clone(), k.clone()
            rope.rope_neox_cos_sin(tq, tk, cos, sin)
            if not (torch.equal(tq, ref_q) and torch.equal(tk, ref_k)):
                print(f"T={t}: variant {v} differs from the default", flush=True)
        rope.ops.set_variant(0)
        del ref_q, ref_k, tq, tk
        impls = {}
        for v in VARIANTS:
            impls[f"ours_v{v}"] = (v, lambda: rope.rope_neox_cos_sin(q, k, cos, sin))
        if L is not None:
            liger_rope = L.rope.LigerRopeFunction.apply
            impls["liger"] = (None, lambda: liger_rope(q.transpose(1, 2), k.transpose(1, 2), cos, sin))
        impls["copy_same_bytes"] = (None, lambda: dst.copy_(src))
        times = {name: [] for name in impls}
        for _ in range(3):
            for name, (v, fn) in impls.items():
                rope.ops.set_variant(v or 0)
                fn()
                times[name].append(bench_ms(fn) * 1e3)
        rope.ops.set_variant(0)
        cold = {}
        for name in ("ours_v0", "ours_v6", "ours_v8", "liger"):
            if name in impls:
                rope.ops.set_variant(impls[name][0] or 0)
                cold[name] = kernel_us_cold(impls[name][1])
        rope.ops.set_variant(0)
        print(f"T={t:<6} kernel time, cold L2 (profiler): " + "  ".join(f"{k}={v:.2f}" for k, v in cold.items()), flush=True)
        line = [f"T={t:<6}"]
        for name, ts in times.items():
            med = sorted(ts)[1]
            rows.append({"T": t, "impl": name, "label": VARIANTS.get(impls[name][0], name) if impls[name][0] is not None else name,
                         "us_median": med, "rounds_us": ts, "bytes": nbytes, "kernel_us_cold_l2": cold.get(name)})
            line.append(f"{name}={med:.2f}")
        print("  ".join(line), flush=True)
        del q, k, src, dst
    if args.json:
        Path(args.json).write_text(json.dumps({"device": props.name, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
