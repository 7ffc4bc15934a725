#!/usr/bin/env python3
"""Figures from lossless output folders (the `lossless plot` command).

usage: plot.py DIR... [-o FIG_DIR]
A run folder: queue occupancy over time (queues.csv), per-flow delivered rate over time (flow_rates.csv), the
fair rate of each congested port of a switch scheme's trace (e.g. rocc.csv) and the slowdown by flow size
(fct.csv), in DIR/figures (or FIG_DIR). A sweep folder (sweep.json): the comparison of its cases, slowdown by
flow size per case (DIR/slowdown-by-size.png). Several run folders: each one's figures, plus one figure that
overlays them (slowdown by flow size per run, and the busiest queue of each run when all have queues.csv) in
FIG_DIR (default ./figures).
A run folder is plotted only if its files are the outputs of one complete run: summary.json lists every output
of its run with its size, and a folder holding a file of another run, a file cut short or changed, or no
summary.json (an interrupted run) is refused with exit status 2. Needs matplotlib (python3-matplotlib).
"""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_style import legend_outside, need_matplotlib, style  # noqa: E402

need_matplotlib("lossless plot")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import sweep_plot  # noqa: E402
from run_folder import Refused, check_run  # noqa: E402

BINS = ["<10KB", "10K-100K", "100K-1M", "1M-10M", ">=10M"]


def rows(path):
    with open(path) as f:
        yield from csv.DictReader(f)


def series(path, key_fields, x="time_ns", y=None, limit=40):
    data = {}
    for r in rows(path):
        k = ":".join(r[f] for f in key_fields)
        if k not in data and len(data) >= limit:
            continue
        data.setdefault(k, ([], []))
        data[k][0].append(float(r[x]) / 1e6)
        data[k][1].append(float(r[y]))
    return data


def natural(key):
    """s0:2 before s0:10."""
    import re
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", key)]


def line_plot(data, ylabel, title, path, scale=1.0, note=None):
    fig, ax = plt.subplots(figsize=(9.5 if len(data) > 1 else 8, 4.5))
    for i, (k, (xs, ys)) in enumerate(sorted(data.items(), key=lambda kv: natural(kv[0]))):
        look = style(i)
        ax.plot(xs, [v * scale for v in ys], label=k, linewidth=1, color=look["color"], linestyle=look["linestyle"])
    ax.set_xlabel("time (ms)")
    ax.set_ylabel(ylabel)
    ax.set_title(title + (f" ({note})" if note else ""), fontsize=10)
    ax.grid(True, alpha=0.3)
    if len(data) > 1:
        legend_outside(fig, [ax], len(data), fontsize=7)
    else:
        fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print(path)


def busiest_queues(path, n):
    """The n ports with the largest peak queue: {"node:port": (times, bytes)}."""
    q = {k: v for k, v in series(path, ["node", "port"], y="bytes", limit=100000).items() if max(v[1]) > 0}
    top = sorted(q.items(), key=lambda kv: -max(kv[1][1]))[:n]
    return dict(top), len(q)


def plot_run(d, out):
    name = os.path.basename(os.path.normpath(d))
    made = []

    def target(suffix):
        os.makedirs(out, exist_ok=True)
        return os.path.join(out, f"{name}-{suffix}.png")

    p = os.path.join(d, "queues.csv")
    if os.path.exists(p):
        q, busy = busiest_queues(p, 20)
        if q:
            note = f"the 20 of {busy} non-empty ports with the largest peak" if busy > 20 else None
            line_plot(q, "queue (KB)", f"{name}: egress queues", target("queues"), 1e-3, note)
            made.append("queues")
    p = os.path.join(d, "flow_rates.csv")
    if os.path.exists(p):
        data = series(p, ["flow_id"], y="rate_bps")
        note = "the first 40 flows" if len(data) >= 40 else None
        line_plot({f"flow {k}": v for k, v in data.items()}, "delivered rate (Gb/s)", f"{name}: per-flow rate",
                  target("flow-rates"), 1e-9, note)
        made.append("flow rates")
    p = os.path.join(d, "rocc.csv")
    if os.path.exists(p):
        line_plot(series(p, ["node", "port"], y="fair_rate_bps"), "fair rate (Gb/s)", f"{name}: RoCC fair rate",
                  target("fair-rate"), 1e-9)
        made.append("fair rate")
    p = os.path.join(d, "fct.csv")
    if os.path.exists(p):
        with open(p) as f:
            header = f.readline().strip().split(",")
        if "size_bytes" not in header or "slowdown" not in header:
            raise Refused(f"{d}: fct.csv does not start with the header lossless writes: changed since the run?")
        pts = [(float(r["size_bytes"]), float(r["slowdown"])) for r in rows(p) if r["slowdown"]]
        if pts:
            fig, ax = plt.subplots(figsize=(8, 4.5))
            ax.scatter([s for s, _ in pts], [v for _, v in pts], s=3)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("flow size (bytes)")
            ax.set_ylabel("slowdown")
            ax.set_title(f"{name}: slowdown by flow size")
            fig.tight_layout()
            path = target("slowdown")
            fig.savefig(path, dpi=120)
            plt.close(fig)
            print(path)
            made.append("slowdown")
    return made


