#!/usr/bin/env python3
"""Re-runs the RCC paper's micro-benchmarks (ToN'23 §V-B, §V-D) and prints each result beside the paper's number.

usage: experiments/rcc/run.py [--lossless build/lossless] [--out out/rcc] [--full] [-j N] [--only a,b,...]
Follows the experiment protocol of experiments/README.md (`lossless reproduce rcc` runs it): prints the table, a
progress line per case on stderr, and writes OUT/results.json (figures as plot data, drawn by tools/report.py).
Experiments (README.md in this folder says what each scenario is and where we differ from the paper):
  (a) Fig. 6: 4-flow staircase on a dumbbell, RCC vs HPCC. Reduced: 1/20 of the paper's sizes, flows 5 ms apart;
      --full: 4.4/2.2/1.1/0.27 GB, 100 ms apart.
  (b) Figs. 7-8: 1000 x 200 KB incast + a background flow on the 320-host fat tree, RCC vs HPCC (both scales).
  (c) Table II: N-to-1 incasts of 200 KB, N = 16..256, DCQCN, TIMELY, RCC, on one switch and on the fat tree.
  (d) Fig. 15: multi-bottleneck, RCC vs RCC-PID vs RCC-EWA (and RCC with the analysis' PID gains). Reduced: flows
      5 ms apart; --full: 100 ms apart.
  (e) Fig. 12: RCC vs RCC-async vs RCC-sender, n = 1..4, on (b)'s incast as in the paper and on (d)'s
      multi-bottleneck, where the delay signal is in use.
  (g) PID gains: (a), (b) and (d) with the analysis' gains (Kp 16, Kd 7e3) beside the evaluation's (1e4, 1e5).
More experiments plug in as one entry of EXPERIMENTS (cases + analysis), e.g. the large-scale comparison with
Homa and ExpressPass. Standard library only. Exit status 2 if a case failed (the others are still reported).
"""
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import case_runner  # noqa: E402
MAX_POINTS = 400  # per plotted series: enough for the eye, keeps results.json small
HPCC = ["cc.algorithm=hpcc", "cc.params.preset=hpcc_paper"]  # the HPCC code, as the paper ran it
ANALYSIS_GAINS = ["cc.params.kp=16", "cc.params.kd=7000"]  # the paper's §IV-D range "in actual use"


# ----------------------------------------------------------------------------------------------- helpers

def thin(xs, ys):
    step = max(1, len(xs) // MAX_POINTS)
    return [round(x, 4) for x in xs[::step]], [round(y, 4) for y in ys[::step]]


def series(label, xs, ys, style="solid"):
    x, y = thin(xs, ys)
    return {"label": label, "x": x, "y": y, "style": style}


def read_csv(out, name):
    with open(os.path.join(out, name)) as f:
        return list(csv.DictReader(f))


def summary(out):
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)


def goodput_by_flow(out):
    """{flow: ([t_ms], [Gb/s])} from flow_rates.csv (payload delivered in order)."""
    per = {}
    for r in read_csv(out, "flow_rates.csv"):
        xs, ys = per.setdefault(int(r["flow_id"]), ([], []))
        xs.append(float(r["time_ns"]) / 1e6)
        ys.append(float(r["rate_bps"]) / 1e9)
    return per


def aggregate_goodput(out):
    acc = {}
    for r in read_csv(out, "flow_rates.csv"):
        t = float(r["time_ns"]) / 1e6
        acc[t] = acc.get(t, 0.0) + float(r["rate_bps"]) / 1e9
    ts = sorted(acc)
    return ts, [acc[t] for t in ts]


def queue_trace(out, node, port):
    q = [(float(r["time_ns"]) / 1e6, float(r["bytes"]) / 1e3) for r in read_csv(out, "queues.csv")
         if r["node"] == node and r["port"] == str(port)]
    return [t for t, _ in q], [b for _, b in q]


def mean_over(xs, ys, lo, hi):
    v = [y for x, y in zip(xs, ys) if lo <= x <= hi]
    return sum(v) / len(v) if v else float("nan")


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else float("nan")


