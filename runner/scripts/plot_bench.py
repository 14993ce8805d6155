#!/usr/bin/env python3
"""Draw a kernel benchmark's speedup plot for `kernel-lsp bench` (runner/bench_report.cpp).

    plot_bench.py RESULTS_JSON OUT_SVG [--title NAME]

RESULTS_JSON is the report folder's results.json (runner/bench_results.h, to_json): rows with
op, shape, speedup_vs_best, best_peer and pct_copy. The plot has one panel per op, in a grid:
bars are ours' speedup against the fastest peer at each shape (log scale, green where ours is
faster, red where a peer is), and a line on the right axis is ours' % of the copy bandwidth.

Exit 0: written; 3: this interpreter cannot import matplotlib (kernel-lsp then tries the next
one); 2: the input is unusable. Standard library and matplotlib only.
"""

import argparse
import json
import math
import sys

GREEN, RED, LINE = "#2a9d8f", "#e76f51", "#264653"


def load_rows(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    by_op = {}
    for row in data.get("rows", []):
        by_op.setdefault(row["op"], []).append(row)
    return data, by_op


def panel(ax, op, rows):
    """One op: speedup bars (left, log) and % of copy (right, linear)."""
    from matplotlib.ticker import FuncFormatter, NullFormatter

    xs = list(range(len(rows)))
    speedups = [r.get("speedup_vs_best") for r in rows]
    for x, s, r in zip(xs, speedups, rows):
        if s is None or s <= 0:
            ax.text(x, 1.0, "n/a", ha="center", va="bottom", fontsize=7, color="grey")
            continue
        # from 1×, so that a loss hangs below the line as far as a win of the same factor rises
        ax.bar(x, s - 1.0, bottom=1.0, width=0.7, color=GREEN if s >= 1 else RED, zorder=2)
        ax.text(x, s, f"{s:.2f}\n{r.get('best_peer') or ''}", ha="center",
                va="bottom" if s >= 1 else "top", fontsize=6, zorder=3)
    known = [s for s in speedups if s]
    low = min(known + [1.0]) / 1.6
    high = max(known + [1.0]) * 1.9
    ax.set_yscale("log")
    ax.set_ylim(low, high)
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--", zorder=1)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}×"))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ticks = [2.0 ** k for k in range(math.floor(math.log2(low)), math.ceil(math.log2(high)) + 1)]
    ax.set_yticks([t for t in ticks if low <= t <= high] or [1.0])
    ax.set_xticks(xs)
    ax.set_xticklabels([r["shape"] for r in rows], rotation=40, ha="right", fontsize=7)
    ax.set_title(op, fontsize=9)
    ax.grid(axis="y", linewidth=0.3, zorder=0)

    pct = [r.get("pct_copy") for r in rows]
    right = ax.twinx()
    right.plot([x for x, p in zip(xs, pct) if p is not None], [p for p in pct if p is not None],
               color=LINE, marker="o", markersize=3, linewidth=1, alpha=0.8)
    right.set_ylim(0, max([105.0] + [p * 1.05 for p in pct if p is not None]))
    right.tick_params(axis="y", labelsize=7)
    return ax, right


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("svg")
    ap.add_argument("--title", default="")
    args = ap.parse_args()
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch
    except Exception as e:  # noqa: BLE001 - any import failure means "not this interpreter"
        print(f"plot_bench: matplotlib is not importable here ({sys.executable}): {e}", file=sys.stderr)
        return 3
    try:
        data, by_op = load_rows(args.results)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"plot_bench: cannot read {args.results}: {e}", file=sys.stderr)
        return 2
    if not by_op:
        print(f"plot_bench: {args.results} has no rows", file=sys.stderr)
        return 2

    matplotlib.rcParams["svg.hashsalt"] = "kernel-lsp"  # same input, same file
    ops = list(by_op)
    cols = 1 if len(ops) == 1 else 2 if len(ops) <= 6 else 3
    rows = math.ceil(len(ops) / cols)
    widest = max(len(v) for v in by_op.values())
    fig, axes = plt.subplots(rows, cols, figsize=(cols * max(5.0, 0.5 * widest + 2.0), rows * 3.4), squeeze=False)
    for i, op in enumerate(ops):
        ax, right = panel(axes[i // cols][i % cols], op, by_op[op])
        if i % cols == 0:
            ax.set_ylabel("speedup vs best peer", fontsize=8)
        if i % cols == cols - 1 or i == len(ops) - 1:
            right.set_ylabel("% of copy", fontsize=8)
    for j in range(len(ops), rows * cols):
        axes[j // cols][j % cols].set_visible(False)

    machine = data.get("machine") or {}
    subtitle = " · ".join(f"{label}{machine[k]}" for k, label in (("gpu", ""), ("torch", "torch ")) if machine.get(k))
    fig.suptitle(" — ".join(t for t in (args.title, subtitle) if t) or "benchmark", fontsize=11)
    fig.legend(handles=[Patch(color=GREEN, label="ours faster (speedup ≥ 1)"),
                        Patch(color=RED, label="a peer faster"),
                        Line2D([], [], color=LINE, marker="o", markersize=3, label="ours: % of copy bandwidth")],
               loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.05, 1, 0.96))
    fig.savefig(args.svg, format="svg", metadata={"Date": None})
    return 0


if __name__ == "__main__":
    sys.exit(main())
