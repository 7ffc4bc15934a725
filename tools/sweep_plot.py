#!/usr/bin/env python3
"""The figure of a sweep's comparison table: slowdown by flow size, one line per case (scheme).

usage: tools/sweep_plot.py OUT_DIR [-o FIGURE.png]
Reads OUT_DIR/sweep.json (written by `lossless sweep`: the cases in table order) and each case's summary.json;
draws p50 and p99 slowdown per flow-size bin side by side (default OUT_DIR/slowdown-by-size.png). ./run.sh
draws it after the default sweep. Needs Debian's python3-matplotlib.
"""
import argparse
import json
import os
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.stderr.write("sweep_plot.py: needs matplotlib: apt-get install python3-matplotlib\n")
    sys.exit(2)

BINS = ["<10KB", "10K-100K", "100K-1M", "1M-10M", ">=10M"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    index = os.path.join(a.out_dir, "sweep.json")
    try:
        sweep = json.load(open(index))
    except (OSError, json.JSONDecodeError) as e:
        sys.stderr.write(f"sweep_plot.py: {index}: not a sweep's output ({e})\n")
        return 2
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    drawn = 0
    for case in sweep["cases"]:
        if not case["ok"]:
            continue
        s = json.load(open(os.path.join(a.out_dir, case["name"], "summary.json")))
        for ax, stat in zip(axes, ("p50", "p99")):
            # A bin with no flows has nothing to show (its statistics are 0).
            ys = [b[stat] if b["count"] else float("nan") for b in s["slowdown_by_size"]]
            ax.plot(BINS[:len(ys)], ys, marker="o", linewidth=1.2, label=case["name"])
        drawn += 1
    if not drawn:
        sys.stderr.write(f"sweep_plot.py: {a.out_dir}: no case ran\n")
        return 2
    for ax, stat in zip(axes, ("p50", "p99")):
        ax.set_yscale("log")
        ax.set_xlabel("flow size")
        ax.set_title(f"{stat} slowdown (FCT / ideal FCT) by flow size")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("slowdown")
    axes[1].legend(fontsize=8)
    fig.suptitle(f"{os.path.basename(os.path.normpath(a.out_dir))}: {sweep['sweep']}", fontsize=10)
    fig.tight_layout()
    path = a.output or os.path.join(a.out_dir, "slowdown-by-size.png")
    fig.savefig(path, dpi=100)
    print(f"figure: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
