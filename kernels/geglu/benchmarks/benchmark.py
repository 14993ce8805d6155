"""GEGLU benchmarks (H200, bf16): x [T, 2F] -> gelu_tanh(x[:, :F]) * x[:, F:],
against eager, torch.compile and Liger's GELU-mul (given the two halves as
separate contiguous tensors, its API).

    PYTHONPATH=kernels/build/geglu:.peers/liger/src python kernels/geglu/benchmarks/benchmark.py [--json out.json]
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

geglu = built_package("geglu")  # None under `kernels benchmark`, which hands the classes below the kernel
try:  # the kernels library's benchmark convention (`kernels benchmark`, `kernel-lsp bench --convention kernels`)
    from kernels.benchmark import Benchmark  # noqa: E402
except ImportError:  # kernel-lsp's own runs do not need it
    Benchmark = object

VARIANTS = os.environ.get("KBENCH_VARIANTS", "1") == "1"


def eager_geglu(x):
    f = x.shape[-1] // 2
    return F.gelu(x[..., :f], approximate="tanh") * x[..., f:]


def run(rec: Recorder, quick=False):
    L = liger_ops()
    dt = torch.bfloat16
    shapes = [(t, 8192) for t in (1, 128, 1024, 8192, 14784, 32768)] + [(6144, 16384)]
    if quick:
        shapes = [(1, 8192), (32768, 8192)]
    for t, f in shapes:
        x = torch.randn(t, 2 * f, device="cuda", dtype=dt)
        mb = t * 3 * f * x.element_size()
        op, shape = "geglu tanh", f"{t}x2*{f}"
        first_calls(lambda: compiled(eager_geglu)(x))  # compile before any timing
        rec.measure(op, shape, "ours", lambda: geglu.geglu(x), mb)
        rec.measure(op, shape, "eager", lambda: eager_geglu(x), mb)
        rec.measure(op, shape, "compile", lambda: compiled(eager_geglu)(x), mb)
        if L is not None:
            a, b = x[:, :f].contiguous(), x[:, f:].contiguous()
            fn = L.geglu.LigerGELUMulFunction.apply
            rec.measure(op, shape, "liger", lambda: fn(a, b), mb, note="halves as two tensors")
            rec.rematch()  # close calls, while their tensors are alive
            del a, b
        if VARIANTS and t >= 8192 or (VARIANTS and f == 16384):
            for v in (2, 11, 31):  # v % 10: vectors per thread, v // 10: load policy
                geglu.ops.set_variant(v)
                rec.measure(op, shape, f"ours_v{v}", lambda: geglu.geglu(x), mb)
            geglu.ops.set_variant(0)
        rec.rematch()  # close calls, while their tensors are alive
        del x


class GegluWorkloads(Benchmark):
    """The kernels library's convention (setup / benchmark_* / verify_*): GEGLU (tanh) of an
    8,192-wide MLP at 1,024 and 8,192 tokens, fp16, against the eager chain computed in fp32 and
    rounded once (fp16 eager rounds gelu's output first: up to a step more than the convention's
    fixed atol of 1e-2 at these magnitudes)."""

    seed = 42

    def _tokens(self, tokens):
        self.x = torch.randn(tokens, 2 * 8192, device=self.device, dtype=torch.float16)
        self.out = torch.empty(tokens, 8192, device=self.device, dtype=torch.float16)

    def setup_t1024(self):
        self._tokens(1024)

    def benchmark_t1024(self):
        self.kernel.geglu(self.x, out=self.out)

    def verify_t1024(self):
        return eager_geglu(self.x.float()).to(self.x.dtype)

    def setup_t8192(self):
        self._tokens(8192)

    def benchmark_t8192(self):
        self.kernel.geglu(self.x, out=self.out)

    def verify_t8192(self):
        return eager_geglu(self.x.float()).to(self.x.dtype)


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
