#!/usr/bin/env python3
"""Runs a kernel project's benchmarks written to the Hugging Face `kernels` convention
(`kernels.benchmark.Benchmark` subclasses in benchmarks/benchmark*.py, what `kernels benchmark`
runs) and writes the results in kernel-lsp's benchmark JSON (kernels/common/bench_util.py's
Recorder format), so that `kernel-lsp bench` reports, plots and keeps history for them as for its
own benchmarks.

    run_kernels_benchmarks.py PROJECT --kernel DIR --package NAME --json OUT
                              [--upstream-json OUT2] [--warmup 10] [--iterations 100]

The convention, as `kernels benchmark` runs it:
- every benchmarks/benchmark*.py, in name order, is loaded as the module `benchmark_module` with
  the project as the working directory; its classes are the Benchmark subclasses it defines
  (a subclass of a class it imports counts, the imported class does not);
- each `benchmark_<w>` method of a class is one workload, run on a fresh instance with `kernel`
  (the built kernel) and `device` set, the seed applied (torch, random, CUDA), then
  `setup_<w>()` if the class has it, else `setup()`;
- with a `verify_<w>`, the workload runs once, then the reference that `verify_<w>` returns is
  timed (warm-up, then one call) and compared with `instance.out` (torch.allclose, atol 1e-2);
- the workload is warmed up, then timed `iterations` times, each call followed by a device sync.

One row per (class, workload) and implementation comes out: op = the class, shape = the workload,
impl "ours" (the kernel; its time is the mean) and "reference" (the verify function, a peer). Where
kernels benchmark would stop at a mismatch, this records the mismatch as ours' error (with the
largest difference) and goes on with the other workloads, so that one wrong workload does not hide
the others' numbers (the caller counts ours' errors: `kernel-lsp bench` then exits 1).

The kernel comes from `kernels.get_local_kernel` where the `kernels` library is importable, else
from the variant folder that matches this torch and CUDA (kernels/tools/variant_layout.py).
Without `kernels`, `kernels.benchmark.Benchmark` is provided here, so a project's scripts import
it either way; scripts that use more of `kernels` (e.g. the classes of `kernels.benchmarks`) need
the library itself.
"""

import argparse
import datetime
import importlib.util
import json
import math
import os
import platform
import random
import sys
import time
import traceback
import types
from pathlib import Path

ATOL = 1e-2  # kernels benchmark's tolerance


def provide_benchmark_base():
    """`kernels.benchmark.Benchmark`: the library's where it imports, else a class with the same
    attributes (seed, device, kernel, out, setup)."""
    try:
        from kernels.benchmark import Benchmark

        return Benchmark, "kernels"
    except ImportError:
        pass

    class Benchmark:
        seed = None
        device = "cpu"

        def __init__(self):
            self.kernel = None
            self.out = None

        def setup(self):
            pass

    package = types.ModuleType("kernels")
    package.__path__ = []  # a package, so that `kernels.benchmark` resolves
    module = types.ModuleType("kernels.benchmark")
    module.Benchmark = Benchmark
    Benchmark.__module__ = "kernels.benchmark"
    package.benchmark = module
    sys.modules.setdefault("kernels", package)
    sys.modules["kernels.benchmark"] = module
    return Benchmark, "kernel-lsp"


def variant_folder(kernel_dir: Path):
    """The folder to import: `kernel_dir` itself when it is a package, else the variant of it
    that kernel-builder names for this torch and CUDA."""
    if (kernel_dir / "__init__.py").is_file():
        return kernel_dir
    import torch

    tools = Path(__file__).resolve().parents[2] / "kernels" / "tools"
    sys.path.insert(0, str(tools))
    import variant_layout

    name = variant_layout.variant_name(torch.__version__, torch.version.cuda or "0.0")
    for candidate in (name, f"torch-{'cuda' if torch.version.cuda else 'cpu'}", "torch-universal"):
        if (kernel_dir / candidate / "__init__.py").is_file():
            return kernel_dir / candidate
    present = sorted(p.name for p in kernel_dir.iterdir() if p.is_dir()) if kernel_dir.is_dir() else []
    raise SystemExit(f"run_kernels_benchmarks: no variant {name} in {kernel_dir} (there: {', '.join(present) or 'nothing'})")


