#!/usr/bin/env python3
"""Re-runs the Mercury paper's experiments (He et al., J. Cloud Computing 2024) and prints each result beside the
paper's.

usage: experiments/mercury/run.py [--lossless build/lossless] [--out out/mercury] [--full] [-j N]
Follows the experiment protocol of experiments/README.md (`lossless reproduce mercury` runs it): prints the table,
a progress line per case on stderr, and writes OUT/results.json (figures as plot data, drawn by tools/report.py).
Schemes: Mercury, DCQCN, TIMELY, HPCC, PACC (with DCQCN's RP) and DCQCN+TCD, each with its paper's parameters
(our defaults). Experiments: (a) the victim flow, Figs. 3 and 9 (a-victim.yaml); (b) slow end-to-end feedback,
Fig. 4 (b-incast.yaml); (c) FB_Hadoop at 80 % load of the shared link, Fig. 10 (c-hadoop.yaml: 20 ms of
arrivals, 100 ms with --full); (d) the 320-host fat tree with Hadoop, WebServer, CacheFollower and WebSearch at
30, 50 and 70 % load, Figs. 11-14, one sweep per scheme (d-sweep.yaml; 0.5 ms of arrivals, 10 ms with --full).
(a) and (b) always run at the paper's scale. Standard library only. Exit status 2 if a case failed (the others
are still reported).
"""
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import case_runner  # noqa: E402

SCHEMES = (("mercury", ["cc.algorithm=mercury", "switch.mechanism=mercury"]),
           ("dcqcn", ["cc.algorithm=dcqcn"]),
           ("timely", ["cc.algorithm=timely"]),
           ("hpcc", ["cc.algorithm=hpcc"]),
           ("pacc", ["cc.algorithm=dcqcn", "switch.mechanism=pacc"]),
           ("dcqcn-tcd", ["cc.algorithm=dcqcn_tcd", "switch.mechanism=tcd"]))
LABEL = {"mercury": "Mercury", "dcqcn": "DCQCN", "timely": "TIMELY", "hpcc": "HPCC", "pacc": "PACC",
         "dcqcn-tcd": "DCQCN+TCD"}
OTHERS = [s for s, _ in SCHEMES if s != "mercury"]
WORKLOADS = ("FB_Hadoop", "WebServer", "CacheFollower", "WebSearch")
LOADS = (0.3, 0.5, 0.7)
BURST_NS = (3.0e6, 3.5e6)  # (a): the 500 us of bursts
BEFORE_NS = (2.0e6, 3.0e6)  # (a): the reference rate before them
SHORT_BYTES, LONG_BYTES = 100_000, 1_000_000  # (d): short flows < 100 KB, long flows >= 1 MB (our split)
MAX_POINTS = 400
# The paper's numbers (text of §Performance evaluation).
PAPER_D_LONG_P99 = {"timely": 45.1, "dcqcn": 41.8, "dcqcn-tcd": 38.7, "pacc": 30.9, "hpcc": 37.9}
PAPER_D_LONG_AVG = {"timely": 26.5, "dcqcn": 26.3, "dcqcn-tcd": 21.8, "pacc": 19.7, "hpcc": 27.1}
PAPER_D_OVERALL_AVG = {"FB_Hadoop": "11.2-36.1 %", "WebServer": "up to 32.6 %", "CacheFollower": "21.1-38.5 %",
                       "WebSearch": "up to 21.9 %"}


def d_ms(full):
    return 10 if full else 0.5


def c_ms(full):
    return 100 if full else 20


def run_cases(full):
    """Single runs: (name, scenario, --set list)."""
    out = []
    for s, sets in SCHEMES:
        out.append((f"a-victim-{s}", "a-victim.yaml", sets))
    for s, sets in SCHEMES:
        out.append((f"b-incast-{s}", "b-incast.yaml", sets))
    for s, sets in SCHEMES:
        out.append((f"c-hadoop-{s}", "c-hadoop.yaml", sets + [f"workload.0.duration={c_ms(full)}ms"]))
    return out


