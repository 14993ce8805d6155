"""RoPE benchmarks (H200, bf16).

Qwen3-8B: q [T, 32, 128] and k [T, 8, 128], NeoX rotate-half, against
transformers' apply_rotary_pos_emb (eager, torch.compile) and Liger's rope.
LTX-Video: interleaved RoPE over the full width of q and k [B, S, D], with
fp32 cos/sin given (diffusers' apply_rotary_emb) or computed from the grid
coordinates (diffusers' LTXVideoRotaryPosEmbed + apply); no Liger equivalent.

    PYTHONPATH=kernels/build/rope:.peers/liger/src python kernels/rope/benchmarks/benchmark.py [--json out.json]
"""

import argparse
import json
import os
import sys
from pathlib import Path

import torch

# bench_util.py beside this file: a generated copy of kernels/common/bench_util.py, so that the
# project folder benchmarks on its own (tools/sync_copies.py).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_util import Recorder, built_package, compiled, copy_bandwidth_gbs, first_calls, liger_ops  # noqa: E402

rope = built_package("rope")  # None under `kernels benchmark`, which hands the classes below the kernel
try:  # the kernels library's benchmark convention (`kernels benchmark`, `kernel-lsp bench --convention kernels`)
    from kernels.benchmark import Benchmark  # noqa: E402
except ImportError:  # kernel-lsp's own runs do not need it
    Benchmark = object

VARIANTS = os.environ.get("KBENCH_VARIANTS", "1") == "1"


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def hf_apply_rotary_pos_emb(q, k, cos, sin):
    cos = cos.unsqueeze(1)
    sin = sin.unsqueeze(1)
    return (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)


def ltx_apply(x, cos, sin):
    """diffusers LTX-Video apply_rotary_emb."""
    x_real, x_imag = x.unflatten(2, (-1, 2)).unbind(-1)
    x_rotated = torch.stack([-x_imag, x_real], dim=-1).flatten(2)
    return (x.float() * cos + x_rotated.float() * sin).to(x.dtype)


def ltx_apply_qk(q, k, cos, sin):
    return ltx_apply(q, cos, sin), ltx_apply(k, cos, sin)


def ltx_cos_sin(grid, freqs, dim: int):
    """diffusers LTXVideoRotaryPosEmbed.forward after the grid is built."""
    f = freqs * (grid.unsqueeze(-1) * 2 - 1)
    f = f.transpose(-1, -2).flatten(2)
    cos = f.cos().repeat_interleave(2, dim=-1)
    sin = f.sin().repeat_interleave(2, dim=-1)
    pad = dim % 6
    if pad:
        cos = torch.cat([torch.ones_like(cos[:, :, :pad]), cos], dim=-1)
        sin = torch.cat([torch.zeros_like(sin[:, :, :pad]), sin], dim=-1)
    return cos, sin


def ltx_full(q, k, grid, freqs):
    cos, sin = ltx_cos_sin(grid, freqs, q.shape[-1])
    return ltx_apply_qk(q, k, cos, sin)


