#!/usr/bin/env python3
"""End to end through the Hugging Face `kernels` library: a 4-layer Qwen3 with the 8B geometry
(hidden 4096, 32/8 heads, head_dim 128, intermediate 12288), random weights from a config (no
download), bf16, prefill, run four ways in the same process:

  eager                 transformers' modules
  kernelized            kernels.kernelize(model, mode=INFERENCE): our RMSNorm layer
                        (kernels/rmsnorm, built into kernel-builder's build/<variant>/) replaces
                        the forward of every Qwen3RMSNorm (input/post-attention, q/k, final norm)
  compile               torch.compile(model, dynamic=False)
  kernelized + compile  kernelize(mode=INFERENCE | TORCH_COMPILE), then torch.compile

Each forward is timed with CUDA events (median of at least 20 calls and 0.5 s), the four modes
alternating over three rounds (every other one in reverse order); a mode's time is the median of
its rounds. Per compiled mode and length: graphs compiled by the first call, graph breaks, graphs
compiled again by the timed calls (recompiles), and how many residual adds the kernel's Inductor
pass fused into the norm (kernels/rmsnorm/torch-ext/rmsnorm/compile_fusion.py). Outputs are
checked: kernelized against eager, kernelized + compile against compile (relative error of the
logits). With 4 rounds or more, the kernelized + compile / compile ratio is also taken round by
round (median, quartiles, rounds above 1). With --explain, torch._dynamo.explain's graph breaks of the kernelized model with their
stacks. With --profile T[,T...], the GPU time per kernel of both compiled modes at those lengths,
to show where they differ.

    PYTHONPATH=<kernels library source> python bench/kernels/e2e_qwen3_kernelize.py \\
        --kernel kernels/rmsnorm --json OUT.json [--tokens 128,512,2048,8192] [--profile 2048,8192]

--kernel is the project folder whose build/<variant>/ `kernel-lsp build --variant` wrote.
"""

import argparse
import copy
import importlib
import importlib.metadata
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch

from qwen3_model import build_model, norm_class, norms  # beside this file

MODES = ("eager", "kernelized", "compile", "kernelized_compile")


def import_kernels():
    """The `kernels` library from PYTHONPATH; a source checkout needs package metadata for its
    version, so a minimal dist-info stands in for an installed package where none is found."""
    try:
        return importlib.import_module("kernels")
    except importlib.metadata.PackageNotFoundError:
        site = Path(tempfile.mkdtemp(prefix="kernels-site-"))
        info = site / "kernels-0.13.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: kernels\nVersion: 0.13.0\n")
        sys.path.insert(0, str(site))
        for name in [m for m in sys.modules if m == "kernels" or m.startswith("kernels.")]:
            del sys.modules[name]
        return importlib.import_module("kernels")


def kernelized_copy(kernels, model, kernel_dir, mode):
    """A deep copy of `model` with our RMSNorm layer kernelized in for `mode`."""
    repo = kernels.LocalLayerRepository(repo_path=kernel_dir, package_name="rmsnorm", layer_name="RMSNorm")
    mapping = {"RMSNorm": {"cuda": {kernels.Mode.INFERENCE: repo,
                                    kernels.Mode.INFERENCE | kernels.Mode.TORCH_COMPILE: repo}}}
    clone = copy.deepcopy(model)
    with kernels.use_kernel_mapping(mapping, inherit_mapping=False):
        kernels.kernelize(clone, mode=mode, device="cuda", use_fallback=False)
    swapped = sum(1 for m in norms(clone) if "forward" in m.__dict__)
    return clone, swapped