def load_kernel(kernel_dir: Path, package: str, library: str):
    if library == "kernels":
        import kernels

        return kernels.get_local_kernel(kernel_dir, package)
    folder = variant_folder(kernel_dir)
    spec = importlib.util.spec_from_file_location(f"{package}_kernel_lsp_bench", folder / "__init__.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def benchmark_classes(script: Path, project: Path, base):
    """The Benchmark subclasses `script` defines, in name order (as kernels benchmark lists them)."""
    spec = importlib.util.spec_from_file_location("benchmark_module", script)
    module = importlib.util.module_from_spec(spec)
    sys.modules["benchmark_module"] = module
    previous = os.getcwd()
    os.chdir(project)
    try:
        spec.loader.exec_module(module)
    finally:
        os.chdir(previous)
    return [obj for _, obj in sorted(vars(module).items())
            if isinstance(obj, type) and issubclass(obj, base) and obj is not base
            and obj.__module__ == "benchmark_module"]


def synchronize(torch):
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def device_name(torch):
    return "cuda" if torch.cuda.is_available() else "cpu"


def quartiles(times):
    ordered = sorted(times)

    def at(p):
        k = (len(ordered) - 1) * p
        lo, hi = math.floor(k), math.ceil(k)
        return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)

    return at(0.25), at(0.75)


def timing_stats(times_ms):
    mean = sum(times_ms) / len(times_ms)
    std = (sum((t - mean) ** 2 for t in times_ms) / len(times_ms)) ** 0.5
    q1, q3 = quartiles(times_ms)
    iqr = q3 - q1
    outliers = sum(1 for t in times_ms if t < q1 - 1.5 * iqr or t > q3 + 1.5 * iqr)
    return {"mean_ms": round(mean, 4), "std_ms": round(std, 4), "min_ms": round(min(times_ms), 4),
            "max_ms": round(max(times_ms), 4), "q1_ms": round(q1, 4), "q3_ms": round(q3, 4),
            "iqr_ms": round(iqr, 4), "outliers": outliers, "iterations": len(times_ms)}


def mismatch(torch, out, reference):
    """Why `out` is not `reference` within ATOL, or None when it is."""
    if not isinstance(out, torch.Tensor):
        return f"the workload left self.out as {type(out).__name__}, not a tensor to compare"
    if out.shape != reference.shape:
        return f"self.out has shape {tuple(out.shape)}, the reference {tuple(reference.shape)}"
    if torch.allclose(out, reference, atol=ATOL):
        return None
    diff = (out.float() - reference.float()).abs()
    return f"does not match the reference: max abs diff {diff.max().item():.4g} > atol {ATOL}"


def run_workload(torch, cls, workload, kernel, args):
    """(timings of ours, reference ms or None, error or None) for one workload."""
    instance = cls()
    instance.kernel = kernel
    instance.device = device_name(torch)
    if instance.seed is not None:
        torch.manual_seed(instance.seed)
        random.seed(instance.seed)
        if torch.cuda.is_available():
            torch.cuda.manual_seed_all(instance.seed)
    setup = getattr(instance, f"setup_{workload}", None) or instance.setup
    setup()
    run = getattr(instance, f"benchmark_{workload}")
    verify = getattr(instance, f"verify_{workload}", None)
    reference_ms, error = None, None
    if verify is not None:
        run()
        synchronize(torch)
        for _ in range(args.warmup):
            verify()
            synchronize(torch)
        start = time.perf_counter()
        reference = verify()
        synchronize(torch)
        reference_ms = (time.perf_counter() - start) * 1e3
        error = mismatch(torch, instance.out, reference)
    for _ in range(args.warmup):
        run()
        synchronize(torch)
    times = []
    for _ in range(args.iterations):
        start = time.perf_counter()
        run()
        synchronize(torch)
        times.append((time.perf_counter() - start) * 1e3)
    return timing_stats(times), reference_ms, error


