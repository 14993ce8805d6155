#!/usr/bin/env python3
"""End to end: a 4-layer Qwen3 with the 8B geometry (hidden 4096, 32/8 heads,
head_dim 128, intermediate 12288), random weights built from a config (no
download), bf16, prefill. Times the forward with transformers' modules, with
our kernels patched in (RMSNorm into every Qwen3RMSNorm: input/post-attention
norms, q/k norms, final norm; RoPE into modeling_qwen3.apply_rotary_pos_emb,
in place on q/k with transformers' per-token cos/sin), and under
torch.compile; checks the patched outputs.

    PYTHONPATH=kernels/build/rmsnorm:kernels/build/rope python bench/kernels/e2e_qwen3.py --json OUT.json [--compile]
"""

import argparse
import json
import sys
import types
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "kernels" / "common"))
from bench_util import bench_ms  # noqa: E402
from qwen3_model import build_model, norms  # noqa: E402  (beside this file)

import rmsnorm  # noqa: E402
import rope  # noqa: E402

ROPE_CALLS = [0]


def our_apply_rotary_pos_emb(q, k, cos, sin, *args, **kwargs):
    """transformers' apply_rotary_pos_emb(q [B, H, S, D], k, cos/sin [B, S, D]),
    in place (q and k are fresh outputs of the q/k norms there)."""
    ROPE_CALLS[0] += 1
    rope.rope_neox_cos_sin(q.transpose(1, 2), k.transpose(1, 2), cos, sin)
    return q, k


_HF_ROPE = {}


def patch(model):
    from transformers.models.qwen3 import modeling_qwen3

    for m in norms(model):
        m.forward = types.MethodType(rmsnorm.layers.RMSNorm.forward, m)
    _HF_ROPE.setdefault("fn", modeling_qwen3.apply_rotary_pos_emb)
    modeling_qwen3.apply_rotary_pos_emb = our_apply_rotary_pos_emb


def unpatch(model):
    from transformers.models.qwen3 import modeling_qwen3

    for m in norms(model):
        if "forward" in m.__dict__:
            del m.forward
    if "fn" in _HF_ROPE:
        modeling_qwen3.apply_rotary_pos_emb = _HF_ROPE["fn"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", type=Path, required=True)
    ap.add_argument("--tokens", default="512,2048,8192")
    ap.add_argument("--vocab", type=int, default=32000)
    ap.add_argument("--compile", action="store_true")
    args = ap.parse_args()
    model = build_model(args.vocab)
    n_norms = len(norms(model))
    results = {"command": " ".join([sys.executable] + sys.argv), "norm_modules": n_norms, "vocab": args.vocab,
               "layers": 4, "geometry": "Qwen3-8B", "rows": []}
    compiled = torch.compile(model, dynamic=False) if args.compile else None
    with torch.inference_mode():
        for t in [int(x) for x in args.tokens.split(",")]:
            ids = torch.randint(0, args.vocab, (1, t), device="cuda")

            def fwd(m=model):
                return m(input_ids=ids, use_cache=False, output_hidden_states=False).logits

            unpatch(model)
            if compiled is not None:
                # compile this shape before any timing here (as the kernel
                # benchmarks do: bench_util.first_calls)
                compiled(input_ids=ids, use_cache=False)
            h_ref = model.model(input_ids=ids, use_cache=False).last_hidden_state.float()
            for _ in range(3):  # cuBLAS / allocator warm-up outside do_bench's own
                fwd()
            base = bench_ms(fwd)
            patch(model)
            ROPE_CALLS[0] = 0
            h_ours = model.model(input_ids=ids, use_cache=False).last_hidden_state.float()
            rope_calls = ROPE_CALLS[0]  # 4 when every layer took our RoPE
            for _ in range(3):
                fwd()
            ours = bench_ms(fwd)
            unpatch(model)
            rel = ((h_ours - h_ref).norm() / h_ref.norm()).item()
            same = (h_ours == h_ref).float().mean().item()
            row = {"tokens": t, "eager_ms": base, "patched_ms": ours, "speedup": base / ours,
                   "hidden_rel_err_vs_eager": rel, "hidden_identical_frac": same,
                   "rope_patched_calls": rope_calls}
            if compiled is not None:
                row["compile_ms"] = bench_ms(lambda: compiled(input_ids=ids, use_cache=False).logits)
            results["rows"].append(row)
            print(json.dumps(row), flush=True)
    args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
