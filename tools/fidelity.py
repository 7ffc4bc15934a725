#!/usr/bin/env python3
"""Fidelity report: runs the HPCC reference cases through `lossless hpcc` for DCQCN, HPCC, TIMELY and DCTCP
and writes docs/fidelity.md with our slowdown statistics beside the HPCC ns-3 simulator's.

Cases (320-host fat tree, the HPCC simulator's presets; references are that simulator's results on the same
config, topology and flow files):
  experiments/hpcc-ws30/             WebSearch 30 % load (no PFC pause)
  experiments/hpcc-fidelity/fb30/    FB_Hadoop 30 % load
  experiments/hpcc-fidelity/ws30inc/ WebSearch 30 % + 2 % load of 60 x 500 KB incasts (PFC pauses)

usage: tools/fidelity.py [--lossless build/lossless] [--out out/fidelity] [--report docs/fidelity.md] [--threads N]
                         [--case NAME]... [--scheme NAME]... [--reuse] [--results-json FILE]
--reuse takes a run's OUT/<case>/<scheme>/summary.json when it exists instead of running it again (to assemble the
report from runs done in pieces, e.g. one case at a time).
--results-json also writes the checks as results.json of the experiment protocol (experiments/README.md), which
`lossless reproduce hpcc` turns into a report (experiments/hpcc-ws30/run.py).
Tolerance (issue 3): overall p50 and p95 within 10 %, p99 within 20 %, p50 within 15 % in every size bin with
>= 100 flows; each bin's p95 is reported beside. A case whose ns-3 reference is missing is run and counts as failed.
Standard library only.
"""
import argparse
import json
import os
import re
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


