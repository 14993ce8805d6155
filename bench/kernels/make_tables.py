#!/usr/bin/env python3
"""Markdown tables from a bench_all.py JSON (for kernels/README.md and NOTES.md).

    python3 bench/kernels/make_tables.py bench/kernels/results/h200-final.json
"""

import json
import sys


def main(path):
    d = json.load(open(path))
    m = d["machine"]
    print(f"Machine: {m.get('gpu')} ({m.get('sm_count')} SMs), torch {m.get('torch')}, CUDA {m.get('cuda')}, "
          f"triton {m.get('triton')}; copy {d['copy_gbs']:.0f} GB/s (read + write); {d['timing']}.")
    print(f"Command: `{d['command']}`  ({d['date_utc']})")
    print()
    if any(e.get("rematched") for e in d["summary"]):
        print("† close call: ours and the best peer timed 5 times each, alternately; medians shown.")
        print()
    same = any(e.get("ours_pct_same_size_copy") for e in d["summary"])
    if same:
        print("% of copy: against the 2 GiB copy's bandwidth; same-size: a copy of the same bytes timed the same way"
              " (launch and last-wave costs included) over ours.")
        print()
    print("| op | shape | ours µs | % of copy |" + (" same-size |" if same else "")
          + " best peer | peer µs | speedup | eager | compile | Liger |")
    print("|---|---|---:|---:|" + ("---:|" if same else "") + "---|---:|---:|---:|---:|---:|")
    for e in d["summary"]:
        p = e["peers_us"]
        eager = min([v for k, v in p.items() if k.startswith("eager")], default=None)
        f = lambda v: f"{v:.1f}" if v is not None else "–"
        sp = e.get("speedup_vs_best")
        mark = ("" if sp is None or sp >= 1 else " ✗") + (" †" if e.get("rematched") else "")
        ss = f" {f(e.get('ours_pct_same_size_copy'))} |" if same else ""
        print(f"| {e['op']} | {e['shape']} | {f(e['ours_us'])} | {f(e['ours_pct_copy'])} |{ss} {e['best_peer'] or '–'} | "
              f"{f(e['best_peer_us'])} | {(f'{sp:.2f}' if sp else '–')}{mark} | {f(eager)} | {f(p.get('compile'))} | {f(p.get('liger'))} |")


if __name__ == "__main__":
    main(sys.argv[1])