def percentile(v, p):
    """The run summary's rule: sorted value at index round(p/100 x (n - 1))."""
    v = sorted(v)
    return v[int(round(p / 100 * (len(v) - 1)))]


def jain(rates):
    return sum(rates) ** 2 / (len(rates) * sum(r * r for r in rates)) if rates else float("nan")


def fcts(out):
    return read_csv(out, "fct.csv")


def pause_time_share(out):
    """PFC pause-time share (README.md): the paused time of the most-paused port (any node, any port, summed over
    its priorities' pause intervals) between the first flow's start and the last flow's finish, divided by that
    duration. From pfc.csv: a port is paused from a pause frame (refreshes extend it) to the resume frame; a
    pause that expires by itself (summary.json pfc.expired_pauses) would need the link rate, so it is refused."""
    s = summary(out)
    if s["pfc"]["expired_pauses"]:
        raise RuntimeError(f"{out}: {s['pfc']['expired_pauses']} pauses expired; pause_time_share needs resumes")
    rows = fcts(out)
    t0 = min(float(r["start_ns"]) for r in rows)
    t1 = max(float(r["finish_ns"]) for r in rows if r["finish_ns"])
    since, paused = {}, {}
    for r in read_csv(out, "pfc.csv"):
        key, t = (r["node"], r["port"], r["priority"]), float(r["time_ns"])
        if r["event"] == "pause":
            since.setdefault(key, t)
        elif key in since:
            a = since.pop(key)
            paused[key[:2]] = paused.get(key[:2], 0.0) + max(0.0, min(t, t1) - max(a, t0))
    for key, a in since.items():
        paused[key[:2]] = paused.get(key[:2], 0.0) + max(0.0, t1 - max(a, t0))
    return (max(paused.values()) if paused else 0.0) / (t1 - t0)


# ------------------------------------------------------------------------------------------- experiments

class Experiment:
    """One item of the paper: its runs and the analysis that turns them into table rows and an item."""

    def __init__(self, key, cases, analyse):
        self.key, self.cases, self.analyse = key, cases, analyse


# (a) Fig. 6 --------------------------------------------------------------------------------------------
STAIRCASE_SIZES_MB = (4400, 2200, 1100, 270)


def staircase_scale(full):
    return 1.0 if full else 1 / 20


def a_cases(full):
    k = staircase_scale(full)
    sets = [f"workload.0.flows.{i}.size={mb * k:g}MB" for i, mb in enumerate(STAIRCASE_SIZES_MB)]
    sets += [f"workload.0.flows.{i}.start={100 * k * i:g}ms" for i in range(4)]
    return [("a-staircase-rcc", "a-staircase.yaml", sets), ("a-staircase-hpcc", "a-staircase.yaml", sets + HPCC),
            ("g-staircase-rcc-analysis-gains", "a-staircase.yaml", sets + ANALYSIS_GAINS)]


def staircase_stages(out, settle_ms):
    """[(t0, t1, active flows)] between consecutive starts/finishes; t0 after `settle_ms`."""
    rows = fcts(out)
    span = [(float(r["start_ns"]) / 1e6, float(r["finish_ns"] or "inf") / 1e6) for r in rows]
    edges = sorted({x for s in span for x in s if x != float("inf")})
    stages = []
    for a, b in zip(edges, edges[1:]):
        active = [f for f, (s, e) in enumerate(span) if s <= a and e >= b]
        if active:
            stages.append((a + settle_ms, b, active))
    return stages


def staircase_stats(out, full):
    per = goodput_by_flow(out)
    settle = 10.0 if full else 0.5
    res = []
    for t0, t1, active in staircase_stages(out, settle):
        rates = [mean_over(*per[f], t0 + 0.1, t1) for f in active]
        res.append((t0 - settle, t1, active, rates, jain(rates)))
    return res