def write_results_json(path, rows, ok_all):
    """The checks as results.json (experiments/README.md): per case and scheme, the table of checks and a figure
    of slowdown by size bin beside ns-3's."""
    items = []
    for k, (case, sub, what, scheme, ours, ref, checks, ok) in enumerate(rows):
        if ref is None:
            continue
        table = [["overall mean", f"{ours['slowdown']['mean']:.3f}", f"{ref['mean']:.3f}",
                  f"{100 * rel(ours['slowdown']['mean'], ref['mean']):+.1f} %", "-", "-"]]
        table += [[name, f"{o:.3f}", f"{r:.3f}", f"{100 * rel(o, r):+.1f} %", f"{100 * t:.0f} %",
                   "yes" if abs(rel(o, r)) <= t else "NO"] for name, o, r, t in checks]
        table += [[f"{name} p95", f"{ob['p95']:.3f}", f"{rb['p95']:.3f}", f"{100 * rel(ob['p95'], rb['p95']):+.1f} %",
                   "-", "-"] for name, ob, rb in zip(BINS, ours["slowdown_by_size"], ref["bins"]) if rb["count"] >= 100]
        worst = max(checks, key=lambda c: abs(rel(c[1], c[2])))
        series = []
        for stat in ("p50", "p95", "p99"):
            series.append({"label": f"{stat} lossless", "y": [b[stat] for b in ours["slowdown_by_size"]]})
            series.append({"label": f"{stat} HPCC ns-3", "y": [b[stat] for b in ref["bins"]]})
        items.append({
            "id": f"{k + 1}-{case}-" + re.sub(r"[^a-z0-9]+", "-", scheme.lower()).strip("-"), "kind": "figure",
            "title": f"{scheme} on the 320-host fat tree, {what}: slowdown beside the HPCC ns-3 simulator",
            "columns": ["statistic", "lossless", "HPCC ns-3", "difference", "tolerance", "within"], "rows": table,
            "plots": [{"title": f"{case} {scheme}: slowdown by flow size", "type": "bars", "ylabel": "slowdown",
                       "categories": BINS, "series": series}],
            "verdict": "reproduced" if ok else "differs",
            "differs": (f"{'Every check within tolerance' if ok else 'NOT every check within tolerance'}; the largest "
                        f"difference is {100 * rel(worst[1], worst[2]):+.1f} % ({worst[0]}). Flows take other ECMP paths "
                        f"than in ns-3 (its hash differs), so only distributions compare "
                        f"(experiments/{sub}/, docs/fidelity-notes.md).")})
    missing = [{"case": f"{case} {scheme}", "error": "no ns-3 reference statistics (ns3_*_stats.json) yet"}
               for case, sub, what, scheme, ours, ref, checks, ok in rows if ref is None]
    with open(path, "w") as f:
        json.dump({"paper": "hpcc", "title": "HPCC (Li et al., SIGCOMM'19) fidelity cases: lossless beside the HPCC "
                                             "ns-3 simulator on its own input",
                   "scale": "full (the cases have one scale)", "command": "tools/fidelity.py",
                   "summary": "The HPCC simulator's config, topology and flow files (320-host fat tree, HPCC-paper "
                              "presets of DCQCN, HPCC, TIMELY and DCTCP; WebSearch 30 %, FB_Hadoop 30 %, WebSearch 30 % "
                              "+ incasts with PFC) run by `lossless hpcc`. Tolerance: overall p50 and p95 within 10 %, "
                              "p99 within 20 %, p50 within 15 % in every bin with >= 100 flows. All checks within "
                              f"tolerance: {'yes' if ok_all else 'NO'}.",
                   "items": items, "failed": missing}, f, indent=1)


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
    ap.add_argument("--scheme", action="append", choices=[s[0] for s in SCHEMES],
                    help="run only these schemes (default: all)")
    ap.add_argument("--reuse", action="store_true", help="use existing OUT/<case>/<scheme>/summary.json files")
    ap.add_argument("--results-json", help="also write the checks as results.json (experiments/README.md)")
    args = ap.parse_args()
    rows, ok_all = [], True
    for case, sub, what in CASES:
        if args.case and case not in args.case:
            continue
        case_dir = os.path.join(root, "experiments", sub)
        for scheme, tag in SCHEMES:
            if args.scheme and scheme not in args.scheme:
                continue
            ref_path = os.path.join(case_dir, f"ns3_{tag}_stats.json")
            out = os.path.join(args.out, case, scheme.lower())
            if not (args.reuse and os.path.exists(os.path.join(out, "summary.json"))):
                sys.stderr.write(f"[fidelity] case {case} {scheme} ...\n")
                subprocess.run([args.lossless, "hpcc", os.path.join(case_dir, f"config_{tag}.txt"), "-o", out,
                                "--quiet", "--threads", str(args.threads)], check=True)
            ours = json.load(open(os.path.join(out, "summary.json")))
            if not os.path.exists(ref_path):
                sys.stderr.write(f"[fidelity] case {case} {scheme}: no ns-3 reference ({ref_path})\n")
                rows.append((case, sub, what, scheme, ours, None, [], False))
                ok_all = False
                continue
            ref = json.load(open(ref_path))
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
             "Difference of lossless from ns-3 (worst bin: the bin whose p50 differs most, and the bin whose p95 differs",
             "most among bins with >= 100 flows):", "",
             "| case | scheme | p50 | p95 | p99 | worst bin p50 | worst bin p95 | within |",
             "|---|---|---|---|---|---|---|---|"]
    for case, sub, what, scheme, ours, ref, checks, ok in rows:
        if ref is None:
            sd = ours["slowdown"]
            lines.append(f"| {case} | {scheme} | ({sd['p50']:.3f}) | ({sd['p95']:.3f}) | ({sd['p99']:.3f}) | — | — | "
                         f"no ns-3 reference (lossless's values in brackets) |")
            continue
        by = {n: rel(o, r) for n, o, r, _ in checks}
        bins = [(n, v) for n, v in by.items() if not n.startswith("overall")]
        wn, wv = max(bins, key=lambda b: abs(b[1])) if bins else ("", 0.0)
        p95s = [(n, rel(ob["p95"], rb["p95"])) for n, ob, rb in zip(BINS, ours["slowdown_by_size"], ref["bins"])
                if rb["count"] >= 100]
        pn, pv = max(p95s, key=lambda b: abs(b[1])) if p95s else ("", 0.0)
        lines.append(f"| {case} | {scheme} | {100*by['overall p50']:+.1f} % | {100*by['overall p95']:+.1f} % | "
                     f"{100*by['overall p99']:+.1f} % | {100*wv:+.1f} % ({wn.split()[0]}) | {100*pv:+.1f} % ({pn}) | "
                     f"{'yes' if ok else 'NO'} |")
    lines.append("")
    for case, sub, what, scheme, ours, ref, checks, ok in rows:
        if ref is None:
            continue
        ref_done = ref["count"]
        ref_total = ref.get("flows_total", ref_done)
        ref_pfc = ref.get("pause_frames")
        lines += [f"## {case} ({what}): {scheme}", "",
                  f"`experiments/{sub}/`. Flows completed: {ours['flows']['completed']}/{ours['flows']['total']} "
                  f"(ns-3: {ref_done}/{ref_total}); PFC pause frames: {ours['pfc']['pause_frames']} "
                  f"(ns-3: {'none' if not ref_pfc else ref_pfc}); packets dropped at a full headroom: "
                  f"{ours['drops']} (ns-3: {ref.get('drops', 'not recorded')}); wall time {ours['wall_seconds']:.1f} s on "
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
    if args.results_json:
        write_results_json(args.results_json, rows, ok_all)
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