def machine_facts(torch):
    facts = {"torch": torch.__version__, "python": platform.python_version(), "os": platform.platform()}
    if torch.cuda.is_available():
        props = torch.cuda.get_device_properties(0)
        facts.update(gpu=props.name, cuda=torch.version.cuda, capability=f"{props.major}.{props.minor}",
                     sms=props.multi_processor_count)
    else:
        facts["gpu"] = None
    return facts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("project", type=Path)
    ap.add_argument("--kernel", type=Path, required=True,
                    help="the built kernel: a folder of build variants (build/), or one variant folder")
    ap.add_argument("--package", required=True, help="the kernel's Python package name")
    ap.add_argument("--json", type=Path, required=True, help="results in kernel-lsp's benchmark JSON")
    ap.add_argument("--upstream-json", type=Path, help="also the results as `kernels benchmark --output` writes them")
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--iterations", type=int, default=100)
    args = ap.parse_args()
    if args.iterations < 1 or args.warmup < 0:
        raise SystemExit("run_kernels_benchmarks: --iterations must be at least 1 and --warmup not negative")

    import torch

    project = args.project.resolve()
    scripts = sorted((project / "benchmarks").glob("benchmark*.py"))
    if not scripts:
        raise SystemExit(f"run_kernels_benchmarks: no benchmarks/benchmark*.py in {project}")
    base, library = provide_benchmark_base()
    kernel = load_kernel(args.kernel.resolve(), args.package, library)
    print(f"run_kernels_benchmarks: kernel {kernel.__name__} from {args.kernel} (through {library}), "
          f"device {device_name(torch)}, {args.warmup} warm-up calls and {args.iterations} timed",
          flush=True)

    rows, upstream, failures, classes_seen = [], [], 0, 0
    for script in scripts:
        classes = benchmark_classes(script, project, base)
        classes_seen += len(classes)
        for cls in classes:
            workloads = sorted(n[len("benchmark_"):] for n in dir(cls)
                               if n.startswith("benchmark_") and callable(getattr(cls, n)))
            for workload in workloads:
                try:
                    stats, reference_ms, error = run_workload(torch, cls, workload, kernel, args)
                except Exception as e:  # one workload's failure is that workload's
                    traceback.print_exc()
                    rows.append({"op": cls.__name__, "shape": workload, "impl": "ours",
                                 "error": f"{type(e).__name__}: {e}"[:500], "script": script.name})
                    failures += 1
                    continue
                ours = {"op": cls.__name__, "shape": workload, "impl": "ours", "us": stats["mean_ms"] * 1e3,
                        "timing_ms": stats, "script": script.name}
                if error:
                    ours["error"] = error
                    failures += 1
                rows.append(ours)
                if reference_ms is not None:
                    rows.append({"op": cls.__name__, "shape": workload, "impl": "reference",
                                 "us": reference_ms * 1e3, "note": "verify_" + workload})
                verdict = "no reference" if reference_ms is None else (error or "matches the reference")
                print(f"  {cls.__name__}.{workload}: {stats['mean_ms']:.4f} ms mean "
                      f"(std {stats['std_ms']:.4f}, {stats['iterations']} runs)"
                      + (f", reference {reference_ms:.4f} ms" if reference_ms is not None else "")
                      + f"; {verdict}", flush=True)
                entry = {"workload": f"{cls.__name__}.{workload}", "timingResults": stats}
                if reference_ms is not None:
                    entry["verified"] = error is None
                upstream.append(entry)
    if classes_seen == 0:
        raise SystemExit(f"run_kernels_benchmarks: no kernels.benchmark.Benchmark subclass in {', '.join(s.name for s in scripts)}")

    machine = machine_facts(torch)
    date = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    args.json.write_text(json.dumps({"convention": "kernels.benchmark", "warmup": args.warmup,
                                     "iterations": args.iterations, "machine": machine, "date_utc": date,
                                     "rows": rows}, indent=1))
    if args.upstream_json:
        args.upstream_json.write_text(json.dumps({"results": upstream, "machineInfo": machine,
                                                  "benchmarkScriptPath": "benchmarks"}, indent=1))
    if failures:
        print(f"run_kernels_benchmarks: {failures} workload(s) failed or did not match their reference", flush=True)


if __name__ == "__main__":
    main()