def a_analyse(out_dir, full):
    lines, plots = [], []
    stats = {cc: staircase_stats(os.path.join(out_dir, f"a-staircase-{cc}"), full) for cc in ("rcc", "hpcc")}
    for cc, label in (("rcc", "RCC"), ("hpcc", "HPCC")):
        for t0, t1, active, rates, j in stats[cc]:
            n = len(active)
            lines.append((f"(a) {label}, {t0:.0f}-{t1:.0f} ms, N={n}: goodput per flow (Gb/s), Jain",
                          ", ".join(f"{r:.1f}" for r in rates) + f"; {j:.4f}",
                          f"{95 / n:.1f} each; 0.998-0.999" if cc == "rcc" else "unfair, oscillating"))
        per = goodput_by_flow(os.path.join(out_dir, f"a-staircase-{cc}"))
        plots.append({"title": f"{label}: goodput per flow (Fig. 6)", "type": "lines", "xlabel": "time (ms)",
                      "ylabel": "goodput (Gb/s)", "series": [series(f"flow {f + 1}", *per[f]) for f in sorted(per)],
                      "refs": [{"y": 95 / n, "label": f"95/{n}"} for n in (1, 2, 3, 4)]})
    rcc_off = max(abs(r / (95 / len(a)) - 1) for _, _, a, rs, _ in stats["rcc"] for r in rs)
    rcc_jain = min(j for *_, j in stats["rcc"])
    hpcc_jain = min(j for *_, j in stats["hpcc"])
    differs = (f"Agrees: every RCC flow within {100 * rcc_off:.1f} % of 95/N Gb/s at every stage (95.4/N with 1000 B "
               f"payload + 48 B header), Jain >= {rcc_jain:.4f}; HPCC (the HPCC code's parameters) settles unfairly "
               f"(Jain down to {hpcc_jain:.3f}). Within one 100 us sample of each change (the EWA needs one RTT)."
               + ("" if full else " Reduced scale: sizes and spacing 1/20 of the paper's (--full: the paper's)."))
    item = {"id": "fig6-staircase", "kind": "figure", "title": "Fig. 6: convergence and fairness, 4 flows into one "
            "100G receiver, RCC vs HPCC", "rows": [list(x) for x in lines], "differs": differs, "plots": plots}
    return lines, item


# (b) Figs. 7-8 -------------------------------------------------------------------------------------------
INCAST_START_MS = 1.0


def b_cases(full):
    return [("b-incast-rcc", "b-incast.yaml", []), ("b-incast-hpcc", "b-incast.yaml", HPCC),
            ("b-incast-hpcc-formulation", "b-incast.yaml", ["cc.algorithm=hpcc"]),
            ("g-incast-rcc-analysis-gains", "b-incast.yaml", ANALYSIS_GAINS)]


def incast_stats(out):
    rows = fcts(out)[1:]  # flow 0 is the background flow
    fct = [float(r["fct_ns"]) / 1e6 for r in rows if r["fct_ns"]]
    first_end = min(float(r["finish_ns"]) for r in rows if r["finish_ns"]) / 1e6
    last_end = max(float(r["finish_ns"]) for r in rows if r["finish_ns"]) / 1e6
    ts, agg = aggregate_goodput(out)
    qt, qb = queue_trace(out, "s0", 0)
    peak = max(qb)
    above = sum(1 for b in qb if b > 1000) * (qt[1] - qt[0]) if len(qt) > 1 else 0.0
    return {"done": len(fct), "p50": percentile(fct, 50), "p99": percentile(fct, 99),
            "goodput": mean_over(ts, agg, INCAST_START_MS + 0.5, first_end), "peak_kb": peak, "above_1mb_ms": above,
            "steady_kb": median([b for t, b in zip(qt, qb) if first_end - 1.0 <= t <= first_end]),
            "first_end": first_end, "last_end": last_end, "pauses": summary(out)["pfc"]["pause_frames"]}


