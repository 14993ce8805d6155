#!/usr/bin/env python3
"""Run every kernel project's benchmark in one process and write one JSON.

    python bench/kernels/bench_all.py --json OUT.json [--only rmsnorm,rope] [--quick]

Needs the built packages on PYTHONPATH (kernels/tools/build_local.py) and,
for the Liger-Kernel peer, Liger's src folder. Measures the device-to-device
copy bandwidth before and after; "pct_copy" uses their mean. Prints a table
of ours vs the best peer per shape last.
"""

import argparse
import datetime
import importlib.util
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "kernels" / "common"))

import torch  # noqa: E402

from bench_util import REMATCH_ROUNDS, REMATCH_WITHIN, Recorder, copy_bandwidth_gbs  # noqa: E402

# The reference kernels: every project under kernels/ with a build.toml.
PROJECTS = sorted(path.parent.name for path in (ROOT / "kernels").glob("*/build.toml"))


def load_benchmark(project):
    path = ROOT / "kernels" / project / "benchmarks" / "benchmark.py"
    spec = importlib.util.spec_from_file_location(f"bench_{project}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def machine_info():
    p = torch.cuda.get_device_properties(0)
    info = {
        "gpu": p.name,
        "sm_count": p.multi_processor_count,
        "memory_gib": round(p.total_memory / 2**30, 1),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "python": platform.python_version(),
    }
    try:
        import triton

        info["triton"] = triton.__version__
    except Exception:
        pass
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version,clocks.sm,clocks.max.sm,clocks.mem", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=20,
        ).stdout.strip()
        info["nvidia_smi"] = out
    except Exception:
        pass
    return info


def timing(row):
    """A row's time: the median of its alternating rounds where a close call
    was timed again (bench_util.Recorder.rematch), else its single timing."""
    return row.get("us_median", row.get("us"))


def summarize(rows, copy_gbs):
    """Per (op, shape): ours, best peer, ratio, % of copy."""
    by = {}
    for r in rows:
        by.setdefault((r["op"], r["shape"]), {})[r["impl"]] = r
    table = []
    for (op, shape), impls in by.items():
        ours_row = impls.get("ours", {})
        ours = timing(ours_row)
        peers = {k: timing(v) for k, v in impls.items() if not k.startswith("ours") and v.get("us") is not None}
        variants = {k: v["us"] for k, v in impls.items() if k.startswith("ours_") and v.get("us") is not None}
        best = min(peers, key=peers.get) if peers else None
        entry = {
            "op": op,
            "shape": shape,
            "ours_us": ours,
            "best_peer": best,
            "best_peer_us": peers.get(best) if best else None,
            "peers_us": peers,
            "variants_us": variants,
            "ours_pct_copy": (100.0 * ours_row["min_bytes"] / (ours * 1e-6) / 1e9 / copy_gbs) if ours else None,
            "rematched": "us_median" in ours_row,
            # a device copy of the same bytes over ours (100: as fast as that copy)
            "ours_pct_same_size_copy": (100.0 * ours_row["same_size_copy_us"] / ours)
            if ours and ours_row.get("same_size_copy_us") else None,
        }
        if ours and best:
            entry["speedup_vs_best"] = peers[best] / ours
        table.append(entry)
    return table


def print_table(table):
    print()
    print(f"{'op':<26} {'shape':<16} {'ours us':>9} {'%copy':>6} {'%same':>6}  {'best peer':<10} {'peer us':>9} {'x best':>6}")
    for e in table:
        ours = e["ours_us"]
        same = e.get("ours_pct_same_size_copy")
        print(
            f"{e['op']:<26} {e['shape']:<16} "
            + (f"{ours:9.2f} {e['ours_pct_copy']:6.1f} " if ours else f"{'ERR':>9} {'':>6} ")
            + (f"{same:6.1f}  " if same else f"{'':>6}  ")
            + (f"{e['best_peer']:<10} {e['best_peer_us']:9.2f} " if e["best_peer"] else f"{'-':<10} {'':>9} ")
            + (f"{e['speedup_vs_best']:6.2f}" + ("" if e["speedup_vs_best"] > 1 else "  <-- slower") if e.get("speedup_vs_best") else "")
            + ("  (median of alternating rounds)" if e.get("rematched") else "")
        )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", type=Path, required=True)
    ap.add_argument("--print-only", action="store_true", help="print the table of an existing --json file")
    ap.add_argument("--only", default=",".join(PROJECTS))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--command", default=None, help="command line to record (default: this one)")
    args = ap.parse_args()

    if args.print_only:
        doc = json.loads(args.json.read_text())
        print(f"copy bandwidth {doc['copy_gbs']:.0f} GB/s; complete: {doc.get('complete')}; failed: {doc.get('failed_projects')}")
        print_table(doc["summary"])
        return
    torch.backends.cuda.matmul.allow_tf32 = False
    copy_before = copy_bandwidth_gbs()
    print(f"copy bandwidth {copy_before:.0f} GB/s (read + write)", flush=True)
    rec = Recorder(copy_before)
    failed = {}
    info = machine_info()

    def write(copy_after=None):
        copy_gbs = copy_before if copy_after is None else (copy_before + copy_after) / 2
        for r in rec.rows:
            if r.get("gbs") is not None:
                r["pct_copy"] = 100.0 * r["gbs"] / copy_gbs
        table = summarize(rec.rows, copy_gbs)
        doc = {
            "command": args.command or " ".join([sys.executable] + sys.argv),
            "date_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "machine": info,
            "timing": "triton.testing.do_bench median, L2 flushed before each call, "
            f"warmup {os.environ.get('KBENCH_WARMUP_MS', '10')} ms, rep {os.environ.get('KBENCH_REP_MS', '40')} ms; "
            "torch.compile's first call at each shape made before any timing at that shape; "
            f"where ours and the best peer were within {100 * REMATCH_WITHIN:g} %, both timed {REMATCH_ROUNDS} "
            f"more times alternately and the summary compares the medians of the {REMATCH_ROUNDS + 1} "
            "(rows: rounds_us, us_median)",
            "copy_gbs_before": copy_before,
            "copy_gbs_after": copy_after,
            "copy_gbs": copy_gbs,
            "pct_copy": "min_bytes / time / copy_gbs (copy counts bytes read + written)",
            "same_size_copy_us": "on 'ours' rows: do_bench median of a device copy of min_bytes in all "
            "(half read, half written); summary ours_pct_same_size_copy = that / ours",
            "complete": copy_after is not None,
            "failed_projects": failed,
            "summary": table,
            "rows": rec.rows,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(doc, indent=1))
        return table

    for project in [p for p in args.only.split(",") if p]:
        print(f"== {project}", flush=True)
        try:
            load_benchmark(project).run(rec, args.quick)
        except Exception as e:  # keep the other projects' numbers
            import traceback

            traceback.print_exc()
            failed[project] = f"{type(e).__name__}: {e}"
        torch.cuda.empty_cache()
        write()  # partial results survive a time limit
    copy_after = copy_bandwidth_gbs()
    table = write(copy_after)
    print(f"\ncopy bandwidth {copy_before:.0f} / {copy_after:.0f} GB/s before / after")
    print_table(table)


if __name__ == "__main__":
    main()
