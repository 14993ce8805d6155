"""AdaLN benchmarks (H200, bf16), LTX-Video shapes: RMSNorm (no weight) then
x * (1 + scale) + shift with per-sample [B, 1, D] modulation; the LayerNorm
variant; per-token modulation; the gated residual h + branch * gate fused in
front. Against eager (diffusers' chain), torch.compile and Liger's modulated
RMSNorm where it applies.

    PYTHONPATH=kernels/build/adaln:.peers/liger/src python kernels/adaln/benchmarks/benchmark.py [--json out.json]
"""

import argparse
import json
import os
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

# bench_util.py beside this file: a generated copy of kernels/common/bench_util.py, so that the
# project folder benchmarks on its own (tools/sync_copies.py).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_util import Recorder, built_package, compiled, copy_bandwidth_gbs, first_calls, liger_ops  # noqa: E402

adaln = built_package("adaln")  # None under `kernels benchmark`, which hands the classes below the kernel
try:  # the kernels library's benchmark convention (`kernels benchmark`, `kernel-lsp bench --convention kernels`)
    from kernels.benchmark import Benchmark  # noqa: E402
except ImportError:  # kernel-lsp's own runs do not need it
    Benchmark = object

EPS = 1e-6
VARIANTS = os.environ.get("KBENCH_VARIANTS", "1") == "1"


def rms_mod(x, scale, shift, eps: float):
    """diffusers RMSNorm(elementwise_affine=False) then the modulation."""
    dt = x.dtype
    h = x.float()
    var = h.pow(2).mean(-1, keepdim=True)
    h = (h * torch.rsqrt(var + eps)).to(dt)
    return h * (1 + scale) + shift


def ln_mod(x, scale, shift, eps: float):
    return F.layer_norm(x, (x.shape[-1],), eps=eps) * (1 + scale) + shift


def gated_rms_mod(h, a, gate, scale, shift, eps: float):
    h = h + a * gate
    return rms_mod(h, scale, shift, eps), h