def grid_name(cdf, load):
    return f"cdf={cdf},load={load}"


def run_all(lossless, out_dir, full, jobs):
    """The single runs `jobs` at a time, then one sweep per scheme for (d) with -j jobs. {name: error}."""
    todo = run_cases(full)
    runner = case_runner.CaseRunner("mercury", len(todo) + len(SCHEMES))
    runner.run_scenarios(lossless, HERE, out_dir, todo, jobs, quiet_stdout=True)
    for s, sets in SCHEMES:
        cmd = [lossless, "sweep", os.path.join(HERE, "d-sweep.yaml"), "-o", os.path.join(out_dir, f"d-{s}"), "-j",
               str(jobs), "--quiet", "--set", f"workload.0.duration={d_ms(full)}ms"]
        for x in sets:
            cmd += ["--set", x]
        runner.run(f"d-{s}", cmd, quiet_stdout=True, note=f" (sweep of {len(WORKLOADS) * len(LOADS)} runs)")
    return runner.failed


def thin(xs, ys):
    step = max(1, len(xs) // MAX_POINTS)
    return [round(x, 4) for x in xs[::step]], [round(y, 4) for y in ys[::step]]


def series(label, xs, ys, style="solid"):
    x, y = thin(xs, ys)
    return {"label": label, "x": x, "y": y, "style": style}


def flow_rates(out):
    """{flow: [(time_ns, wire Gb/s)]} (payload rate x 1048/1000: 48 B of headers per 1000 B payload)."""
    per = {}
    for r in csv.DictReader(open(os.path.join(out, "flow_rates.csv"))):
        per.setdefault(int(r["flow_id"]), []).append((float(r["time_ns"]), float(r["rate_bps"]) * 1.048 / 1e9))
    return per


def mean_in(samples, lo, hi):
    v = [g for t, g in samples if lo < t <= hi]
    return sum(v) / len(v) if v else 0.0


def min_in(samples, lo, hi):
    v = [g for t, g in samples if lo < t <= hi]
    return min(v) if v else 0.0


def victim(out_dir):
    """(a) Figs. 3 and 9: F1 and F2 before and during the bursts."""
    lines, f1_series, f2_series, fig3 = [], [], [], []
    ratios = {}
    for s, _ in SCHEMES:
        r = flow_rates(os.path.join(out_dir, f"a-victim-{s}"))
        stats = []
        for f in (0, 1):
            before, during = mean_in(r[f], *BEFORE_NS), mean_in(r[f], *BURST_NS)
            stats.append((before, during, min_in(r[f], *BURST_NS)))
        ratios[s] = (stats[0][1] / stats[0][0], stats[1][1] / stats[1][0])
        paper = {"mercury": "F1 unchanged; F2 slowed, recovers fastest",
                 "dcqcn-tcd": "F1 falls to ~5 Gb/s; F2 slowed"}.get(s, "F1 and F2 slowed")
        lines.append((f"(a) {LABEL[s]}: F1 mean before -> during bursts (min) Gb/s",
                      f"{stats[0][0]:.1f} -> {stats[0][1]:.1f} ({stats[0][2]:.1f}), {100 * ratios[s][0]:.0f} %", paper))
        lines.append((f"(a) {LABEL[s]}: F2 mean before -> during bursts (min) Gb/s",
                      f"{stats[1][0]:.1f} -> {stats[1][1]:.1f} ({stats[1][2]:.1f}), {100 * ratios[s][1]:.0f} %", ""))
        for f, dest in ((0, f1_series), (1, f2_series)):
            pts = [(t, g) for t, g in r[f] if 2.5e6 <= t <= 4.5e6]
            dest.append(series(LABEL[s], [t / 1e6 for t, _ in pts], [g for _, g in pts]))
        if s == "dcqcn":
            for f, name in ((0, "F1 (victim)"), (1, "F2 (congested)")):
                pts = [(t, g) for t, g in r[f] if 2.5e6 <= t <= 4.5e6]
                fig3.append(series(name, [t / 1e6 for t, _ in pts], [g for _, g in pts]))
    burst = [{"y": 0, "label": "bursts 3.0-3.5 ms"}]
    plots = [{"title": "Fig. 3: DCQCN, congested flow F2 and victim flow F1", "type": "lines", "xlabel": "time (ms)",
              "ylabel": "rate (Gb/s)", "series": fig3, "refs": burst},
             {"title": "Fig. 9(a): congested flow F2", "type": "lines", "xlabel": "time (ms)", "ylabel": "rate (Gb/s)",
              "series": f2_series, "refs": burst},
             {"title": "Fig. 9(b): victim flow F1", "type": "lines", "xlabel": "time (ms)", "ylabel": "rate (Gb/s)",
              "series": f1_series, "refs": burst}]
    slowed = [LABEL[s] for s in OTHERS if ratios[s][0] < 0.9]
    kept = [LABEL[s] for s in OTHERS if ratios[s][0] >= 0.9]
    differs = (f"Mercury keeps F1 at {100 * ratios['mercury'][0]:.0f} % of its rate during the bursts (paper: "
               f"unchanged) and slows F2 to {100 * ratios['mercury'][1]:.0f} %; "
               + (f"{', '.join(slowed)} slow the victim F1 as in the paper" if slowed else "no other scheme slows F1")
               + (f"; {', '.join(kept)} keep F1 at 90 % or more (paper: every other scheme slows it), see README"
                  if kept else "")
               + ". Fig. 2's topology and the burst pattern are our reading of the text (a-victim.yaml).")
    item = {"id": "fig3-9-victim", "kind": "figure",
            "title": "Figs. 3 and 9: congested flow F2 and victim flow F1 while 8 senders burst into R2 (3.0-3.5 ms)",
            "rows": [list(x) for x in lines], "plots": plots, "differs": differs}
    return lines, item


def queue_series(out, node, port):
    pts = [(float(r["time_ns"]), float(r["bytes"])) for r in csv.DictReader(open(os.path.join(out, "queues.csv")))
           if r["node"] == node and r["port"] == port]
    return pts


def incast(out_dir):
    """(b) Fig. 4: the queue of S1's port to S2 and the long flow's throughput."""
    lines, q_series, r_series, peaks, mins = [], [], [], {}, {}
    for s, _ in SCHEMES:
        out = os.path.join(out_dir, f"b-incast-{s}")
        q = queue_series(out, "s0", S1_UPLINK)
        peaks[s] = max(b for _, b in q) / 1e3
        r = flow_rates(out)[0]
        mins[s] = min_in(r, 0.6e6, 1.2e6)
        paper = "peak < DCQCN's, min > 6 Gb/s" if s == "mercury" else (
            "peak > 1000 KB, throughput near 0" if s in ("dcqcn", "timely", "hpcc") else "(not in Fig. 4)")
        lines.append((f"(b) {LABEL[s]}: peak queue at S1 (KB), long flow min 0.6-1.2 ms (Gb/s)",
                      f"{peaks[s]:.0f}, {mins[s]:.1f}", paper))
        pts = [(t, b) for t, b in q if 0.5e6 <= t <= 1.5e6]
        q_series.append(series(LABEL[s], [t / 1e6 for t, _ in pts], [b / 1e3 for _, b in pts]))
        pts = [(t, g) for t, g in r if 0.5e6 <= t <= 1.5e6]
        r_series.append(series(LABEL[s], [t / 1e6 for t, _ in pts], [g for _, g in pts]))
    plots = [{"title": "Fig. 4(a): queue of S1's port to S2", "type": "lines", "xlabel": "time (ms)", "ylabel": "queue (KB)",
              "series": q_series, "refs": [{"y": 1000, "label": "1000 KB"}]},
             {"title": "Fig. 4(b): throughput of the long flow", "type": "lines", "xlabel": "time (ms)",
              "ylabel": "rate (Gb/s)", "series": r_series, "refs": [{"y": 6, "label": "6 Gb/s"}]}]
    big = [LABEL[s] for s in ("dcqcn", "timely", "hpcc") if peaks[s] > 1000]
    differs = (f"Mercury's peak queue is {peaks['mercury']:.0f} KB against DCQCN's {peaks['dcqcn']:.0f} KB and the long flow "
               f"keeps at least {mins['mercury']:.1f} Gb/s (paper: > 6); "
               + (f"{', '.join(big)} peak above 1000 KB as in the paper" if big else "no end-to-end scheme peaks above 1000 KB")
               + (". " + ", ".join(f"{LABEL[s]} {peaks[s]:.0f} KB" for s in ("dcqcn", "timely", "hpcc") if peaks[s] <= 1000)
                  + " (see README)" if len(big) < 3 else "") + ".")
    item = {"id": "fig4-incast", "kind": "figure",
            "title": "Fig. 4: a long flow and 8 x 120 KB from 600 us into one receiver: queue and long-flow throughput",
            "rows": [list(x) for x in lines], "plots": plots, "differs": differs}
    return lines, item


S1_UPLINK = "9"  # b-incast.yaml: s0's ports follow its links, hosts h0-h8 first; port 9 leads to s1


def fct_rows(out):
    rows = []
    for r in csv.DictReader(open(os.path.join(out, "fct.csv"))):
        if r["fct_ns"]:
            rows.append((int(r["size_bytes"]), float(r["fct_ns"]) / 1e3))
    return rows


def pct(v, q):
    v = sorted(v)
    if not v:
        return float("nan")
    return v[min(len(v) - 1, int(q * len(v)))]


def hadoop(out_dir):
    """(c) Fig. 10: p99 FCT and max queue at 80 % FB_Hadoop."""
    lines, p99, qmax = [], {}, {}
    for s, _ in SCHEMES:
        out = os.path.join(out_dir, f"c-hadoop-{s}")
        f = [x for _, x in fct_rows(out)]
        p99[s] = pct(f, 0.99)
        qmax[s] = json.load(open(os.path.join(out, "summary.json")))["queue"]["max_bytes"] / 1e3
    for s in OTHERS:
        lines.append((f"(c) Mercury vs {LABEL[s]}: p99 FCT (us), max queue (KB)",
                      f"{p99['mercury']:.0f} vs {p99[s]:.0f} ({100 * (1 - p99['mercury'] / p99[s]):+.1f} %), "
                      f"{qmax['mercury']:.0f} vs {qmax[s]:.0f} ({100 * (1 - qmax['mercury'] / qmax[s]):+.1f} %)",
                      "p99 16.1-25.5 % lower, max queue 20.9-39.2 % lower"))
    cats = [LABEL[s] for s, _ in SCHEMES]
    plots = [{"title": "Fig. 10: p99 FCT, FB_Hadoop at 80 % load", "type": "bars", "ylabel": "p99 FCT (us)",
              "categories": cats, "series": [{"label": "lossless", "y": [round(p99[s], 1) for s, _ in SCHEMES]}]},
             {"title": "Fig. 10: max queue", "type": "bars", "ylabel": "max queue (KB)", "categories": cats,
              "series": [{"label": "lossless", "y": [round(qmax[s], 1) for s, _ in SCHEMES]}]}]
    red_p = [100 * (1 - p99["mercury"] / p99[s]) for s in OTHERS]
    red_q = [100 * (1 - qmax["mercury"] / qmax[s]) for s in OTHERS]
    differs = (f"Mercury's p99 FCT is {min(red_p):+.1f} to {max(red_p):+.1f} % lower than the others' (paper 16.1-25.5 %) "
               f"and its max queue {min(red_q):+.1f} to {max(red_q):+.1f} % lower (paper 20.9-39.2 %); negative = higher. "
               "Topology and senders are our reading of the text (c-hadoop.yaml); see README.")
    item = {"id": "fig10-hadoop", "kind": "figure", "title": "Fig. 10: FB_Hadoop at 80 % load, 2 senders to 2 receivers, 40G",
            "rows": [list(x) for x in lines], "plots": plots, "differs": differs}
    return lines, item


def fat_tree(out_dir, full):
    """(d) Figs. 11-14: average and p99 FCT, overall, short and long flows."""
    stats = {}  # (scheme, cdf, load) -> {"all": (avg, p99), "short": ..., "long": ...}
    for s, _ in SCHEMES:
        for cdf in WORKLOADS:
            for load in LOADS:
                rows = fct_rows(os.path.join(out_dir, f"d-{s}", grid_name(cdf, load)))
                d = {}
                for part, keep in (("all", lambda b: True), ("short", lambda b: b < SHORT_BYTES),
                                   ("long", lambda b: b >= LONG_BYTES)):
                    v = [x for b, x in rows if keep(b)]
                    d[part] = (sum(v) / len(v) if v else float("nan"), pct(v, 0.99), len(v))
                stats[(s, cdf, load)] = d

    def red(s, cdf, load, part, k):
        m, o = stats[("mercury", cdf, load)][part][k], stats[(s, cdf, load)][part][k]
        return 100 * (1 - m / o)

    lines = []
    for cdf in WORKLOADS:
        r = [red(s, cdf, load, "all", 0) for s in OTHERS for load in LOADS]
        lines.append((f"(d) {cdf}: overall avg FCT, Mercury's reduction vs the others (all loads)",
                      f"{min(r):+.1f} to {max(r):+.1f} %", PAPER_D_OVERALL_AVG[cdf]))
    for s in OTHERS:
        ra = max(red(s, "FB_Hadoop", load, "long", 0) for load in LOADS)
        rp = max(red(s, "FB_Hadoop", load, "long", 1) for load in LOADS)
        lines.append((f"(d) FB_Hadoop long flows vs {LABEL[s]}: best avg / p99 FCT reduction",
                      f"{ra:+.1f} / {rp:+.1f} %", f"{PAPER_D_LONG_AVG[s]} / {PAPER_D_LONG_P99[s]} %"))
    for cdf, paper in (("FB_Hadoop", "up to 64.7 / 58.7 %"), ("WebServer", "up to 81.1 / 80.6 %")):
        ra = max(red(s, cdf, load, "short", 0) for s in OTHERS if s != "hpcc" for load in LOADS)
        rp = max(red(s, cdf, load, "short", 1) for s in OTHERS if s != "hpcc" for load in LOADS)
        lines.append((f"(d) {cdf} short flows vs TIMELY, DCQCN, TCD, PACC: best avg / p99 reduction",
                      f"{ra:+.1f} / {rp:+.1f} %", paper))
    plots = []
    for k, fig, what in ((0, "11", "average"), (1, "12", "p99")):
        for cdf in WORKLOADS:
            plots.append({"title": f"Fig. {fig}: {what} FCT, {cdf}", "type": "lines", "xlabel": "load",
                          "ylabel": f"{what} FCT (us)", "ylog": True,
                          "series": [{"label": LABEL[s], "x": list(LOADS),
                                      "y": [round(stats[(s, cdf, l)]["all"][k], 2) for l in LOADS]} for s, _ in SCHEMES]})
    for fig, cdf in (("13", "CacheFollower"), ("14", "WebSearch")):
        for part, pname in (("short", f"short (< {SHORT_BYTES // 1000} KB)"), ("long", f"long (>= {LONG_BYTES // 1000000} MB)")):
            for k, what in ((0, "average"), (1, "p99")):
                plots.append({"title": f"Fig. {fig}: {cdf}, {what} FCT of {pname} flows", "type": "lines",
                              "xlabel": "load", "ylabel": f"{what} FCT (us)", "ylog": True,
                              "series": [{"label": LABEL[s], "x": list(LOADS),
                                          "y": [round(stats[(s, cdf, l)][part][k], 2) for l in LOADS]}
                                         for s, _ in SCHEMES]})
    best = {cdf: max(red(s, cdf, l, "all", 0) for s in OTHERS for l in LOADS) for cdf in WORKLOADS}
    worst = {cdf: min(red(s, cdf, l, "all", 0) for s in OTHERS for l in LOADS) for cdf in WORKLOADS}
    differs = ("Overall average FCT, Mercury against the others: "
               + "; ".join(f"{c} {worst[c]:+.0f} to {best[c]:+.0f} %" for c in WORKLOADS)
               + " (paper: Mercury lowest everywhere). "
               + (f"Reduced scale: {d_ms(full)} ms of arrivals per run (--full: 10 ms), so long flows are few and their "
                  "tails noisy. " if not full else f"{d_ms(full)} ms of arrivals per run. ")
               + "Loads, the short/long split and the substrate settings are our choices; see README.")
    rows = []
    for s, _ in SCHEMES:
        for cdf in WORKLOADS:
            for l in LOADS:
                d = stats[(s, cdf, l)]
                rows.append((f"(d) {LABEL[s]} {cdf} {int(l * 100)} %: avg / p99 FCT all, short, long (us)",
                             " | ".join(f"{d[p][0]:.0f} / {d[p][1]:.0f}" for p in ("all", "short", "long")), ""))
    item = {"id": "fig11-14-fat-tree", "kind": "figure",
            "title": "Figs. 11-14: 320-host fat tree, four workloads at 30/50/70 % load: average and p99 FCT",
            "rows": [list(x) for x in lines + rows], "plots": plots, "differs": differs}
    return lines, item


def main():
    ap = case_runner.arguments(ROOT, "mercury", "(c) 100 ms and (d) 10 ms of arrivals per run")
    a = ap.parse_args()
    failed = run_all(a.lossless, a.out, a.full, max(1, a.jobs))
    lines = [("experiment", "lossless", "paper")]
    items = []
    analyses = ((victim, "a-victim"), (incast, "b-incast"), (hadoop, "c-hadoop"),
                (lambda d: fat_tree(d, a.full), "d-"))
    for analyse, prefix in analyses:
        broken = [n for n in failed if n.startswith(prefix)]
        if broken:
            lines.append((f"({prefix[0]}) cases {', '.join(sorted(broken))}", "FAILED", ""))
            continue
        try:
            ls, item = analyse(a.out)
        except (OSError, KeyError, ValueError, ZeroDivisionError) as e:
            failed[prefix] = f"analysis failed: {e!r}"
            lines.append((f"({prefix[0]}) analysis", "FAILED", str(e)))
            continue
        lines += ls
        items.append(item)
    case_runner.print_table(lines, 44)
    results = {"paper": "mercury",
               "title": "Mercury: accurate and fast congestion feedback (He et al., J. Cloud Computing 2024)",
               "scale": "full" if a.full else "reduced",
               "command": "experiments/mercury/run.py" + (" --full" if a.full else ""),
               "summary": "Figs. 3/9, 4, 10 and 11-14 with Mercury, DCQCN, TIMELY, HPCC, PACC and DCQCN+TCD; (a) and (b) "
                          f"at the paper's scale, (c) {c_ms(a.full)} ms and (d) {d_ms(a.full)} ms of arrivals per run. "
                          "Topologies, burst pattern, loads and the PACC/TCD reconstructions: experiments/mercury/README.md.",
               "items": items, "failed": [{"case": n, "error": e} for n, e in sorted(failed.items())]}
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    return 2 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