def run(rec: Recorder, quick=False):
    L = liger_ops()
    dt = torch.bfloat16
    tokens = [1, 16, 128, 1024, 4096, 8192, 32768] if not quick else [1, 4096, 32768]
    max_pos = 40960
    cache = rope.build_cos_sin_cache(max_pos, 128, 1e6, device="cuda")
    for t in tokens:
        q4 = torch.randn(1, t, 32, 128, device="cuda", dtype=dt)
        k4 = torch.randn(1, t, 8, 128, device="cuda", dtype=dt)
        qt, kt = q4.transpose(1, 2), k4.transpose(1, 2)  # transformers' [B, H, S, D] views
        pos = torch.arange(t, device="cuda")
        c = cache[pos]
        cos = torch.cat([c[:, :64], c[:, :64]], -1)[None].to(dt)
        sin = torch.cat([c[:, 64:], c[:, 64:]], -1)[None].to(dt)
        mb = 2 * t * 40 * 128 * 2 + 2 * t * 128 * 2
        op, shape = "rope qwen3 q+k", f"T={t}"
        cache16 = cache.to(dt)
        first_calls(lambda: compiled(hf_apply_rotary_pos_emb)(qt, kt, cos, sin))  # compile before any timing
        # "ours" takes the same inputs as transformers and Liger: bf16 cos/sin
        # already gathered per token. "ours_cache" / "ours_fp32cache" index a
        # bf16 / fp32 [max_pos, 128] cache by positions (vLLM's interface: the
        # table read waits for the position load).
        rec.measure(op, shape, "ours", lambda: rope.rope_neox_cos_sin(q4, k4, cos, sin), mb)
        rec.measure(op, shape, "ours_cache", lambda: rope.rope_neox(q4, k4, pos, cache16), mb)
        rec.measure(op, shape, "ours_fp32cache", lambda: rope.rope_neox(q4, k4, pos, cache), mb)
        rec.measure(op, shape, "eager_hf", lambda: hf_apply_rotary_pos_emb(qt, kt, cos, sin), mb)
        rec.measure(op, shape, "compile", lambda: compiled(hf_apply_rotary_pos_emb)(qt, kt, cos, sin), mb)
        if L is not None:
            fn = L.rope.LigerRopeFunction.apply
            rec.measure(op, shape, "liger", lambda: fn(qt, kt, cos, sin), mb)
        if VARIANTS and t >= 1024:  # 1024: where Liger's kernel is ahead (NOTES.md, v5)
            for v in (2, 11, 31):  # v % 10: heads per thread, v // 10: load policy
                rope.ops.set_variant(v)
                rec.measure(op, shape, f"ours_v{v}", lambda: rope.rope_neox_cos_sin(q4, k4, cos, sin), mb)
            rope.ops.set_variant(0)
            # the default once more, last: checks that the order of measurement
            # no longer matters (see bench_util.first_calls)
            rec.measure(op, shape, "ours_again", lambda: rope.rope_neox_cos_sin(q4, k4, cos, sin), mb)
        rec.rematch()  # close calls, while their tensors are alive
        del q4, k4

    # LTX-Video: (B, F, H, W) latent grids of 768x512x121 (6144 tokens) and
    # 704x512x161 with CFG (2 x 7392), hidden 2048 (2B) and 4096 (13B).
    grids = [(1, 16, 24, 16), (2, 21, 22, 16)]
    dims = [2048, 4096] if not quick else [2048]
    for d in dims:
        freqs = rope.ltx_video_freqs(d, device="cuda")
        for b, f, h, w in grids:
            s = f * h * w
            grid = rope.ltx_video_grid(b, f, h, w, rope_interpolation_scale=(8 / 25.0, 32, 32), device="cuda")
            q = torch.randn(b, s, d, device="cuda", dtype=dt)
            k = torch.randn(b, s, d, device="cuda", dtype=dt)
            cos, sin = ltx_cos_sin(grid, freqs, d)
            shape = f"{b}x{s}x{d}"
            qk = 2 * 2 * b * s * d * 2
            mb = qk + 2 * b * s * d * 4
            op = "rope ltx given cos/sin"
            first_calls(lambda: compiled(ltx_apply_qk)(q, k, cos, sin))  # compile before any timing
            rec.measure(op, shape, "ours", lambda: rope.rope_interleaved(q, k, cos, sin), mb)
            rec.measure(op, shape, "eager", lambda: ltx_apply_qk(q, k, cos, sin), mb)
            rec.measure(op, shape, "compile", lambda: compiled(ltx_apply_qk)(q, k, cos, sin), mb)
            if VARIANTS and d == 4096:
                rec.measure(op, shape, "ours_again", lambda: rope.rope_interleaved(q, k, cos, sin), mb)
            op = "rope ltx from grid"
            mb = qk + b * s * 3 * 4
            first_calls(lambda: compiled(ltx_full)(q, k, grid, freqs))  # compile before any timing
            rec.measure(op, shape, "ours", lambda: rope.rope_ltx(q, k, grid, freqs), mb)
            rec.measure(op, shape, "eager", lambda: ltx_full(q, k, grid, freqs), mb)
            rec.measure(op, shape, "compile", lambda: compiled(ltx_full)(q, k, grid, freqs), mb)
            rec.rematch()  # close calls, while their tensors are alive
            del q, k, cos, sin


class RopeWorkloads(Benchmark):
    """The kernels library's convention (setup / benchmark_* / verify_*): Qwen3-8B's q and k
    (32 and 8 heads of 128) at 4,096 tokens, fp16, in place with transformers' per-token cos/sin;
    q is compared with transformers' apply_rotary_pos_emb of the same q (k is rotated alike)."""

    seed = 42

    def setup(self):
        t, dt = 4096, torch.float16
        self.q0 = torch.randn(1, t, 32, 128, device=self.device, dtype=dt)
        self.k0 = torch.randn(1, t, 8, 128, device=self.device, dtype=dt)
        self.q, self.k = self.q0.clone(), self.k0.clone()
        cache = self.kernel.build_cos_sin_cache(40960, 128, 1e6, device=self.device)[:t]
        self.cos = torch.cat([cache[:, :64], cache[:, :64]], -1)[None].to(dt)
        self.sin = torch.cat([cache[:, 64:], cache[:, 64:]], -1)[None].to(dt)
        self.out = self.q

    def benchmark_qwen3(self):
        self.kernel.rope_neox_cos_sin(self.q, self.k, self.cos, self.sin)  # in place: rotates again each call

    def verify_qwen3(self):
        # self.q holds one rotation of q0 when the runner compares (benchmark_qwen3 ran once)
        q, _ = hf_apply_rotary_pos_emb(self.q0.float().transpose(1, 2), self.k0.float().transpose(1, 2),
                                       self.cos.float(), self.sin.float())
        return q.transpose(1, 2).to(self.q0.dtype)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", type=Path)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    rec = Recorder(copy_bandwidth_gbs())
    print(f"copy bandwidth {rec.copy_gbs:.0f} GB/s")
    run(rec, args.quick)
    if args.json:
        args.json.write_text(json.dumps({"copy_gbs": rec.copy_gbs, "rows": rec.rows}, indent=1))


if __name__ == "__main__":
    main()
