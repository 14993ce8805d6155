# Generated from kernels/common/bench_util.py by tools/sync_copies.py; edit that file, then run the script.
"""Shared helpers for the kernel benchmarks (GPU).

Times with triton.testing.do_bench (median, L2 flushed before each call by
do_bench), measures the device-to-device copy bandwidth (bytes read + written)
as the ceiling, both of a 2 GiB copy and of a copy of each op's own bytes,
and wraps the peers: eager PyTorch, torch.compile (static shapes, one
compilation per shape) and Liger-Kernel when importable. Each project's
benchmark.py also follows the Hugging Face `kernels` library's convention
(Benchmark classes); `built_package` serves both.
"""

import importlib
import os
import sys
import time
import traceback

import torch

WARMUP_MS = float(os.environ.get("KBENCH_WARMUP_MS", "10"))
REP_MS = float(os.environ.get("KBENCH_REP_MS", "40"))
# Close calls: where ours and the best peer differ by less than REMATCH_WITHIN,
# both are timed REMATCH_ROUNDS more times, alternately (see Recorder.rematch).
REMATCH_WITHIN = float(os.environ.get("KBENCH_REMATCH_WITHIN", "0.03"))
REMATCH_ROUNDS = int(os.environ.get("KBENCH_REMATCH_ROUNDS", "4"))


def built_package(name):
    """The package the local builder wrote (on PYTHONPATH for kernel-lsp's own runs), or None
    where the script is loaded by `kernels benchmark`, which runs only its Benchmark classes and
    hands them the kernel as `self.kernel`."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def bench_ms(fn):
    import triton.testing

    return float(triton.testing.do_bench(fn, warmup=WARMUP_MS, rep=REP_MS, return_mode="median"))


def copy_bandwidth_gbs(nbytes=2 << 30):
    """Device-to-device copy of `nbytes`; returns GB/s counting read + write."""
    src = torch.empty(nbytes // 4, dtype=torch.float32, device="cuda").uniform_()
    dst = torch.empty_like(src)
    ms = bench_ms(lambda: dst.copy_(src))
    del src, dst
    torch.cuda.empty_cache()
    return 2 * nbytes / (ms * 1e-3) / 1e9


def kernel_us_cold(fn, n=20):
    """Mean GPU time per call of fn's kernels (profiler), the L2 flushed before
    each call as do_bench does. Kernels named like torch's elementwise / fill
    kernels are not counted (the flush is one), so this is for ops that launch
    other kernels: ours, Triton's (Liger, Inductor), not eager chains."""
    from torch.profiler import ProfilerActivity, profile

    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")  # as do_bench's
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(n):
            flush.zero_()
            fn()
        torch.cuda.synchronize()
    total = 0.0
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA and "elementwise" not in e.name and "fill" not in e.name.lower():
            total += e.device_time
    return total / n


_compiled = {}


def first_calls(*fns):
    """Call each fn once, before any timing at a shape: torch.compile compiles
    a new shape there, and the GPU sits idle for that second or two. Run 5
    discarded the first do_bench of ours at each shape and still saw the
    implementations timed before the compile step (ours, eager) run 3-9 %
    slower than the same code timed after it at 40-250 MB (runs 2-5); with
    the compilation first, every implementation is timed after the idle
    gap."""
    for fn in fns:
        try:
            fn()
        except Exception:  # the peer's own measure() reports the error
            pass
    torch.cuda.synchronize()


def compiled(fn):
    """torch.compile(fn) with static shapes; one compilation per new shape."""
    import torch._dynamo

    cfg = torch._dynamo.config
    for attr in ("cache_size_limit", "recompile_limit"):
        if hasattr(cfg, attr):
            setattr(cfg, attr, 1024)
    if hasattr(cfg, "accumulated_cache_size_limit"):
        cfg.accumulated_cache_size_limit = 4096
    if hasattr(cfg, "accumulated_recompile_limit"):
        cfg.accumulated_recompile_limit = 4096
    key = id(fn)
    if key not in _compiled:
        _compiled[key] = torch.compile(fn, dynamic=False)
    return _compiled[key]


