#!/usr/bin/env python3
"""Fidelity report: runs the HPCC reference cases through `lossless hpcc` for DCQCN, HPCC, TIMELY and DCTCP
and writes docs/fidelity.md with our slowdown statistics beside the HPCC ns-3 simulator's.

Cases (320-host fat tree, the HPCC simulator's presets; references are that simulator's results on the same
config, topology and flow files):
  experiments/hpcc-ws30/            WebSearch 30 % load (no PFC pause)
  experiments/hpcc-fidelity/fb30/   FB_Hadoop 30 % load
  experiments/hpcc-fidelity/ws30inc/ WebSearch 30 % + 2 % load of 60 x 500 KB incasts (PFC pauses)

usage: tools/fidelity.py [--lossless build/lossless] [--out out/fidelity] [--report docs/fidelity.md] [--threads N]
       [--case NAME]...
Tolerance (issue 3): overall p50 and p95 within 10 %, p99 within 20 %, p50 within 15 % in every size bin with
>= 100 flows; each bin's p95 is reported beside. Standard library only.
"""
import argparse
import json
import os
import subprocess
import sys

SCHEMES = [("DCQCN", "dcqcn"), ("HPCC", "hp"), ("TIMELY", "timely"), ("DCTCP", "dctcp")]
CASES = [
    ("ws30", "hpcc-ws30", "WebSearch 30 % load, 6,984 flows"),
    ("fb30", "hpcc-fidelity/fb30", "FB_Hadoop 30 % load, 99,135 flows"),
    ("ws30inc", "hpcc-fidelity/ws30inc",
     "WebSearch 30 % load + 2 % load of 60 x 500 KB incasts (24 events), 8,622 flows"),
]
BINS = ["<10K", "10K-100K", "100K-1M", "1M-10M", ">=10M"]


def rel(ours, ref):
    return (ours - ref) / ref


def main():
    ap = argparse.ArgumentParser()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--lossless", default=os.path.join(root, "build", "lossless"))
    ap.add_argument("--out", default=os.path.join(root, "out", "fidelity"))
    ap.add_argument("--report", default=os.path.join(root, "docs", "fidelity.md"))
    ap.add_argument("--threads", type=int, default=min(2, os.cpu_count() or 1),
                    help="threads per run (outputs do not depend on it)")
    ap.add_argument("--case", action="append", choices=[c[0] for c in CASES],
                    help="run only these cases (default: all)")
    args = ap.parse_args()
    rows, ok_all = [], True
    for case, sub, what in CASES:
        if args.case and case not in args.case:
            continue
        case_dir = os.path.join(root, "experiments", sub)
        for scheme, tag in SCHEMES:
            out = os.path.join(args.out, case, scheme.lower())
            subprocess.run([args.lossless, "hpcc", os.path.join(case_dir, f"config_{tag}.txt"), "-o", out,
                            "--quiet", "--threads", str(args.threads)], check=True)
            ours = json.load(open(os.path.join(out, "summary.json")))
            ref = json.load(open(os.path.join(case_dir, f"ns3_{tag}_stats.json")))
            checks = []
            for key, tol in (("p50", 0.10), ("p95", 0.10), ("p99", 0.20)):
                checks.append((f"overall {key}", ours["slowdown"][key], ref[key], tol))
            for name, ob, rb in zip(BINS, ours["slowdown_by_size"], ref["bins"]):
                if rb["count"] >= 100:
                    checks.append((f"{name} p50", ob["p50"], rb["p50"], 0.15))
            ok = all(abs(rel(o, r)) <= t for _, o, r, t in checks)
            rows.append((case, sub, what, scheme, ours, ref, checks, ok))
            ok_all &= ok

    lines = ["# Fidelity against the HPCC ns-3 simulator", "",
             "Produced by `tools/fidelity.py`: each case is the HPCC simulator's own config format, topology and flow",
             "file (320-host fat tree, HPCC-paper presets of each scheme), run with `lossless hpcc CONFIG.txt`.",
             "Reference numbers: `ns3_*_stats.json` beside each config (HPCC simulator at commit 9f4be2a, runs",
             "described in each case's REFERENCE.md). Slowdown = FCT / standalone FCT; percentile = sorted value at",
             "index round(p/100 (n-1)). Tolerance: overall p50 and p95 within 10 %, p99 within 20 %, p50 within 15 %",
             "in every bin with >= 100 flows; bins' p95 are reported beside (not checked).", "",
             "| case | scheme | p50 | p95 | p99 | worst bin p50 | within |", "|---|---|---|---|---|---|---|"]
    for case, sub, what, scheme, ours, ref, checks, ok in rows:
        by = {n: rel(o, r) for n, o, r, _ in checks}
        bins = [v for n, v in by.items() if not n.startswith("overall")]
        worst = max(bins, key=abs) if bins else 0.0
        lines.append(f"| {case} | {scheme} | {100*by['overall p50']:+.1f} % | {100*by['overall p95']:+.1f} % | "
                     f"{100*by['overall p99']:+.1f} % | {100*worst:+.1f} % | {'yes' if ok else 'NO'} |")
    lines.append("")
    for case, sub, what, scheme, ours, ref, checks, ok in rows:
        ref_done = ref["count"]
        ref_total = ref.get("flows_total", ref_done)
        ref_pfc = ref.get("pause_frames")
        lines += [f"## {case} ({what}): {scheme}", "",
                  f"`experiments/{sub}/`. Flows completed: {ours['flows']['completed']}/{ours['flows']['total']} "
                  f"(ns-3: {ref_done}/{ref_total}); PFC pause frames: {ours['pfc']['pause_frames']} "
                  f"(ns-3: {'none' if not ref_pfc else ref_pfc}); wall time {ours['wall_seconds']:.1f} s on "
                  f"{ours.get('threads', 1)} thread(s).", "",
                  "| statistic | lossless | ns-3 | difference | tolerance | within |", "|---|---|---|---|---|---|",
                  f"| overall mean | {ours['slowdown']['mean']:.3f} | {ref['mean']:.3f} | "
                  f"{100*rel(ours['slowdown']['mean'], ref['mean']):+.1f} % | — | — |"]
        for name, o, r, t in checks:
            lines.append(f"| {name} | {o:.3f} | {r:.3f} | {100*rel(o, r):+.1f} % | {100*t:.0f} % | "
                         f"{'yes' if abs(rel(o, r)) <= t else 'NO'} |")
        lines.append("")
        lines.append("| bin | flows | lossless mean / p95 / p99 | ns-3 mean / p95 / p99 | p95 difference |")
        lines.append("|---|---|---|---|---|")
        for name, ob, rb in zip(BINS, ours["slowdown_by_size"], ref["bins"]):
            if ob["count"] == 0 and rb["count"] == 0:
                continue
            d95 = f"{100*rel(ob['p95'], rb['p95']):+.1f} %" if rb["count"] else "—"
            lines.append(f"| {name} | {ob['count']} | {ob['mean']:.3f} / {ob['p95']:.3f} / {ob['p99']:.3f} | "
                         f"{rb['mean']:.3f} / {rb['p95']:.3f} / {rb['p99']:.3f} | {d95} |")
        lines.append("")
    lines.append(f"All checks within tolerance: {'yes' if ok_all else 'NO'}.")
    lines.append("")
    with open(args.report, "w") as f:
        f.write("\n".join(lines))
        notes = os.path.join(root, "docs", "fidelity-notes.md")
        if os.path.exists(notes):
            f.write("\n" + open(notes).read())
    print("\n".join(lines))
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
