#!/usr/bin/env python3
"""The figure of a sweep's comparison table: slowdown by flow size, one line per case (scheme).

usage: tools/sweep_plot.py OUT_DIR [-o FIGURE.png]
Reads OUT_DIR/sweep.json (written by `lossless sweep`: the cases in table order, each with its folder) and each
case's summary.json; draws p50 and p99 slowdown per flow-size bin side by side, every case with its own colour
and marker, the legend beside the panels (default OUT_DIR/slowdown-by-size.png). ./run.sh draws it after the
default sweep; `lossless plot OUT_DIR` on a sweep folder draws it too. Needs matplotlib (python3-matplotlib;
found under Debian's /usr/bin/python3 if the python3 that runs this has none).
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_style import legend_outside, need_matplotlib, style  # noqa: E402

need_matplotlib("sweep_plot.py")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

BINS = ["<10KB", "10K-100K", "100K-1M", "1M-10M", ">=10M"]


def case_folder(out_dir, case):
    """A case's folder: as sweep.json names it (relative to where the sweep ran), else OUT_DIR/<name>."""
    own = os.path.join(out_dir, case["name"])
    return own if os.path.isdir(own) or not case.get("dir") else case["dir"]


def draw(out_dir, output=None):
    index = os.path.join(out_dir, "sweep.json")
    try:
        sweep = json.load(open(index))
    except (OSError, json.JSONDecodeError) as e:
        sys.stderr.write(f"sweep_plot.py: {index}: not a sweep's output ({e})\n")
        return 2
    try:
        cases = [c for c in sweep["cases"] if c["ok"]]
    except (KeyError, TypeError) as e:
        sys.stderr.write(f"sweep_plot.py: {index}: not a sweep's output (no list of cases: {e!r})\n")
        return 2
    fig, axes = plt.subplots(1, 2, figsize=(13 if len(cases) > 8 else 12, 4.8), sharey=True)
    for i, case in enumerate(cases):
        try:
            with open(os.path.join(case_folder(out_dir, case), "summary.json")) as f:
                s = json.load(f)
            # A bin with no flows has nothing to show.
            per_stat = {stat: [b[stat] if b["count"] else float("nan") for b in s["slowdown_by_size"]]
                        for stat in ("p50", "p99")}
        except (OSError, json.JSONDecodeError, KeyError, TypeError) as e:
            plt.close(fig)
            sys.stderr.write(f"sweep_plot.py: {out_dir}: case {case.get('name')!r} listed as complete has no "
                             f"readable summary.json ({e!r})\n")
            return 2
        for ax, stat in zip(axes, ("p50", "p99")):
            ys = per_stat[stat]
            ax.plot(BINS[:len(ys)], ys, linewidth=1.2, markersize=5, label=case["name"], **style(i))
    if not cases:
        plt.close(fig)
        sys.stderr.write(f"sweep_plot.py: {out_dir}: no case completed\n")
        return 2
    for ax, stat in zip(axes, ("p50", "p99")):
        ax.set_yscale("log")
        ax.set_xlabel("flow size")
        ax.set_title(f"{stat} slowdown (FCT / ideal FCT) by flow size", fontsize=10)
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("slowdown")
    fig.suptitle(f"{os.path.basename(os.path.normpath(out_dir))}: {sweep.get('sweep', '')}", fontsize=10)
    legend_outside(fig, axes, len(cases))
    path = output or os.path.join(out_dir, "slowdown-by-size.png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    print(f"figure: {path}")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    return draw(a.out_dir, a.output)


if __name__ == "__main__":
    sys.exit(main())