def b_analyse(out_dir, full):
    names = (("rcc", "RCC"), ("hpcc", "HPCC"), ("hpcc-formulation", "HPCC (paper formulation)"))
    st = {k: incast_stats(os.path.join(out_dir, f"b-incast-{k}")) for k, _ in names}
    lines = []
    for k, label in names:
        s = st[k]
        lines.append((f"(b) {label}: aggregate goodput during the incast (Gb/s)", f"{s['goodput']:.2f}",
                      "94.98 (RCC ~ HPCC)"))
    r, h = st["rcc"], st["hpcc"]
    for k, label in names:
        s = st[k]
        lines.append((f"(b) {label}: incast FCT p50 / p99 (ms), {s['done']} of 1000 done",
                      f"{s['p50']:.2f} / {s['p99']:.2f}", "RCC 5.2 % / 4.1 % below HPCC"))
    lines.append(("(b) RCC vs HPCC: FCT p50 / p99 lower by", f"{100 * (1 - r['p50'] / h['p50']):.1f} % / "
                  f"{100 * (1 - r['p99'] / h['p99']):.1f} %", "5.2 % / 4.1 %"))
    for k, label in names:
        s = st[k]
        lines.append((f"(b) {label}: bottleneck queue peak / time above 1 MB / standing (KB, ms, KB)",
                      f"{s['peak_kb']:.0f} / {s['above_1mb_ms']:.1f} / {s['steady_kb']:.0f}",
                      "RCC ~0; HPCC ~900 KB" if k != "rcc" else "near zero"))
    plots = []
    series_g, series_q = [], []
    for k, label in names:
        out = os.path.join(out_dir, f"b-incast-{k}")
        series_g.append(series(label, *aggregate_goodput(out)))
        series_q.append(series(label, *queue_trace(out, "s0", 0)))
    plots.append({"title": "Aggregate goodput at the receiver (Fig. 7)", "type": "lines", "xlabel": "time (ms)",
                  "ylabel": "goodput (Gb/s)", "series": series_g, "refs": [{"y": 94.98, "label": "paper 94.98"}]})
    plots.append({"title": "Queue at the bottleneck, ToR port to the receiver (Fig. 8)", "type": "lines",
                  "xlabel": "time (ms)", "ylabel": "queue (KB)", "ylog": True, "series": series_q,
                  "refs": [{"y": 900, "label": "paper: HPCC 900 KB"}]})
    differs = (f"Goodput ({r['goodput']:.1f} Gb/s) and FCT (RCC {100 * (1 - r['p50'] / h['p50']):.1f} % / "
               f"{100 * (1 - r['p99'] / h['p99']):.1f} % below HPCC at p50 / p99) agree. The queue does not: 1000 flows "
               f"starting together at line rate with one BDP each put ~150 MB in flight before any ACK returns, so "
               f"every scheme holds the PFC-bounded {r['peak_kb'] / 1e3:.1f} MB for ~{r['above_1mb_ms']:.0f} ms; then "
               f"RCC paces the 1001 flows at exactly C in sum, which keeps any queue up to N x MTU - BDP "
               f"(~{1001 * 1.048 - 156:.0f} KB, one packet in flight per flow) where it is: {r['steady_kb']:.0f} KB "
               f"standing, like HPCC ({st['hpcc-formulation']['steady_kb']:.0f} KB in the paper's formulation, "
               f"{h['steady_kb']:.0f} KB with the code's). See README.md.")
    item = {"id": "fig7-8-incast", "kind": "figure", "title": "Figs. 7-8: 1000 x 200 KB incast plus a background "
            "flow (320-host fat tree): goodput, FCT, bottleneck queue", "rows": [list(x) for x in lines],
            "differs": differs, "plots": plots}
    return lines, item