def run(rec: Recorder, quick=False):
    L = liger_ops()
    dt = torch.bfloat16
    shapes = [(1, 6144, 2048), (2, 7392, 2048), (2, 8192, 2048), (4, 16384, 2048), (2, 7392, 4096)]
    if quick:
        shapes = [(2, 7392, 2048)]
    for b, s, d in shapes:
        x = torch.randn(b, s, d, device="cuda", dtype=dt)
        scale = (0.1 * torch.randn(b, 1, d, device="cuda")).to(dt)
        shift = (0.1 * torch.randn(b, 1, d, device="cuda")).to(dt)
        n = b * s * d
        mb = 2 * n * 2 + 2 * b * d * 2
        shape = f"{b}x{s}x{d}"
        op = "adaln rms per-sample"
        first_calls(lambda: compiled(rms_mod)(x, scale, shift, EPS))  # compile before any timing
        rec.measure(op, shape, "ours", lambda: adaln.adaln(x, scale, shift, EPS, "rms"), mb)
        rec.measure(op, shape, "eager", lambda: rms_mod(x, scale, shift, EPS), mb)
        rec.measure(op, shape, "compile", lambda: compiled(rms_mod)(x, scale, shift, EPS), mb)
        if L is not None:
            fn = L.modulated_rms_norm.LigerModulatedRMSNormFunction.apply
            rec.measure(op, shape, "liger", lambda: fn(x, None, scale, shift, EPS), mb)
        if VARIANTS:
            # v % 10: launch shape (1: all loads first, 256 / 128 threads; 2, 5:
            # the v3 rows kernels, scale/shift read after the reduction), v // 10:
            # load policy
            for v in (1, 2, 5):
                adaln.ops.set_variant(v)
                rec.measure(op, shape, f"ours_v{v}", lambda: adaln.adaln(x, scale, shift, EPS, "rms"), mb)
            adaln.ops.set_variant(0)
            rec.measure(op, shape, "ours_again", lambda: adaln.adaln(x, scale, shift, EPS, "rms"), mb)
        if (b, s, d) in ((2, 8192, 2048), (4, 16384, 2048)):
            op = "adaln layer per-sample"
            first_calls(lambda: compiled(ln_mod)(x, scale, shift, EPS))  # compile before any timing
            rec.measure(op, shape, "ours", lambda: adaln.adaln(x, scale, shift, EPS, "layer"), mb)
            rec.measure(op, shape, "eager", lambda: ln_mod(x, scale, shift, EPS), mb)
            rec.measure(op, shape, "compile", lambda: compiled(ln_mod)(x, scale, shift, EPS), mb)
        if (b, s, d) in ((2, 7392, 2048), (2, 7392, 4096)):
            sc_t = (0.1 * torch.randn(b, s, d, device="cuda")).to(dt)
            sh_t = (0.1 * torch.randn(b, s, d, device="cuda")).to(dt)
            op = "adaln rms per-token"
            mbt = 4 * n * 2
            first_calls(lambda: compiled(rms_mod)(x, sc_t, sh_t, EPS))  # compile before any timing
            rec.measure(op, shape, "ours", lambda: adaln.adaln(x, sc_t, sh_t, EPS, "rms"), mbt)
            rec.measure(op, shape, "eager", lambda: rms_mod(x, sc_t, sh_t, EPS), mbt)
            rec.measure(op, shape, "compile", lambda: compiled(rms_mod)(x, sc_t, sh_t, EPS), mbt)
            if L is not None:
                fn = L.modulated_rms_norm.LigerModulatedRMSNormFunction.apply
                rec.measure(op, shape, "liger", lambda: fn(x, None, sc_t, sh_t, EPS), mbt)
            if VARIANTS:
                for v in (2, 9):  # 2: the v3 default (scale/shift after the reduction)
                    adaln.ops.set_variant(v)
                    rec.measure(op, shape, f"ours_v{v}", lambda: adaln.adaln(x, sc_t, sh_t, EPS, "rms"), mbt)
                adaln.ops.set_variant(0)
                rec.measure(op, shape, "ours_again", lambda: adaln.adaln(x, sc_t, sh_t, EPS, "rms"), mbt)
            rec.rematch()  # close calls, while their tensors are alive
            del sc_t, sh_t
            a = torch.randn(b, s, d, device="cuda", dtype=dt)
            gate = (0.1 * torch.randn(b, 1, d, device="cuda")).to(dt)
            op = "adaln gated residual+rms"
            mbg = 4 * n * 2 + 3 * b * d * 2
            first_calls(lambda: compiled(gated_rms_mod)(x, a, gate, scale, shift, EPS))  # compile before any timing
            rec.measure(op, shape, "ours", lambda: adaln.adaln_gated(x, a, gate, scale, shift, EPS, "rms"), mbg)
            rec.measure(op, shape, "eager", lambda: gated_rms_mod(x, a, gate, scale, shift, EPS), mbg)
            rec.measure(op, shape, "compile", lambda: compiled(gated_rms_mod)(x, a, gate, scale, shift, EPS), mbg)
            if VARIANTS:
                for v in (2, 30):
                    adaln.ops.set_variant(v)
                    rec.measure(op, shape, f"ours_v{v}", lambda: adaln.adaln_gated(x, a, gate, scale, shift, EPS, "rms"), mbg)
                adaln.ops.set_variant(0)
            rec.rematch()  # close calls, while their tensors are alive
            del a
        rec.rematch()  # close calls, while their tensors are alive
        del x


class AdaLNWorkloads(Benchmark):
    """The kernels library's convention (setup / benchmark_* / verify_*): RMS AdaLN with
    per-sample scale and shift at LTX-Video's 2 x 7,392 x 2,048, fp16, against diffusers' chain
    computed in fp32 and rounded once."""

    seed = 42

    def setup(self):
        b, s, d, dt = 2, 7392, 2048, torch.float16
        self.x = torch.randn(b, s, d, device=self.device, dtype=dt)
        self.scale = (0.1 * torch.randn(b, 1, d, device=self.device)).to(dt)
        self.shift = (0.1 * torch.randn(b, 1, d, device=self.device)).to(dt)
        self.out = torch.empty_like(self.x)

    def benchmark_ltx_per_sample(self):
        self.kernel.adaln(self.x, self.scale, self.shift, EPS, "rms", out=self.out)

    def verify_ltx_per_sample(self):
        return rms_mod(self.x.float(), self.scale.float(), self.shift.float(), EPS).to(self.x.dtype)


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