def liger_ops():
    """Liger-Kernel's op modules (rms_norm, fused_add_rms_norm, geglu, rope,
    modulated_rms_norm) as attributes, or None when Liger is not importable
    (PYTHONPATH must hold Liger's src folder)."""
    import importlib
    import types

    names = ["rms_norm", "fused_add_rms_norm", "geglu", "rope", "modulated_rms_norm"]
    try:
        mods = {n: importlib.import_module(f"liger_kernel.ops.{n}") for n in names}
    except Exception as e:  # pragma: no cover - depends on the machine
        print(f"bench: Liger-Kernel unavailable: {e}", file=sys.stderr)
        return None
    return types.SimpleNamespace(**mods)


def same_size_copy_us(nbytes):
    """do_bench median of a device copy moving `nbytes` in all (half read,
    half written): the floor for a kernel of that many bytes, fixed costs of
    a launch and of a partial last wave included, which the 2 GiB copy of
    copy_bandwidth_gbs amortises away."""
    half = max(16, (nbytes // 2) // 16 * 16)
    src = torch.empty(half, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    us = bench_ms(lambda: dst.copy_(src)) * 1e3
    del src, dst
    return us


class Recorder:
    """Collects one row per (op, shape, implementation)."""

    def __init__(self, copy_gbs):
        self.copy_gbs = copy_gbs
        self.rows = []
        self._copy_us = {}  # bytes -> same_size_copy_us
        self._pending = {}  # (op, shape) -> {impl: (fn, row)} since the last rematch()

    def rematch(self):
        """Settle close calls among the shapes measured since the last call
        (call it while their tensors are alive). Where "ours" and the fastest
        peer are within REMATCH_WITHIN of each other, time the two again
        REMATCH_ROUNDS times each, alternating (ours, peer, ours, peer, ...),
        so that a drift of the GPU's speed during the run falls on both.
        Each row gets "rounds_us" (every timing, the first included) and
        "us_median"; the summary compares the medians."""
        pending, self._pending = self._pending, {}
        for (op, shape), impls in pending.items():
            ours = impls.get("ours")
            peers = {k: v for k, v in impls.items() if not k.startswith("ours") and v[1].get("us") is not None}
            if ours is None or ours[1].get("us") is None or not peers:
                continue
            best = min(peers, key=lambda k: peers[k][1]["us"])
            a, b = ours[1]["us"], peers[best][1]["us"]
            if abs(a - b) > REMATCH_WITHIN * min(a, b):
                continue
            for fn, row in (ours, peers[best]):
                row["rounds_us"] = [row["us"]]
            try:
                for _ in range(REMATCH_ROUNDS):
                    for fn, row in (ours, peers[best]):
                        row["rounds_us"].append(bench_ms(fn) * 1e3)
            except Exception:  # keep the single timings
                traceback.print_exc()
            for fn, row in (ours, peers[best]):
                t = sorted(row["rounds_us"])
                row["us_median"] = t[len(t) // 2] if len(t) % 2 else 0.5 * (t[len(t) // 2 - 1] + t[len(t) // 2])
            print(f"  {op:<22} {shape:<28} rematch ours {ours[1]['us_median']:.2f} vs {best} "
                  f"{peers[best][1]['us_median']:.2f} us (median of {len(ours[1]['rounds_us'])}, alternating)", flush=True)

    def measure(self, op, shape, impl, fn, min_bytes, note=""):
        row = {"op": op, "shape": shape, "impl": impl, "min_bytes": int(min_bytes), "note": note}
        try:
            t0 = time.time()
            fn()  # first call: compilation / autotuning outside the timing
            torch.cuda.synchronize()
            row["first_call_s"] = round(time.time() - t0, 3)
            ms = bench_ms(fn)
            row["us"] = ms * 1e3
            row["gbs"] = min_bytes / (ms * 1e-3) / 1e9
            row["pct_copy"] = 100.0 * row["gbs"] / self.copy_gbs
            if impl == "ours":
                if min_bytes not in self._copy_us:
                    self._copy_us[min_bytes] = same_size_copy_us(min_bytes)
                row["same_size_copy_us"] = self._copy_us[min_bytes]
        except Exception as e:  # keep going: one failing peer must not lose the run
            row["error"] = f"{type(e).__name__}: {e}"[:500]
            traceback.print_exc()
        self.rows.append(row)
        self._pending.setdefault((op, shape), {})[impl] = (fn, row)
        us = row.get("us")
        print(
            f"  {op:<22} {shape:<28} {impl:<14} "
            + (f"{us:9.2f} us {row['pct_copy']:6.1f}% copy" if us is not None else "ERROR " + row["error"][:80]),
            flush=True,
        )
        return row