# (c) Table II --------------------------------------------------------------------------------------------
PAUSE_N = (16, 32, 64, 128, 192, 256)
PAUSE_PAPER = {"dcqcn": (0, 0, 0, 0, 27.6, 42.1), "timely": (0, 0, 3.1, 7.2, 33.9, 54.9), "rcc": (0, 0, 0, 0, 0, 0.3)}
PAUSE_SCHEMES = (("dcqcn", ["cc.algorithm=dcqcn"]), ("timely", ["cc.algorithm=timely"]), ("rcc", []))
FABRICS = (("star", lambda n: [f"topology={{type: star, hosts: {n + 1}}}", f"workload.0.senders=1-{n}"]),
           ("fattree", lambda n: [f"workload.0.senders=16-{15 + n}"]))


def c_cases(full):
    return [(f"c-pause-{fab}-{cc}-{n}", "c-pause.yaml", sets + fabric(n))
            for fab, fabric in FABRICS for cc, sets in PAUSE_SCHEMES for n in PAUSE_N]


def c_analyse(out_dir, full):
    lines, plots = [], []
    share = {}
    for fab, _ in FABRICS:
        for cc, _ in PAUSE_SCHEMES:
            share[(fab, cc)] = [100 * pause_time_share(os.path.join(out_dir, f"c-pause-{fab}-{cc}-{n}")) for n in PAUSE_N]
            lines.append((f"(c) {'one switch' if fab == 'star' else 'fat tree'}, {cc.upper()}: pause-time share (%), "
                          f"N = {', '.join(map(str, PAUSE_N))}", ", ".join(f"{x:.1f}" for x in share[(fab, cc)]),
                          ", ".join(f"{x:g}" for x in PAUSE_PAPER[cc])))
        plots.append({"title": f"PFC pause-time share, {'one switch' if fab == 'star' else 'fat tree'} (Table II)",
                      "type": "bars", "ylabel": "pause-time share (%)", "categories": [f"N={n}" for n in PAUSE_N],
                      "series": [{"label": f"{cc.upper()} (lossless)", "y": [round(x, 2) for x in share[(fab, cc)]]}
                                 for cc, _ in PAUSE_SCHEMES]
                      + [{"label": f"{cc.upper()} (paper)", "y": list(PAUSE_PAPER[cc])} for cc, _ in PAUSE_SCHEMES]})
    star_rcc, tree_rcc = share[("star", "rcc")], share[("fattree", "rcc")]
    differs = (f"On one switch RCC never pauses (max {max(star_rcc):.1f} %) while DCQCN does from N = "
               f"{first_nonzero(share[('star', 'dcqcn')])}, as in the paper (DCQCN from 192). On the fat tree (12 us base "
               f"RTT) RCC pauses from N = {first_nonzero(tree_rcc)} ({tree_rcc[-1]:.0f} % at 256): its first round trip "
               f"puts N x BDP = N x 150 KB in flight, over the receiver ToR's dynamic PFC threshold (2/3 of its "
               f"~31 MB shared buffer, 20.5 MB) once N > 137. TIMELY and DCQCN send their 200 KB at line rate before "
               f"any feedback, so both pause alike. See README.md.")
    item = {"id": "table2-pause-time", "kind": "table", "title": "Table II: PFC pause-time share (%) of N-to-1 "
            "incasts of 200 KB", "rows": [list(x) for x in lines], "differs": differs, "plots": plots}
    return lines, item


def first_nonzero(shares):
    for n, x in zip(PAUSE_N, shares):
        if x > 0:
            return n
    return "never"


# (d) Fig. 15 ---------------------------------------------------------------------------------------------
MB_VARIANTS = (("rcc", "RCC", []), ("pid", "RCC-PID", ["cc.params.ewa=false"]),
               ("ewa", "RCC-EWA", ["cc.params.pid=false"]))


def mb_spacing_ms(full):
    return 100.0 if full else 5.0


def mb_sets(full):
    s = mb_spacing_ms(full)
    return [f"stop={3 * s:g}ms", f"workload.0.flows.1.start={s:g}ms", f"workload.0.flows.2.start={2 * s:g}ms"]


def d_cases(full):
    return ([(f"d-multi-{k}", "d-multi-bottleneck.yaml", mb_sets(full) + sets) for k, _, sets in MB_VARIANTS]
            + [("g-multi-rcc-analysis-gains", "d-multi-bottleneck.yaml", mb_sets(full) + ANALYSIS_GAINS)])


