#!/usr/bin/env python3
"""Figures from lossless output directories (the `lossless plot` command).

usage: plot.py OUT_DIR... [-o FIG_DIR]
For each run: queue occupancy over time (queues.csv), per-flow delivered rate over time (flow_rates.csv), the
fair rate and queue of each congested port of a switch scheme's trace (e.g. rocc.csv), and the slowdown by flow
size (fct.csv). Needs Debian's python3-matplotlib.
"""
import argparse
import csv
import os
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.stderr.write("lossless plot: needs matplotlib: apt-get install python3-matplotlib\n")
    sys.exit(2)


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


def line_plot(data, ylabel, title, path, scale=1.0):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for k, (xs, ys) in sorted(data.items()):
        ax.plot(xs, [v * scale for v in ys], label=k, linewidth=1)
    ax.set_xlabel("time (ms)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if 1 < len(data) <= 12:
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("-o", "--out", default=None)
    a = ap.parse_args()
    for d in a.dirs:
        if not os.path.isdir(d):
            sys.stderr.write(f"lossless plot: {d}: not an output directory\n")
            return 2
        out = a.out or os.path.join(d, "figures")
        os.makedirs(out, exist_ok=True)
        name = os.path.basename(os.path.normpath(d))
        made = 0
        p = os.path.join(d, "queues.csv")
        if os.path.exists(p):
            q = {k: v for k, v in series(p, ["node", "port"], y="bytes", limit=400).items() if max(v[1]) > 0}
            line_plot(dict(list(q.items())[:20]), "queue (KB)", f"{name}: egress queues", os.path.join(out, f"{name}-queues.png"), 1e-3)
            made += 1
        p = os.path.join(d, "flow_rates.csv")
        if os.path.exists(p):
            line_plot(series(p, ["flow_id"], y="rate_bps"), "delivered rate (Gb/s)", f"{name}: per-flow rate",
                      os.path.join(out, f"{name}-flow-rates.png"), 1e-9)
            made += 1
        p = os.path.join(d, "rocc.csv")
        if os.path.exists(p):
            line_plot(series(p, ["node", "port"], y="fair_rate_bps"), "fair rate (Gb/s)", f"{name}: RoCC fair rate",
                      os.path.join(out, f"{name}-fair-rate.png"), 1e-9)
            made += 1
        p = os.path.join(d, "fct.csv")
        if os.path.exists(p):
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
                path = os.path.join(out, f"{name}-slowdown.png")
                fig.savefig(path, dpi=120)
                plt.close(fig)
                print(path)
                made += 1
        if made == 0:
            sys.stderr.write(f"lossless plot: {d}: no outputs to plot\n")
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