def time_ms(fn, min_calls=20, min_seconds=0.5):
    """Median of per-call CUDA-event times, after three warm-up calls."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times, start_wall = [], time.perf_counter()
    while len(times) < min_calls or time.perf_counter() - start_wall < min_seconds:
        begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        begin.record()
        fn()
        end.record()
        end.synchronize()
        times.append(begin.elapsed_time(end))
    return statistics.median(times)


def dynamo_counts():
    from torch._dynamo.utils import counters

    return {"graphs": int(counters["stats"]["unique_graphs"]),
            "graph_breaks": int(sum(counters["graph_break"].values())),
            "break_reasons": sorted(counters["graph_break"].keys())[:10]}


def gpu_kernel_times(fn, calls=5):
    """GPU time per call of each kernel `fn` launches, largest first."""
    from torch.profiler import ProfilerActivity, profile

    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    per_kernel = {}
    for event in prof.events():
        if event.device_type == torch.autograd.DeviceType.CUDA:
            per_kernel[event.name] = per_kernel.get(event.name, 0.0) + event.device_time / calls
    total = sum(per_kernel.values())
    top = sorted(per_kernel.items(), key=lambda kv: -kv[1])[:25]
    return {"total_us": round(total, 1), "kernels": [{"name": n[:160], "us": round(us, 1)} for n, us in top]}


def explain_breaks(model, ids):
    """torch._dynamo.explain's graph breaks of `model`'s forward: reason and innermost frames."""
    explained = torch._dynamo.explain(model)(input_ids=ids, use_cache=False)
    breaks = []
    for reason in explained.break_reasons:
        frames = [f"{f.filename}:{f.lineno} {f.name}" for f in (reason.user_stack or [])[-4:]]
        breaks.append({"reason": str(reason.reason)[:300], "stack": frames})
    return {"graphs": explained.graph_count, "breaks": breaks}


def fused_residual_adds():
    """How many residual adds the RMSNorm package's Inductor pass has fused into the norm so far
    (its compile_fusion module, under whatever name the `kernels` library imported it); None
    when the package has no such pass."""
    for name, module in list(sys.modules.items()):
        if name.endswith(".compile_fusion") and hasattr(module, "fuse_residual_adds"):
            return module.stats["fused"]
    return None


def relative_error(a, b):
    a, b = a.float(), b.float()
    return ((a - b).norm() / b.norm()).item()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernel", type=Path, required=True, help="kernels/rmsnorm, with build/<variant>/ in it")
    ap.add_argument("--json", type=Path, required=True)
    ap.add_argument("--tokens", default="128,512,2048,8192")
    ap.add_argument("--vocab", type=int, default=32000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--profile", default="", help="profile both compiled modes at these lengths (e.g. 2048,8192)")
    ap.add_argument("--explain", action="store_true",
                    help="torch._dynamo.explain of the kernelized model at the first length: each graph break with its stack")
    args = ap.parse_args()

    import torch._dynamo

    kernels = import_kernels()
    cls = norm_class()
    decorated = getattr(cls, "kernel_layer_name", None)
    if decorated is None:  # transformers' integration is off without an installed `kernels`
        kernels.replace_kernel_forward_from_hub(cls, "RMSNorm")
    cfg = torch._dynamo.config
    cfg.cache_size_limit = max(cfg.cache_size_limit, 64)
    # Every graph compiled afresh: a graph from Inductor's cache skips the graph passes, whose
    # fusions the rows count (and a first call then times a cache load, not a compile).
    import torch._inductor.config

    torch._inductor.config.force_disable_caches = True

    base = build_model(args.vocab)
    kernel_dir = args.kernel.resolve()
    kern, swapped = kernelized_copy(kernels, base, kernel_dir, kernels.Mode.INFERENCE)
    kern_tc, swapped_tc = kernelized_copy(kernels, base, kernel_dir,
                                          kernels.Mode.INFERENCE | kernels.Mode.TORCH_COMPILE)
    models = {"eager": base, "kernelized": kern,
              "compile": torch.compile(base, dynamic=False),
              "kernelized_compile": torch.compile(kern_tc, dynamic=False)}
    results = {"command": " ".join([sys.executable] + sys.argv), "torch": torch.__version__,
               "gpu": torch.cuda.get_device_name(0), "geometry": "Qwen3-8B, 4 layers", "vocab": args.vocab,
               "kernels_library": getattr(kernels, "__version__", "?"),
               "transformers_marks_rmsnorm": decorated is not None,
               "norms_kernelized": swapped, "norms_kernelized_for_compile": swapped_tc,
               "norm_modules": len(norms(base)), "rows": []}
    print(json.dumps({k: v for k, v in results.items() if k != "rows"}), flush=True)

    with torch.inference_mode():
        for t in [int(x) for x in args.tokens.split(",")]:
            ids = torch.randint(0, args.vocab, (1, t), device="cuda")
            row = {"tokens": t}
            logits = {}
            for mode in MODES:
                # the first call, with the same arguments as the timed ones: compiles the graph
                torch._dynamo.utils.counters.clear()
                fused_before = fused_residual_adds()
                started = time.perf_counter()
                logits[mode] = models[mode](input_ids=ids, use_cache=False).logits.float()
                torch.cuda.synchronize()
                if "compile" in mode:
                    row[f"{mode}_first_call_s"] = round(time.perf_counter() - started, 2)
                    row[f"{mode}_dynamo"] = dynamo_counts()
                if mode == "kernelized_compile" and fused_before is not None:
                    row["residual_adds_fused"] = fused_residual_adds() - fused_before
            if args.explain and t == int(args.tokens.split(",")[0]):
                results["graph_breaks_kernelized"] = explain_breaks(kern_tc, ids)
            rounds = {mode: [] for mode in MODES}
            for round_index in range(args.rounds):
                # every other round in reverse order, so that no mode always runs after the same
                # one (a GPU that heats up or clocks down over a round favours the modes run first)
                for mode in (MODES if round_index % 2 == 0 else MODES[::-1]):
                    if "compile" in mode:
                        torch._dynamo.utils.counters.clear()
                    m = models[mode]
                    rounds[mode].append(time_ms(lambda: m(input_ids=ids, use_cache=False).logits))
                    if "compile" in mode:
                        row[f"{mode}_dynamo"]["recompiles"] = (row[f"{mode}_dynamo"].get("recompiles", 0)
                                                              + dynamo_counts()["graphs"])
            for mode in MODES:
                row[f"{mode}_ms"] = round(statistics.median(rounds[mode]), 4)
                row[f"{mode}_rounds_ms"] = [round(x, 4) for x in rounds[mode]]
            row["kernelized_vs_eager"] = round(row["eager_ms"] / row["kernelized_ms"], 4)
            row["kernelized_compile_vs_compile"] = round(row["compile_ms"] / row["kernelized_compile_ms"], 4)
            # The same ratio round by round: the two modes of one round ran seconds apart, so a
            # drift of the GPU's clock over the run moves both; the quartiles say how far the
            # ratio itself wanders.
            paired = sorted(c / k for c, k in zip(rounds["compile"], rounds["kernelized_compile"]))
            if len(paired) >= 4:
                row["kernelized_compile_vs_compile_paired"] = {
                    "median": round(statistics.median(paired), 4),
                    "quartiles": [round(q, 4) for q in statistics.quantiles(paired, n=4)[::2]],
                    "rounds_above_1": sum(1 for r in paired if r > 1.0), "rounds": len(paired)}
            row["compile_vs_eager"] = round(row["eager_ms"] / row["compile_ms"], 4)
            row["logits_rel_err_kernelized_vs_eager"] = relative_error(logits["kernelized"], logits["eager"])
            row["logits_rel_err_kernelized_compile_vs_compile"] = relative_error(logits["kernelized_compile"],
                                                                                 logits["compile"])
            if str(t) in args.profile.split(","):
                row["profile"] = {mode: gpu_kernel_times(lambda m=models[mode]: m(input_ids=ids, use_cache=False).logits)
                                  for mode in ("compile", "kernelized_compile")}
            results["rows"].append(row)
            print(json.dumps({k: v for k, v in row.items() if k != "profile"}), flush=True)
            del logits
    args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