def mb_phases(out, full):
    """Per phase (1, 2, 3 flows): the mean goodput of each active flow over the phase's second half."""
    s = mb_spacing_ms(full)
    per = goodput_by_flow(out)
    res = []
    for k in range(3):
        lo, hi = s * k + s / 2, s * (k + 1)
        res.append([mean_over(*per[f], lo, hi) for f in range(k + 1)])
    return res


MB_FAIR = ([95.4], [47.7, 47.7], [47.7, 47.7, 47.7])


def d_analyse(out_dir, full):
    lines, plots = [], []
    s = mb_spacing_ms(full)
    for k, label, _ in MB_VARIANTS + (("g", "RCC, Kp 16 Kd 7e3", None),):
        out = os.path.join(out_dir, "g-multi-rcc-analysis-gains" if k == "g" else f"d-multi-{k}")
        ph = mb_phases(out, full)
        qt, qb = queue_trace(out, "s0", 2)
        lt, lb = queue_trace(out, "s1", 1)
        for i, rates in enumerate(ph):
            lines.append((f"(d) {label}, {i + 1} flow{'s' if i else ''}: goodput (Gb/s), Jain",
                          ", ".join(f"{r:.1f}" for r in rates) + (f"; {jain(rates):.3f}" if i else ""),
                          ", ".join(f"{x:g}" for x in MB_FAIR[i]) + " (max-min fair)"))
        lines.append((f"(d) {label}: mean queue in-network / last hop, 2-3 flows (KB)",
                      f"{mean_over(qt, qb, s, 3 * s):.1f} / {mean_over(lt, lb, s, 3 * s):.1f}",
                      "RCC near zero; RCC-EWA large" if k in ("rcc", "ewa") else ""))
        per = goodput_by_flow(out)
        plots.append({"title": f"{label}: goodput per flow (Fig. 15)", "type": "lines", "xlabel": "time (ms)",
                      "ylabel": "goodput (Gb/s)", "series": [series(f"flow {f + 1}", *per[f]) for f in sorted(per)],
                      "refs": [{"y": 47.7, "label": "max-min fair 47.7"}]})
    differs = ("RCC-EWA holds about one BDP in the in-network queue and RCC-PID re-converges after each change, as in the "
               "paper; full RCC keeps the queues small but its PID with the evaluation's gains (Kp 1e4, Kd 1e5) does "
               "not share the in-network link fairly: every flow in PID multiplies its window by the same 1 - tanh(U) "
               "of the same delay, so nothing pulls the windows together and the oscillation of these gains drifts "
               "one flow to the one-MTU floor. With the analysis' gains (Kp 16, Kd 7e3) the drift is slow. See "
               "README.md." + ("" if full else " Reduced scale: flows 5 ms apart (paper 100 ms; --full)."))
    item = {"id": "fig15-multi-bottleneck", "kind": "figure", "title": "Fig. 15: multi-bottleneck (in-network and "
            "last-hop congestion), RCC vs RCC-PID vs RCC-EWA", "rows": [list(x) for x in lines], "differs": differs,
            "plots": plots}
    return lines, item


# (e) Fig. 12 ---------------------------------------------------------------------------------------------
CLOCK_VARIANTS = (("rcc", "RCC (n = 3)", []), ("async", "RCC-async (1 us jitter)", ["cc.params.clock_jitter=1us"]),
                  ("sender", "RCC-sender", ["cc.params.variant=sender"]),
                  ("n1", "RCC n = 1", ["cc.params.n=1"]), ("n2", "RCC n = 2", ["cc.params.n=2"]),
                  ("n4", "RCC n = 4", ["cc.params.n=4"]))


def e_cases(full):
    out = []
    for k, _, sets in CLOCK_VARIANTS:
        if k != "rcc":  # (b)'s RCC run and (d)'s are the baselines
            out.append((f"e-incast-{k}", "b-incast.yaml", sets))
            out.append((f"e-multi-{k}", "d-multi-bottleneck.yaml", mb_sets(full) + sets))
    return out