def overlay(runs, out):
    """Several runs in one figure: slowdown by size per run; the busiest queue of each when all have one."""
    os.makedirs(out, exist_ok=True)
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.8), sharey=True)
    for i, (d, s) in enumerate(runs):
        for ax, stat in zip(axes, ("p50", "p99")):
            ys = [b[stat] if b["count"] else float("nan") for b in s["slowdown_by_size"]]
            ax.plot(BINS[:len(ys)], ys, linewidth=1.2, markersize=5, label=d, **style(i))
    for ax, stat in zip(axes, ("p50", "p99")):
        ax.set_yscale("log")
        ax.set_xlabel("flow size")
        ax.set_title(f"{stat} slowdown (FCT / ideal FCT) by flow size", fontsize=10)
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("slowdown")
    legend_outside(fig, axes, len(runs))
    path = os.path.join(out, "overlay-slowdown-by-size.png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    print(path)
    if all(os.path.exists(os.path.join(d, "queues.csv")) for d, _ in runs):
        data = {}
        for d, _ in runs:
            q, _ = busiest_queues(os.path.join(d, "queues.csv"), 1)
            for port, v in q.items():
                data[f"{d} ({port})"] = v
        if data:
            line_plot(data, "queue (KB)", "busiest egress queue of each run", os.path.join(out, "overlay-queues.png"),
                      1e-3)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("-o", "--out", default=None)
    a = ap.parse_args()
    runs = []
    try:
        for d in a.dirs:
            if not os.path.isdir(d):
                raise Refused(f"{d}: not an output folder")
            if os.path.exists(os.path.join(d, "sweep.json")) and not os.path.exists(os.path.join(d, "summary.json")):
                name = os.path.basename(os.path.normpath(d))
                path = os.path.join(a.out, f"{name}-slowdown-by-size.png") if a.out else None
                if a.out:
                    os.makedirs(a.out, exist_ok=True)
                if sweep_plot.draw(d, path) != 0:
                    return 2
                continue
            runs.append((d, check_run(d)))
        for d, _ in runs:
            try:
                made = plot_run(d, a.out or os.path.join(d, "figures"))
            except (KeyError, ValueError, TypeError, IndexError) as e:
                # Files of the run's size whose content is not what lossless wrote.
                raise Refused(f"{d}: an output file does not read as lossless wrote it ({e!r}): changed since "
                              "the run?")
            if not made:
                fct = os.path.join(d, "fct.csv")
                if os.path.exists(fct):
                    flows = sum(1 for _ in rows(fct))
                    others = [n for n in ("queues.csv", "flow_rates.csv", "rocc.csv")
                              if os.path.exists(os.path.join(d, n))]
                    print(f"lossless plot: {d}: nothing to draw: no flow of the {flows} in fct.csv finished "
                          "(no slowdown)" + (f" and {', '.join(others)} held nothing to draw" if others else
                                             ", and the run recorded no queues.csv, flow_rates.csv or scheme trace"),
                          file=sys.stderr)
                    continue
                raise Refused(f"{d}: nothing to plot (no fct.csv, queues.csv, flow_rates.csv or scheme trace)")
        if len(runs) > 1:
            try:
                overlay(runs, a.out or "figures")
            except (KeyError, ValueError, TypeError, IndexError) as e:
                raise Refused(f"a summary.json does not read as lossless wrote it ({e!r}): changed since the run?")
    except Refused as e:
        sys.stderr.write(f"lossless plot: {e}\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