def e_analyse(out_dir, full):
    lines, plots = [], []
    g_inc, g_mb = [], []
    for k, label, _ in CLOCK_VARIANTS:
        inc = os.path.join(out_dir, "b-incast-rcc" if k == "rcc" else f"e-incast-{k}")
        mb = os.path.join(out_dir, "d-multi-rcc" if k == "rcc" else f"e-multi-{k}")
        st = incast_stats(inc)
        lines.append((f"(e) {label}, incast: goodput (Gb/s), FCT p50 / p99 (ms)",
                      f"{st['goodput']:.2f}, {st['p50']:.2f} / {st['p99']:.2f}",
                      "async a little lower; sender ~ RCC; n = 1 lower, n > 2 ~ n = 3"))
        ph = mb_phases(mb, full)
        lines.append((f"(e) {label}, multi-bottleneck: goodput 2 flows; 3 flows (Gb/s)",
                      ", ".join(f"{r:.1f}" for r in ph[1]) + "; " + ", ".join(f"{r:.1f}" for r in ph[2]), "(not in paper)"))
        g_inc.append(series(label, *aggregate_goodput(inc)))
        ts, ys = aggregate_goodput(mb)
        g_mb.append(series(label, ts, ys))
    plots.append({"title": "Goodput at the incast receiver (Fig. 12 setting)", "type": "lines", "xlabel": "time (ms)",
                  "ylabel": "goodput (Gb/s)", "series": g_inc})
    plots.append({"title": "Total goodput of the three flows, multi-bottleneck", "type": "lines", "xlabel": "time (ms)",
                  "ylabel": "goodput (Gb/s)", "series": g_mb})
    differs = ("On the paper's setting (the incast) all variants give identical runs: the receiver's link stays "
               "saturated from the first packets to the last (B_R >= eta C base_rtt), so Algorithm 1 never reaches the "
               "delay test and neither n, the clocks nor where the delay is measured can matter. On the "
               "multi-bottleneck, where the delay decides, they differ (rows above); see README.md.")
    item = {"id": "fig12-clock-and-n", "kind": "figure", "title": "Fig. 12: clock synchronization (RCC-async, "
            "RCC-sender) and the detection parameter n", "rows": [list(x) for x in lines], "differs": differs,
            "plots": plots}
    return lines, item


# (g) PID gains -------------------------------------------------------------------------------------------

def g_cases(full):
    return []  # its runs belong to (a), (b), (d)


def g_analyse(out_dir, full):
    a1, a2 = (staircase_stats(os.path.join(out_dir, n), full) for n in ("a-staircase-rcc", "g-staircase-rcc-analysis-gains"))
    b1, b2 = (incast_stats(os.path.join(out_dir, n)) for n in ("b-incast-rcc", "g-incast-rcc-analysis-gains"))
    d1, d2 = (mb_phases(os.path.join(out_dir, n), full) for n in ("d-multi-rcc", "g-multi-rcc-analysis-gains"))
    same_a = all(abs(x - y) < 1e-9 for s1, s2 in zip(a1, a2) for x, y in zip(s1[3], s2[3]))
    same_b = b1["p50"] == b2["p50"] and b1["p99"] == b2["p99"]
    lines = [("(g) Fig. 6 with Kp 16, Kd 7e3: identical to Kp 1e4, Kd 1e5", "yes" if same_a else "no", "(not in paper)"),
             ("(g) Figs. 7-8 with Kp 16, Kd 7e3: identical", "yes" if same_b else "no", "(not in paper)"),
             ("(g) Fig. 15, 2 flows: goodput with 1e4/1e5; with 16/7e3",
              ", ".join(f"{r:.1f}" for r in d1[1]) + "; " + ", ".join(f"{r:.1f}" for r in d2[1]), "47.7 each")]
    differs = ("Figs. 6-8 are last-hop congestion only: no flow ever enters PID control, so both gain sets reproduce them "
               "alike. The gains matter only with in-network congestion (Fig. 15), where the analysis' range is the "
               "stable one (README.md).")
    item = {"id": "pid-gains", "kind": "table", "title": "Which PID gains reproduce Figs. 6-8 (MECHANISMS §3: "
            "evaluation 1e4/1e5 vs analysis [1, 16] / [1e3, 7e3])", "rows": [list(x) for x in lines], "differs": differs}
    return lines, item


EXPERIMENTS = [Experiment("a", a_cases, a_analyse), Experiment("b", b_cases, b_analyse),
               Experiment("e", e_cases, e_analyse), Experiment("c", c_cases, c_analyse),
               Experiment("d", d_cases, d_analyse), Experiment("g", g_cases, g_analyse)]
NEEDS = {"a": ("a-",), "b": ("b-",), "c": ("c-",), "d": ("d-", "g-multi-rcc-analysis-gains"), "e": ("e-", "b-incast-rcc", "d-multi-rcc"),
         "g": ("g-", "a-staircase-rcc", "b-incast-rcc", "d-multi-rcc")}


# ------------------------------------------------------------------------------------------------ running

def run_all(lossless, out_dir, todo, jobs):
    """Runs the cases `jobs` at a time; returns {name: error} for those that failed."""
    return case_runner.run_all("rcc", lossless, HERE, out_dir, todo, jobs)


def main():
    ap = case_runner.arguments(ROOT, "rcc", "the paper's durations for (a) and (d) (a few minutes)")
    ap.add_argument("--only", default="", help="comma-separated experiment keys (a,b,c,d,e,g); default all")
    a = ap.parse_args()
    keys = [k for k in a.only.split(",") if k] or [e.key for e in EXPERIMENTS]
    chosen = [e for e in EXPERIMENTS if e.key in keys]
    prefixes = [p for e in chosen for p in NEEDS[e.key]]  # an analysis may use another experiment's runs
    todo = [c for e in EXPERIMENTS for c in e.cases(a.full) if any(c[0].startswith(p) for p in prefixes)]
    failed = run_all(a.lossless, a.out, todo, max(1, a.jobs))
    lines, items = [("experiment", "lossless", "paper")], []
    for e in chosen:
        broken = [n for n in failed if any(n.startswith(p) for p in NEEDS[e.key])]
        if broken:
            lines.append((f"({e.key}) cases {', '.join(sorted(broken))}", "FAILED", ""))
            continue
        try:
            ls, item = e.analyse(a.out, a.full)
        except (OSError, ValueError, KeyError, RuntimeError) as err:
            failed[f"{e.key}-analysis"] = str(err)
            lines.append((f"({e.key}) analysis", "FAILED", str(err)))
            continue
        lines += ls
        items.append(item)
    order = ["fig6-staircase", "fig7-8-incast", "fig12-clock-and-n", "table2-pause-time", "fig15-multi-bottleneck",
             "pid-gains"]
    items.sort(key=lambda it: order.index(it["id"]) if it["id"] in order else len(order))
    case_runner.print_table(lines, 40)
    results = {"paper": "rcc", "title": "RCC: receiver-driven RDMA congestion control with congestion divide-and-conquer "
               "(Zhang et al., IEEE/ACM ToN 2023)", "scale": "full" if a.full else "reduced",
               "command": "experiments/rcc/run.py" + (" --full" if a.full else ""),
               "summary": "Micro-benchmarks of ToN'23 §V-B and §V-D on lossless: (b), (c), (e) at the paper's scale; "
                          + ("(a), (d) at the paper's durations." if a.full else
                             "(a) at 1/20 of the paper's sizes and (d) with flows 5 ms apart (--full: the paper's).")
                          + " Known differences and their causes: experiments/rcc/README.md.",
               "items": items, "failed": [{"case": n, "error": e} for n, e in sorted(failed.items())]}
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    return 2 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
