#!/usr/bin/env python3
"""Re-runs the RoCC paper's micro-benchmarks (TPDS'23 §VI) and prints each result beside the paper's number.

usage: experiments/rocc/run.py [--lossless build/lossless] [--out out/rocc] [--full] [-j N] [--plot]
Follows the experiment protocol of experiments/README.md (`lossless reproduce rocc` runs it): prints the table
below, a progress line per case on stderr, and writes OUT/results.json (figures as plot data, drawn by
tools/report.py).
Experiments: (a) fairness, queue and settling time for N = 2, 10, 100 at 40G and 100G (20 ms; steady state
from 12 ms), again with switch.params.low_queue_full_gain (the ruling on the settling time) and at 40G N = 100
with pi_rounding: result; (b) the 3 -> 100 -> 3 flow staircase, with and without low_queue_full_gain; Fig. 11:
N = 10 at 40G with every scheme; (c) multi-bottleneck and (d) asymmetric topology (Fig. 12) with every scheme;
(e) the large-scale fat tree with every scheme, WebSearch and FB_Hadoop at 50 % and 70 % load, run as one sweep
(`lossless sweep` of the generated OUT/e-sweep.yaml) with the paper's static PFC thresholds (500 KB at 40G, 800 KB at
100G ingress ports), 5 ms of arrivals by default and the paper's 100 ms with --full ((a)-(d) always run the paper's
durations). Where a result differs from the paper, a run that isolates the cause is part of the set (the f11-*,
c-multi-bottleneck-20ms, -bfc-1q, d-asymmetric-dcqcn-40ms cases; dcqcn-dynamic-*, rocc-lqfg-*, pacc-40us-* in
(e)), and every item carries a verdict (experiments/README.md). Schemes: RoCC, DCQCN, DCQCN+PI, HPCC, TIMELY, QCN, BFC, and
PACC as soon as `lossless list mechanisms` names it (OPTIONAL_SCHEMES). Rates in (c), (d) are wire rates averaged
from 4 ms to the end (8 ms). Standard library only (--plot calls `lossless plot`, which needs matplotlib). Exit
status 2 if a case failed (the others are still reported).
"""
import json
import math
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import case_runner  # noqa: E402
import outputs  # noqa: E402
from outputs import series  # noqa: E402

STEADY_NS = 12e6
STAIRCASE = (3, 6, 12, 25, 50, 100, 50, 25, 12, 6, 3)  # flows during each 10 ms step of (b)
# Every scheme RoCC is compared with, as --set overrides of a RoCC scenario (whose switch.params are RoCC's).
BASE_SCHEMES = (
    ("rocc", ["cc.algorithm=rocc", "switch.mechanism=rocc"]),
    ("dcqcn", ["cc.algorithm=dcqcn", "switch.mechanism=none", "switch.params={}"]),
    ("dcqcn-pi", ["cc.algorithm=dcqcn", "switch.mechanism=none", "switch.params={}", "switch.ecn.marking=pi"]),
    ("hpcc", ["cc.algorithm=hpcc", "switch.mechanism=none", "switch.params={}"]),
    ("timely", ["cc.algorithm=timely", "switch.mechanism=none", "switch.params={}"]),
    ("qcn", ["cc.algorithm=qcn", "switch.mechanism=qcn", "switch.params={}"]),
    # BFC as its authors run it: no end-to-end congestion control, no ECN; PFC stays as a last resort.
    ("bfc", ["cc.algorithm=none", "switch.mechanism=none", "switch.params={}", "switch.flow_control=bfc",
             "switch.ecn.enabled=false"]),
)
# Schemes that join when the binary registers them (the switch mechanism named last): PACC is being built on
# branch `mercury`; adjust its settings here if its scheme takes others.
OPTIONAL_SCHEMES = (
    ("pacc", ["cc.algorithm=dcqcn", "switch.mechanism=pacc", "switch.params={}"], "pacc"),
)
SCHEMES = BASE_SCHEMES  # replaced in main() by the schemes the binary has
LABELS = {"rocc": "RoCC", "dcqcn": "DCQCN", "dcqcn-pi": "DCQCN+PI", "hpcc": "HPCC", "timely": "TIMELY",
          "qcn": "QCN", "bfc": "BFC", "pacc": "PACC"}
WORKLOADS = (("WebSearch", "websearch"), ("FB_Hadoop", "fbhadoop"))
SETTLE = ((40, 2), (40, 10), (40, 100), (100, 2), (100, 10), (100, 100))


class CaseFailed(Exception):
    pass


# The multi-bottleneck runs of RoCC and DCQCN recorded for `lossless view` (the report links their pages to Fig. 10).
VIEW = ["monitor.fabric.interval=10us"]

def fairness_sets(gbps, n):
    return [f"topology.hosts={n + 1}", f"workload.0.senders=1-{n}", f"topology.host_link.rate={gbps}Gbps",
            f"workload.0.rate={gbps * 9 // 10}Gbps"]


LQFG = ["switch.params.low_queue_full_gain=true"]


def cases(full):
    """Every run but (e)'s sweep: (name, scenario file, --set overrides). Names are the output folders."""
    out = []
    for gbps, n in SETTLE:
        out.append((f"a-{gbps}g-n{n}", "a-fairness.yaml", fairness_sets(gbps, n)))
        out.append((f"a-{gbps}g-n{n}-lqfg", "a-fairness.yaml", fairness_sets(gbps, n) + LQFG))
    out.append(("a-40g-n100-result", "a-fairness.yaml", fairness_sets(40, 100) + ["switch.params.pi_rounding=result"]))
    out.append(("b-staircase", "b-staircase.yaml", []))
    out.append(("b-staircase-lqfg", "b-staircase.yaml", LQFG))
    for cc, sets in SCHEMES:
        # Fig. 11: N = 10 at 40G with every scheme (RoCC's own run is (a)'s).
        if cc != "rocc":
            out.append((f"f11-{cc}", "a-fairness.yaml", fairness_sets(40, 10) + sets))
    # Runs that isolate why a Fig. 11 row differs at 12-20 ms: TIMELY's start-up recovery (60 ms, read at
    # 40-60 ms), HPCC's W_AI for N = 100 expected flows (expected_flows = 10, the flows present), DCQCN+PI's
    # convergence (80 ms, read at 40-80 ms).
    sets_of = dict(SCHEMES)
    out.append(("f11-timely-60ms", "a-fairness.yaml", fairness_sets(40, 10) + sets_of["timely"] + ["stop=60ms"]))
    out.append(("f11-hpcc-n10", "a-fairness.yaml", fairness_sets(40, 10) + sets_of["hpcc"] + ["cc.params.expected_flows=10"]))
    out.append(("f11-dcqcn-pi-80ms", "a-fairness.yaml", fairness_sets(40, 10) + sets_of["dcqcn-pi"] + ["stop=80ms"]))
    out.append(("c-multi-bottleneck", "c-multi-bottleneck.yaml", VIEW))  # recorded for `lossless view`
    out.append(("d-asymmetric-rocc", "d-asymmetric.yaml", []))
    for cc, sets in SCHEMES:
        if cc != "rocc":
            out.append((f"c-multi-bottleneck-{cc}", "c-multi-bottleneck.yaml", sets + (VIEW if cc == "dcqcn" else [])))
            out.append((f"d-asymmetric-{cc}", "d-asymmetric.yaml", sets))
    # Isolating runs of Figs. 10 and 12: RoCC's middle CP after its climb from F_min (20 ms, read at 8-20 ms);
    # BFC with one physical queue per port (flows share it, as colliding flows do); DCQCN on the asymmetric
    # topology once recovered (40 ms, read at 20-40 ms).
    out.append(("c-multi-bottleneck-20ms", "c-multi-bottleneck.yaml", ["stop=20ms"]))
    out.append(("c-multi-bottleneck-bfc-1q", "c-multi-bottleneck.yaml", sets_of["bfc"] + ["switch.bfc.data_queues=1"]))
    out.append(("d-asymmetric-dcqcn-40ms", "d-asymmetric.yaml", sets_of["dcqcn"] + ["stop=40ms"]))
    return out


def e_ms(full):
    """Arrivals of the large-scale runs (ms): the paper's 100 ms with --full."""
    return 100 if full else 5


# (e) runs with the paper's static PFC thresholds (e-large-scale.yaml: 500 KB at 40G ingress ports, 800 KB at
# 100G); these put back the dynamic threshold of the 32 MB pool we ran before, to show what the thresholds change.
DYNAMIC_PFC = ["switch.pfc.threshold=dynamic", "switch.pfc.xoff_by_rate={}"]


def e_cases():
    """(e)'s sweep: every scheme x workload x load, as (name, --set overrides); then DCQCN with the dynamic
    threshold (Fig. 17(b)'s isolating run) and RoCC with low_queue_full_gain at 70 % (is the start-up climb of
    its CPs what puts it behind HPCC in some size bins?)."""
    out = []
    sets_of = dict(SCHEMES)
    for cdf, tag in WORKLOADS:
        for load in (0.5, 0.7):
            wl = [f"workload.0.cdf={cdf}", f"workload.0.load={load}"]
            for cc, sets in SCHEMES:
                out.append((f"{cc}-{tag}-{int(load * 100)}", sets + wl))
            out.append((f"dcqcn-dynamic-{tag}-{int(load * 100)}", sets_of["dcqcn"] + wl + DYNAMIC_PFC))
        out.append((f"rocc-lqfg-{tag}-70", sets_of["rocc"] + [f"workload.0.cdf={cdf}", "workload.0.load=0.7"] + LQFG))
    if "pacc" in sets_of:  # PACC's update period at RoCC's 40 us (its default is 80 us)
        out.append(("pacc-40us-fbhadoop-70", sets_of["pacc"] + ["workload.0.cdf=FB_Hadoop", "workload.0.load=0.7",
                                                                "switch.params.period=40us"]))
    return out


def write_e_sweep(out_dir):
    """OUT/e-sweep.yaml: (e) as one sweep over the base scenario, which `lossless sweep` runs."""
    path = os.path.join(out_dir, "e-sweep.yaml")
    lines = ["# Generated by experiments/rocc/run.py: the RoCC paper's large-scale comparison (e), one case per",
             "# scheme, workload and load. Duration: --set workload.0.duration=... (run.py sets it).",
             f"scenario: {json.dumps(os.path.join(HERE, 'e-large-scale.yaml'))}", f"out: {json.dumps(os.path.join(out_dir, 'e'))}",
             "cases:"]
    for name, sets in e_cases():
        # Values as YAML, the way --set reads them (`{}` is an empty mapping, not a string).
        kv = ", ".join(f"{json.dumps(k)}: {v}" for k, v in (x.split("=", 1) for x in sets))
        lines.append(f"  - {{name: {name}, set: {{{kv}}}}}")
    os.makedirs(out_dir, exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def run_sweep(lossless, out_dir, full, jobs):
    """Runs (e)'s sweep; returns {case: error} for the cases that failed."""
    path = write_e_sweep(out_dir)
    sys.stderr.write(f"[rocc] case e-sweep ({len(e_cases())} runs, {e_ms(full)} ms of arrivals each) ...\n")
    t0 = time.time()
    p = subprocess.run([lossless, "sweep", path, "-j", str(jobs), "-o", os.path.join(out_dir, "e"), "--quiet",
                        "--set", f"workload.0.duration={e_ms(full)}ms"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    failed = {}
    try:
        for c in outputs.read_json(out_dir, "e", "sweep.json")["cases"]:
            if not c["ok"]:
                failed["e-" + c["name"]] = c["error"] or "failed"
    except (OSError, ValueError, KeyError):
        failed["e-sweep"] = (p.stderr.strip().splitlines() or [f"exit status {p.returncode}"])[-1]
    if p.returncode != 0 and not failed:
        failed["e-sweep"] = (p.stderr.strip().splitlines() or [f"exit status {p.returncode}"])[-1]
    sys.stderr.write(f"[rocc] case e-sweep done in {time.time() - t0:.1f} s\n")
    return failed


def run_all(lossless, out_dir, todo, jobs):
    """Runs the cases `jobs` at a time; returns {name: error} for those that failed."""
    return case_runner.run_all("rocc", lossless, HERE, out_dir, todo, jobs)


def wire_rates(out, start_ns=4e6):
    """{flow: mean wire rate (b/s) after start_ns}. Raises CaseFailed when flow_rates.csv has no sample then (the
    run ended before the window it is measured over: a stop time too short)."""
    acc = {}
    for r in outputs.rows(out, "flow_rates.csv"):
        if float(r["time_ns"]) > start_ns:
            acc.setdefault(int(r["flow_id"]), []).append(float(r["rate_bps"]) * 1048 / 1000)
    if not acc:
        raise CaseFailed(f"{os.path.basename(out)}: no rate sample after {start_ns / 1e6:g} ms in flow_rates.csv, the "
                         f"window the rates are measured over")
    return {k: sum(v) / len(v) for k, v in acc.items()}


def settled_ms(out, target, port="0"):
    """Last time the CP's fair rate was more than 10 % off `target` (ms)."""
    last = 0.0
    for r in outputs.rows(out, "rocc.csv"):
        if r["node"] == "s0" and r["port"] == port and abs(float(r["fair_rate_bps"]) / target - 1) > 0.10:
            last = float(r["time_ns"])
    return last / 1e6


def mean_queue(out, start_ns=4e6):
    q = queue_samples(out, start_ns)
    return sum(q) / len(q)


def fair_trace(out, node="s0", port="0"):
    return [(float(r["time_ns"]), float(r["fair_rate_bps"])) for r in outputs.rows(out, "rocc.csv")
            if r["node"] == node and r["port"] == port]


def rate_series(out, flows, names):
    per = {}
    for r in outputs.rows(out, "flow_rates.csv"):
        f = int(r["flow_id"])
        if f in flows:
            per.setdefault(f, ([], []))
            per[f][0].append(float(r["time_ns"]) / 1e6)
            per[f][1].append(float(r["rate_bps"]) * 1048 / 1000 / 1e9)
    return [series(names[f], *per[f]) for f in flows if f in per]


def fairness(out_dir):
    """(a), Fig. 8: rows, and plots of F/(B/N) and the queue over time per link speed."""
    lines, plots, off_fair, off_qref = [], [], 0.0, 0.0
    for gbps, qref in ((40, 150), (100, 300)):
        f_series, q_series = [], []
        for n in (2, 10, 100):
            out = os.path.join(out_dir, f"a-{gbps}g-n{n}")
            r = wire_rates(out, STEADY_NS)
            fair = gbps * 1e9 / n
            off_fair = max(off_fair, max(abs(v / fair - 1) for v in r.values()))
            off_qref = max(off_qref, abs(mean_queue(out, STEADY_NS) / 1e3 / qref - 1))
            lines.append((f"(a) {gbps}G N={n}: per-flow rate / (B/N), min-max, 12-20 ms",
                          f"{min(r.values()) / fair:.3f} - {max(r.values()) / fair:.3f}", "1.0"))
            lines.append((f"(a) {gbps}G N={n}: mean queue (KB), 12-20 ms", f"{mean_queue(out, STEADY_NS) / 1e3:.0f}",
                          f"{qref} (Q_ref)"))
            lines.append((f"(a) {gbps}G N={n}: F within 10 % of B/N from", f"{settled_ms(out, fair):.1f} ms", "~2 ms"))
            tr = fair_trace(out)
            f_series.append(series(f"N={n}", [t / 1e6 for t, _ in tr], [f / fair for _, f in tr]))
            q = [(float(x["time_ns"]), float(x["bytes"])) for x in outputs.rows(out, "queues.csv")]
            q_series.append(series(f"N={n}", [t / 1e6 for t, _ in q], [b / 1e3 for _, b in q]))
        plots.append({"title": f"{gbps}G: fair rate F / (B/N) at the congested port", "type": "lines",
                      "xlabel": "time (ms)", "ylabel": "F / (B/N)", "ylog": True, "series": f_series,
                      "refs": [{"y": 1.0, "label": "fair share (paper: reached in ~2 ms)"}]})
        plots.append({"title": f"{gbps}G: queue at the congested port", "type": "lines", "xlabel": "time (ms)",
                      "ylabel": "queue (KB)", "series": q_series, "refs": [{"y": qref, "label": f"Q_ref {qref} KB"}]})
    settle = [float(m.split()[0]) for e, m, _ in lines if "F within" in e]
    differs = (f"Steady states match (every flow within {100 * off_fair:.1f} % of B/N, the mean queue within "
               f"{100 * off_qref:.0f} % of Q_ref), but F settles in "
               f"{min(settle):.1f}-{max(settle):.1f} ms, not ~2 ms: Algorithm 1 with the paper's parameters climbs "
               f"from F_min by at most 2 units per 40 us tick, and 100 synchronised line-rate starts first fill "
               f"~24 MB (experiments/rocc/README.md).")
    item = {"id": "fig8-fairness", "kind": "figure",
            "title": "Fig. 8: fairness, queue and settling time, N = 2, 10, 100 flows into one port at 40G and 100G",
            "rows": [list(x) for x in lines], "differs": differs, "verdict": "differs", "plots": plots}
    return lines, item


def staircase_steps(out):
    """(b): (t0, t1, N, settled time) of every step of one staircase run, and the fair-rate trace."""
    trace = fair_trace(out)
    # Step times: when a group's first flow starts (up) or its last flow finishes (down); groups are sized for
    # 10 ms steps but finish a little early or late, so each step is timed from the run itself.
    flows = list(outputs.rows(out, "fct.csv"))
    groups = ((3, 6), (6, 12), (12, 25), (25, 50), (50, 100))  # flow ids [lo, hi) of each added group
    # A down step starts when the group's last flow has finished and ends when the next group's first flow does.
    ups = [min(float(f["start_ns"]) for f in flows[lo:hi]) for lo, hi in groups]
    first_end = [min(float(f["finish_ns"] or "inf") for f in flows[lo:hi]) for lo, hi in reversed(groups)]
    last_end = [max(float(f["finish_ns"] or "inf") for f in flows[lo:hi]) for lo, hi in reversed(groups)]
    starts = [0.0] + ups + last_end
    ends = ups + first_end + [110e6]
    steps = []
    for k, n in enumerate(STAIRCASE):
        t0, t1, target = starts[k], ends[k], 40e9 / n
        window = [(t, f) for t, f in trace if t0 <= t < t1]
        settled = t1
        for t, f in reversed(window):
            if abs(f / target - 1) > 0.10:
                break
            settled = t
        steps.append((t0, t1, n, settled))
    return steps, trace, starts


def staircase(out_dir):
    """(b), Fig. 9: the settling time of every step, and F over time beside the fair share. A step times from a
    flow's finish: a down step starts when the leaving group's last flow finishes (never, if one did not) and a
    step ends when the next group's first flow does (at the run's end, if none did)."""
    steps, trace, starts = staircase_steps(os.path.join(out_dir, "b-staircase"))
    lines, took = [], []  # took: each step's settling time (ms, as shown), None where there is none
    for k, (t0, t1, n, settled) in enumerate(steps):
        if math.isinf(t0):
            took.append(None)
            lines.append((f"(b) step {k + 1} to N={n} ({40 / n:.2f} Gb/s): F within 10 % after",
                          "not reached: a flow of the group leaving did not finish", "< 2 ms"))
            continue
        took.append(None if math.isinf(settled) else float(f"{(settled - t0) / 1e6:.1f}"))
        lasts = (f"{(t1 - t0) / 1e6:.1f}" if not math.isinf(t1) else
                 "until the run's end: no flow of the group finished")
        lines.append((f"(b) step at {t0 / 1e6:.1f} ms to N={n} ({40 / n:.2f} Gb/s): F within 10 % after",
                      f"{(settled - t0) / 1e6:.1f} ms (step lasts {lasts})" if took[-1] is not None else
                      f"not by the run's end (step lasts {lasts})", "< 2 ms"))
    shown = [(t, n) for t, n in zip(starts, STAIRCASE) if not math.isinf(t)]  # the steps reached
    plot = {"title": "F at the 40G bottleneck as flows go 3 -> 100 -> 3", "type": "lines", "xlabel": "time (ms)",
            "ylabel": "rate (Gb/s)", "ylog": True,
            "series": [series("fair rate F", [t / 1e6 for t, _ in trace], [f / 1e9 for _, f in trace]),
                       {"label": "fair share 40G / N", "x": [t / 1e6 for t, _ in shown] + [110.0],
                        "y": [40 / n for _, n in shown] + [40 / STAIRCASE[-1]], "style": "steps"}]}
    # The first step (0 ms) is the start-up, timed in Fig. 8's terms.
    down, up = [x for x in took[6:] if x is not None], [x for x in took[1:6] if x is not None]
    halving = (f"Halving steps settle in {min(down):.1f}-{max(down):.1f} ms, within the paper's 2 ms" if down else
               "No halving step is reached (a flow of the group leaving did not finish)")
    doubling = f"doubling steps take {min(up):.1f}-{max(up):.1f} ms" if up else "no doubling step settles by the run's end"
    differs = (f"{halving}; {doubling}: F must climb, and Algorithm 1 with the paper's gains climbs at most 2 units per "
               f"tick near F_min (the ruling on the settling time: see its own item).")
    item = {"id": "fig9-staircase", "kind": "figure", "title": "Fig. 9: fair rate through a 3 -> 100 -> 3 flow staircase",
            "rows": [list(x) for x in lines], "plots": [plot], "differs": differs, "verdict": "differs"}
    return lines, item


def climb_ticks(gbps, target_bps):
    """Ticks Algorithm 1 needs from F_min to `target_bps` with an empty queue: at most trunc(alpha0 / ratio x
    Q_ref) units per tick (the beta terms cancel over a climb)."""
    f_max, q_ref, alpha0 = gbps * 100, (150e3 if gbps == 40 else 300e3) / 600, 0.3 if gbps == 40 else 0.45
    f, ticks = 10, 0
    while f < target_bps / 1e7:
        level = 2
        while f < f_max // level and level < 64:
            level *= 2
        f += int(alpha0 / (level // 2) * int(q_ref))
        ticks += 1
    return ticks


def ruling(out_dir):
    """The ruling on the settling time: Algorithm 1 as published (default) beside low_queue_full_gain, and the
    two roundings."""
    lines, f_series = [], []
    for gbps, n in SETTLE:
        fair = gbps * 1e9 / n
        off = settled_ms(os.path.join(out_dir, f"a-{gbps}g-n{n}"), fair)
        on_dir = os.path.join(out_dir, f"a-{gbps}g-n{n}-lqfg")
        on = settled_ms(on_dir, fair)
        r = wire_rates(on_dir, STEADY_NS)
        lines.append((f"(a) {gbps}G N={n}: F within 10 % of B/N from, low_queue_full_gain off / on",
                      f"{off:.1f} / {on:.1f} ms", "~2 ms"))
        lines.append((f"(a) {gbps}G N={n}, low_queue_full_gain on: rate / (B/N) min-max, mean queue (KB)",
                      f"{min(r.values()) / fair:.3f} - {max(r.values()) / fair:.3f}, {mean_queue(on_dir, STEADY_NS) / 1e3:.0f}",
                      f"1.0, {150 if gbps == 40 else 300}"))
        if n <= 10:
            for tag, d in (("off", f"a-{gbps}g-n{n}"), ("on", f"a-{gbps}g-n{n}-lqfg")):
                tr = fair_trace(os.path.join(out_dir, d))
                f_series.append(series(f"{gbps}G N={n} {tag}", [t / 1e6 for t, _ in tr], [f / fair for _, f in tr],
                                       "solid" if tag == "off" else "dashed"))
    ups = {}
    for tag, d in (("off", "b-staircase"), ("on", "b-staircase-lqfg")):
        steps, _, _ = staircase_steps(os.path.join(out_dir, d))
        ups[tag] = [(settled - t0) / 1e6 for t0, _, _, settled in steps[1:6]]
    lines.append(("(b) doubling steps: F within 10 % after, low_queue_full_gain off / on",
                  f"{min(ups['off']):.1f}-{max(ups['off']):.1f} / {min(ups['on']):.1f}-{max(ups['on']):.1f} ms", "< 2 ms"))
    q_adj = mean_queue(os.path.join(out_dir, "a-40g-n100"), STEADY_NS) / 1e3
    q_res = mean_queue(os.path.join(out_dir, "a-40g-n100-result"), STEADY_NS) / 1e3
    lines.append(("(a) 40G N=100: mean queue (KB), pi_rounding adjustment / result", f"{q_adj:.0f} / {q_res:.0f}",
                  "150 (Q_ref)"))
    ticks = climb_ticks(40, 18e9)
    differs = (f"Algorithm 1 as published (the authors' model computes it the same way) climbs from F_min by at most "
               f"2/4/9/18/37/75 units per 40 us tick across the auto-tune regions: {ticks} ticks "
               f"({ticks * 0.04:.1f} ms) to 18 Gb/s at 40G, so the paper's ~2 ms cannot come from it. The authors' "
               f"earlier, unused controller uses full gain while the queue is nearly empty "
               f"(low_queue_full_gain, off by default); with it F settles in the times on the right. Truncating "
               f"the whole result instead of the adjustment (pi_rounding: result, the authors' model) floors every "
               f"small cut and biases the queue below Q_ref at N = 100.")
    plot = {"title": "F / (B/N) with Algorithm 1 as published (solid) and with low_queue_full_gain (dashed)",
            "type": "lines", "xlabel": "time (ms)", "ylabel": "F / (B/N)", "ylog": True, "series": f_series,
            "refs": [{"y": 1.0, "label": "fair share"}]}
    item = {"id": "ruling-settling", "kind": "figure",
            "title": "Ruling on the settling time: Algorithm 1 as published beside low_queue_full_gain; PI rounding",
            "rows": [list(x) for x in lines], "differs": differs, "verdict": "differs", "plots": [plot]}
    return lines, item


def queue_samples(out, start_ns):
    """The queue samples (bytes) after start_ns; raises CaseFailed when there is none (as wire_rates())."""
    q = [float(r["bytes"]) for r in outputs.rows(out, "queues.csv") if float(r["time_ns"]) > start_ns]
    if not q:
        raise CaseFailed(f"{os.path.basename(out)}: no queue sample after {start_ns / 1e6:g} ms in queues.csv, the "
                         f"window the queue is measured over")
    return q


FIG11_PAPER = {
    "rocc": "4 Gb/s each; queue at Q_ref; full link",
    "dcqcn": "close to 4 Gb/s; queue fluctuates ~100 KB",
    "dcqcn-pi": "fairly stable queue; high utilisation",
    "hpcc": "below 4 Gb/s (5 % headroom); shallow queue",
    "timely": "significant deviation from 4 Gb/s; unstable ~200 KB queue; high utilisation",
    "qcn": "significant deviation from 4 Gb/s",
    "bfc": "close to 4 Gb/s (comparable to RoCC)",
    "pacc": "more stable than DCQCN, converges faster",
}


def f11_stats(out, start_ns):
    """Per-flow wire rates (min, max Gb/s), queue mean and sd (KB) and utilisation of a Fig. 11 run after start_ns."""
    r = wire_rates(out, start_ns)
    q = queue_samples(out, start_ns)
    qm = sum(q) / len(q)
    sd = (sum((x - qm) ** 2 for x in q) / len(q)) ** 0.5
    return min(r.values()) / 1e9, max(r.values()) / 1e9, qm / 1e3, sd / 1e3, sum(r.values()) / 40e9


def f11_cell(v):
    return f"{v[0]:.2f}-{v[1]:.2f} / {v[2]:.0f} +- {v[3]:.0f} / {100 * v[4]:.1f} %"


def timely_recovery_ms(gbps=40, n=10, segment=16e3, min_rate=10e6):
    """TIMELY (paper variant) after a synchronised line-rate start: every flow is cut to min_rate, then gains
    delta = line / 1000 per completed segment, i.e. dr/dt = delta r / segment: (segment / delta) ln(share /
    min_rate) to climb back to its share (docs/model.md)."""
    delta = gbps * 1e9 / 1000
    return segment * 8 / delta * math.log(gbps * 1e9 / n / min_rate) * 1e3


def fig11(out_dir):
    """Fig. 11: N = 10 flows into one 40G link with every scheme: per-flow rate, queue, utilisation."""
    lines, q_series, stats = [], [], {}
    for cc, _ in SCHEMES:
        out = os.path.join(out_dir, "a-40g-n10" if cc == "rocc" else f"f11-{cc}")
        stats[cc] = f11_stats(out, STEADY_NS)
        lines.append((f"Fig. 11 {LABELS[cc]}: per-flow rate min-max (Gb/s) / queue mean +- sd (KB) / utilisation",
                      f11_cell(stats[cc]), FIG11_PAPER.get(cc, "")))
        rows = [(float(x["time_ns"]), float(x["bytes"])) for x in outputs.rows(out, "queues.csv")]
        q_series.append(series(LABELS[cc], [t / 1e6 for t, _ in rows], [b / 1e3 for _, b in rows]))
    # The isolating runs.
    t60 = f11_stats(os.path.join(out_dir, "f11-timely-60ms"), 40e6)
    h10 = f11_stats(os.path.join(out_dir, "f11-hpcc-n10"), STEADY_NS)
    p80 = f11_stats(os.path.join(out_dir, "f11-dcqcn-pi-80ms"), 40e6)
    lines.append(("Fig. 11 TIMELY, run for 60 ms, read at 40-60 ms: rate min-max / queue / utilisation", f11_cell(t60),
                  FIG11_PAPER["timely"]))
    lines.append(("Fig. 11 HPCC with expected_flows = 10 (W_AI for the 10 flows present): rate / queue / utilisation",
                  f11_cell(h10), FIG11_PAPER["hpcc"]))
    lines.append(("Fig. 11 DCQCN+PI, run for 80 ms, read at 40-80 ms: rate / queue / utilisation", f11_cell(p80),
                  FIG11_PAPER["dcqcn-pi"]))
    cats = [LABELS[cc] for cc, _ in SCHEMES]
    plots = [{"title": "Fig. 11(a): per-flow rate, N = 10 at 40G (12-20 ms)", "type": "bars", "ylabel": "rate (Gb/s)",
              "categories": cats, "series": [{"label": "slowest flow", "y": [round(stats[c][0], 3) for c, _ in SCHEMES]},
                                             {"label": "fastest flow", "y": [round(stats[c][1], 3) for c, _ in SCHEMES]}],
              },
             {"title": "Fig. 11(b): queue at the bottleneck", "type": "lines", "xlabel": "time (ms)", "ylabel": "queue (KB)",
              "series": q_series},
             {"title": "Fig. 11(c): bottleneck utilisation (12-20 ms)", "type": "bars", "ylabel": "utilisation (%)",
              "categories": cats, "series": [{"label": "lossless", "y": [round(100 * stats[c][4], 2) for c, _ in SCHEMES]}]},
             {"title": "TIMELY, 10 flows into 40G over 60 ms: per-flow rate (the start-up and its recovery)",
              "type": "lines", "xlabel": "time (ms)", "ylabel": "rate (Gb/s)",
              "series": rate_series(os.path.join(out_dir, "f11-timely-60ms"), range(10), {i: f"flow {i}" for i in range(10)}),
              "refs": [{"y": 4.0, "label": "fair share"}]}]
    rec = timely_recovery_ms()
    differs = (f"Ordering as in the paper: RoCC holds every flow at 4 Gb/s ({stats['rocc'][0]:.2f}-{stats['rocc'][1]:.2f}) "
               f"and the queue at Q_ref; QCN and TIMELY spread most (QCN {stats['qcn'][0]:.1f}-{stats['qcn'][1]:.1f} Gb/s, "
               f"802.1Qau's 10G constants; TIMELY {t60[0]:.2f}-{t60[1]:.2f} once recovered: its RTT-gradient law has no "
               f"unique operating point). Three rows differ at 12-20 ms, each isolated by a run: TIMELY carries "
               f"{100 * stats['timely'][4]:.0f} % because the ten line-rate starts cut every flow to min_rate (10 Mb/s) and "
               f"delta per 16-KB completion climbs back in (16 KB / 40 Mb/s) ln(4 Gb/s / 10 Mb/s) = {rec:.0f} ms; run for "
               f"60 ms it uses {100 * t60[4]:.0f} % at 40-60 ms with a queue of {t60[2]:.0f} +- {t60[3]:.0f} KB (paper: "
               f"high utilisation, unstable ~200 KB). HPCC spreads {stats['hpcc'][0]:.1f}-{stats['hpcc'][1]:.1f} Gb/s with "
               f"W_AI sized for 100 expected flows (its only equalising term, 10x too small for 10 flows); with "
               f"expected_flows = 10: {h10[0]:.2f}-{h10[1]:.2f} Gb/s at {100 * h10[4]:.0f} % (paper: below 4 Gb/s, "
               f"comparable fairness). DCQCN+PI (the fluid model's gains) is still recovering from its start-up at "
               f"12-20 ms ({100 * stats['dcqcn-pi'][4]:.0f} %); at 40-80 ms it uses {100 * p80[4]:.0f} % with flows at "
               f"{p80[0]:.2f}-{p80[1]:.2f} Gb/s but a queue of {p80[2]:.0f} +- {p80[3]:.0f} KB, less stable than the "
               f"paper's (its proportional gain is 23x below RED's slope at 40G: experiments/rocc/README.md).")
    item = {"id": "fig11-comparison", "kind": "figure",
            "title": "Fig. 11: N = 10 flows into one 40G link: RoCC beside every other scheme",
            "rows": [list(x) for x in lines], "plots": plots, "differs": differs, "verdict": "differs"}
    return lines, item


def multi_bottleneck(out_dir):
    out = os.path.join(out_dir, "c-multi-bottleneck")
    r = wire_rates(out)
    long = wire_rates(os.path.join(out_dir, "c-multi-bottleneck-20ms"), 8e6)
    lines = [("(c) D0, D5 (Gb/s)", f"{r[0] / 1e9:.2f}, {r[5] / 1e9:.2f}", "5, 5"),
             ("(c) D1..D4 (Gb/s)", ", ".join(f"{r[i] / 1e9:.2f}" for i in range(1, 5)), "8.75 each"),
             ("(c) run for 20 ms, read at 8-20 ms: D0, D5 / D1..D4 (Gb/s)",
              f"{long[0] / 1e9:.2f}, {long[5] / 1e9:.2f} / " + ", ".join(f"{long[i] / 1e9:.2f}" for i in range(1, 5)),
              "5, 5 / 8.75 each")]
    plot = {"title": "Per-flow rate (wire) with two congestion points (20-ms run)", "type": "lines", "xlabel": "time (ms)",
            "ylabel": "rate (Gb/s)",
            "series": rate_series(os.path.join(out_dir, "c-multi-bottleneck-20ms"), range(6), {i: f"D{i}" for i in range(6)}),
            "refs": [{"y": 5.0, "label": "paper: D0, D5"}, {"y": 8.75, "label": "paper: D1..D4"}]}
    mid = [r[i] / 1e9 for i in range(1, 5)]
    used = sum(r[i] for i in range(5)) / 1e9
    ticks = climb_ticks(40, 8.75e9)
    differs = (f"Reproduced: once the middle CP's fair rate has climbed, D0 and D5 get {long[0] / 1e9:.2f} and "
               f"{long[5] / 1e9:.2f} Gb/s and D1..D4 {min(long[i] for i in range(1, 5)) / 1e9:.2f}-"
               f"{max(long[i] for i in range(1, 5)) / 1e9:.2f} (8-20 ms of a 20-ms run). Averaged over 4-8 ms of the 8-ms "
               f"run D1..D4 get {min(mid):.2f}-{max(mid):.2f} and the 40G link {used:.1f} Gb/s, because the CP's F starts at "
               f"F_min and Algorithm 1 needs {ticks} ticks ({ticks * 0.04:.1f} ms) to reach 8.75 Gb/s (the ruling on the "
               f"settling time).")
    item = {"id": "fig10-multi-bottleneck", "kind": "figure", "views": ["c-multi-bottleneck", "c-multi-bottleneck-dcqcn"],
            "title": "Fig. 10 / 12(a): multi-bottleneck fairness (D0 crosses two congestion points)",
            "rows": [list(x) for x in lines], "plots": [plot], "differs": differs, "verdict": "reproduced"}
    return lines, item


FIG12A_PAPER = {"rocc": "5 / 5 / 8.75", "dcqcn": "D0 30 % below 5; the others above", "hpcc": "D0 ~50 % below 5",
                "bfc": "D0, D5 ~5; D1..D4 ~45 % below 8.75", "pacc": "like DCQCN"}
FIG12B_PAPER = {"rocc": "14.29 each", "dcqcn": "close to 14.29 each", "hpcc": "~9.4 / ~24.5",
                "bfc": "fairer than DCQCN", "pacc": "close to RoCC"}


def fig12(out_dir):
    """Fig. 12: the multi-bottleneck and asymmetric topologies with every scheme."""
    lines, a_bars, b_bars = [], [], []
    for cc, _ in SCHEMES:
        c = wire_rates(os.path.join(out_dir, "c-multi-bottleneck" + ("" if cc == "rocc" else f"-{cc}")))
        d = wire_rates(os.path.join(out_dir, f"d-asymmetric-{cc}"))
        lines.append((f"Fig. 12(a) {LABELS[cc]}: D0 / D5 / D1..D4 mean (Gb/s)",
                      f"{c[0] / 1e9:.2f} / {c[5] / 1e9:.2f} / {sum(c[i] for i in range(1, 5)) / 4e9:.2f}",
                      FIG12A_PAPER.get(cc, "not in Fig. 12")))
        lines.append((f"Fig. 12(b) {LABELS[cc]}: D0..D4 mean / D5, D6 mean (Gb/s)",
                      f"{sum(d[i] for i in range(5)) / 5e9:.2f} / {(d[5] + d[6]) / 2e9:.2f}",
                      FIG12B_PAPER.get(cc, "not in Fig. 12")))
        a_bars.append({"label": LABELS[cc], "y": [round(c[i] / 1e9, 3) for i in range(6)]})
        b_bars.append({"label": LABELS[cc], "y": [round(d[i] / 1e9, 3) for i in range(7)]})
    plots = [{"title": "Fig. 12(a): per-flow rate, multi-bottleneck (fair: 5, 8.75 x 4, 5)", "type": "bars",
              "ylabel": "rate (Gb/s)", "categories": [f"D{i}" for i in range(6)], "series": a_bars},
             {"title": "Fig. 12(b): per-flow rate, asymmetric topology (fair: 14.29 each)", "type": "bars",
              "ylabel": "rate (Gb/s)", "categories": [f"D{i}" for i in range(7)], "series": b_bars,
              "refs": [{"y": 14.29, "label": "fair share"}]}]
    b1 = wire_rates(os.path.join(out_dir, "c-multi-bottleneck-bfc-1q"))
    d40 = wire_rates(os.path.join(out_dir, "d-asymmetric-dcqcn-40ms"), 20e6)
    lines.append(("Fig. 12(a) BFC with one physical queue per port: D0 / D5 / D1..D4 mean (Gb/s)",
                  f"{b1[0] / 1e9:.2f} / {b1[5] / 1e9:.2f} / {sum(b1[i] for i in range(1, 5)) / 4e9:.2f}",
                  FIG12A_PAPER["bfc"]))
    lines.append(("Fig. 12(b) DCQCN, run for 40 ms, read at 20-40 ms: D0..D4 mean / D5, D6 mean (Gb/s)",
                  f"{sum(d40[i] for i in range(5)) / 5e9:.2f} / {(d40[5] + d40[6]) / 2e9:.2f}", FIG12B_PAPER["dcqcn"]))
    c = {cc: wire_rates(os.path.join(out_dir, "c-multi-bottleneck" + ("" if cc == "rocc" else f"-{cc}")))
         for cc in ("dcqcn", "hpcc", "bfc")}
    d = {cc: wire_rates(os.path.join(out_dir, f"d-asymmetric-{cc}")) for cc in ("dcqcn", "hpcc")}
    differs = (f"As in the paper, only RoCC gives every flow its share in both topologies. (a): DCQCN and HPCC short D0 "
               f"({c['dcqcn'][0] / 1e9:.2f} and {c['hpcc'][0] / 1e9:.2f} Gb/s against 5; paper 30 % and ~50 % below) while "
               f"the others take more. BFC with its 31 queues per port gives D1..D4 "
               f"{sum(c['bfc'][i] for i in range(1, 5)) / 4e9:.2f} Gb/s, not the paper's ~45 % below 8.75: our flows never "
               f"share a physical queue; with one queue per port (flows that share, as colliding flows do) D0's pause at S1 "
               f"blocks D1..D4 at S0 and they get {sum(b1[i] for i in range(1, 5)) / 4e9:.2f} (D0, D5 {b1[0] / 1e9:.2f}, "
               f"{b1[5] / 1e9:.2f}), the paper's picture. (b): HPCC favours the 100G-attached flows as in the paper "
               f"({(d['hpcc'][5] + d['hpcc'][6]) / 2e9:.1f} against {sum(d['hpcc'][i] for i in range(5)) / 5e9:.1f} Gb/s; "
               f"paper 24.5 / 9.4). DCQCN uses {sum(d['dcqcn'].values()) / 1e9:.0f} of the 100 Gb/s in the 8-ms run (every "
               f"flow cut by the line-rate start and recovering by R_AI steps); at 20-40 ms of a 40-ms run its flows get "
               f"{min(d40.values()) / 1e9:.1f}-{max(d40.values()) / 1e9:.1f} Gb/s (paper: close to 14.29 each). QCN, DCQCN+PI "
               f"and TIMELY are not in the paper's Fig. 12.")
    item = {"id": "fig12-fairness", "kind": "figure", "title": "Fig. 12: fairness with two congestion points (a) and "
            "an asymmetric topology (b), every scheme", "rows": [list(x) for x in lines], "plots": plots,
            "differs": differs, "verdict": "differs"}
    return lines, item


def asymmetric(out_dir):
    rocc = wire_rates(os.path.join(out_dir, "d-asymmetric-rocc"))
    hpcc = wire_rates(os.path.join(out_dir, "d-asymmetric-hpcc"))
    lines = [("(d) RoCC D0..D6 (Gb/s)", ", ".join(f"{rocc[i] / 1e9:.2f}" for i in range(7)), "14.29 each"),
             ("(d) HPCC D0..D4 / D5, D6 (Gb/s)", ", ".join(f"{hpcc[i] / 1e9:.1f}" for i in range(5)) + " / " +
              f"{hpcc[5] / 1e9:.1f}, {hpcc[6] / 1e9:.1f}", "~9.4 / ~24.5")]
    cats = [f"D{i}" for i in range(7)]
    plot = {"title": "Per-flow rate: 5 x 40G + 2 x 100G sources into one 100G sink", "type": "bars",
            "ylabel": "rate (Gb/s)", "categories": cats,
            "series": [{"label": "RoCC (lossless)", "y": [round(rocc[i] / 1e9, 3) for i in range(7)]},
                       {"label": "RoCC (paper)", "y": [14.29] * 7},
                       {"label": "HPCC (lossless)", "y": [round(hpcc[i] / 1e9, 3) for i in range(7)]},
                       {"label": "HPCC (paper)", "y": [9.4] * 5 + [24.5] * 2}]}
    item = {"id": "asymmetric", "kind": "figure", "title": "Asymmetric topology: RoCC is fair, HPCC favours the 100G-attached flows",
            "rows": [list(x) for x in lines], "plots": [plot],
            "differs": f"RoCC gives every flow {min(rocc.values()) / 1e9:.2f}-{max(rocc.values()) / 1e9:.2f} Gb/s as in the paper. "
                       f"HPCC (the paper's formulation, W_AI from expected_flows = 100) favours the 100G-attached flows as in "
                       f"the paper, more strongly: {sum(hpcc[i] for i in range(5)) / 5e9:.1f} / "
                       f"{(hpcc[5] + hpcc[6]) / 2e9:.1f} Gb/s against 9.4 / 24.5.",
            "verdict": "reproduced"}
    return lines, item


BINS = ((0, 10e3, "<10K"), (10e3, 100e3, "10K-100K"), (100e3, 1e6, "100K-1M"), (1e6, 10e6, "1M-10M"),
        (10e6, float("inf"), ">=10M"))
# Tail-FCT ratios the paper states (scheme's p99 FCT / RoCC's, over the flow-size bins, 70 % load).
TAIL_PAPER = {("websearch", "dcqcn"): "1.7-4.5", ("websearch", "hpcc"): "1.4-3.9", ("websearch", "pacc"): "1.6-3.6",
              ("websearch", "bfc"): "1.1-3.5", ("fbhadoop", "dcqcn"): "2.1-7", ("fbhadoop", "hpcc"): "3.5-8.2",
              ("fbhadoop", "pacc"): "1.4-2.6", ("fbhadoop", "bfc"): "3.3-19.1"}
TABLE3_PAPER = {"dcqcn": (378.86, 2635.63), "hpcc": (211.02, 1459.04), "pacc": (301.33, 382.18), "bfc": (208.76, 1341.67),
                "rocc": (335.86, 232.52)}


def pct(xs, p):
    xs = sorted(xs)
    return xs[int(round(p / 100 * (len(xs) - 1)))] if xs else float("nan")


def fct_stats(out):
    """Per size bin (avg, p99) FCT in us and the per-flow average rates (size / FCT, Mb/s) of completed flows."""
    per_bin = [[] for _ in BINS]
    rates = []
    for r in outputs.rows(out, "fct.csv"):
        if not r["finish_ns"]:
            continue
        size, fct = float(r["size_bytes"]), float(r["fct_ns"])
        for i, (lo, hi, _) in enumerate(BINS):
            if lo <= size < hi:
                per_bin[i].append(fct / 1e3)
        rates.append(size * 8 / fct * 1e3)  # Mb/s
    bins = [(sum(v) / len(v) if v else float("nan"), pct(v, 99), len(v)) for v in per_bin]
    return bins, rates


NO_FLOW = "no flow finished"  # (e): a size bin of a run without a finished flow


def span(ratios):
    """p99 FCT ratios over the size bins as 'min-max', or what is missing when no bin had flows under both runs."""
    return f"{min(ratios):.2f}-{max(ratios):.2f}" if ratios else "no size bin with flows finished under both"


def empty_bins(bins):
    """' (no flow finished: <bins>)' naming the size bins of fct_stats() without a finished flow, or ''."""
    empty = [lab for (_, _, lab), b in zip(BINS, bins) if not b[2]]
    return f" ({NO_FLOW}: {', '.join(empty)})" if empty else ""


def large_scale(out_dir, full):
    """(e), Figs. 15-17 and Table III: every scheme on the fat tree, WebSearch and FB_Hadoop at 50 % and 70 %."""
    ms = e_ms(full)
    lines, plots, stats = [], [], {}
    for _, tag in WORKLOADS:
        for load in (0.5, 0.7):
            extra = ["dcqcn-dynamic"] + (["rocc-lqfg"] if load == 0.7 else [])
            if tag == "fbhadoop" and load == 0.7 and "pacc" in dict(SCHEMES):
                extra.append("pacc-40us")
            for cc in [c for c, _ in SCHEMES] + extra:
                out = os.path.join(out_dir, "e", f"{cc}-{tag}-{int(load * 100)}")
                s = outputs.summary(out)
                bins, rates = fct_stats(out)
                m = sum(rates) / len(rates) if rates else float("nan")  # no flow finished: no rate
                sd = (sum((x - m) ** 2 for x in rates) / len(rates)) ** 0.5 if rates else float("nan")
                stats[(tag, load, cc)] = (s, bins, m, sd)
    for cdf, tag in WORKLOADS:
        for load in (0.5, 0.7):
            rocc = stats[(tag, load, "rocc")][1]
            for cc, _ in SCHEMES:
                s, bins, m, sd = stats[(tag, load, cc)]
                ratios = [b[1] / r[1] for b, r in zip(bins, rocc) if b[2] and r[2]]
                paper = TAIL_PAPER.get((tag, cc), "RoCC lowest" if cc == "rocc" else "not in Figs. 15-16")
                # summary.json's slowdown of a run that finished no flow is 0: not a slowdown.
                slowdown = (f"{s['slowdown']['mean']:.2f} / {s['slowdown']['p99']:.2f}" if any(b[2] for b in bins)
                            else NO_FLOW)
                lines.append((f"(e) {cdf} {load:.0%}, {ms} ms, {LABELS[cc]}: p99 FCT / RoCC's over size bins; "
                              f"slowdown mean / p99; PFC pauses",
                              f"{span(ratios)}{empty_bins(bins)}; {slowdown}; {s['pfc']['pause_frames']}",
                              paper if load == 0.7 else "consistent with 70 %"))
        for key, label in ((0, "average FCT"), (1, "p99 FCT")):
            finished = {LABELS[cc]: [b[2] for b in stats[(tag, 0.7, cc)][1]] for cc, _ in SCHEMES}
            plots.append({"title": f"Fig. {15 + key} ({cdf}, 70 % load, {ms} ms): {label} by flow size", "type": "bars",
                          "ylabel": f"{label} (us)", "ylog": True,
                          "categories": outputs.bin_categories([b[2] for b in BINS], finished),
                          "series": [{"label": LABELS[cc], "y": [outputs.log_value(b[key], 2)
                                                                 for b in stats[(tag, 0.7, cc)][1]]} for cc, _ in SCHEMES]})
    def p99_ratios(tag, a, b):
        """p99 FCT of case a over case b per size bin (bins where both have flows)."""
        return [x[1] / y[1] for x, y in zip(stats[(tag, 0.7, a)][1], stats[(tag, 0.7, b)][1]) if x[2] and y[2]]

    iso = []
    for cdf, tag in WORKLOADS:
        plain, lqfg = p99_ratios(tag, "hpcc", "rocc"), p99_ratios(tag, "hpcc", "rocc-lqfg")
        iso.append((cdf, plain, lqfg))
        lines.append((f"(e) {cdf} 70%, {ms} ms: HPCC's p99 FCT / RoCC's over size bins, RoCC as published / with "
                      f"low_queue_full_gain", f"{span(plain)} / {span(lqfg)}",
                      TAIL_PAPER[(tag, "hpcc")]))
    def bins_behind(tag, a, b):
        """Labels of the size bins where case a's p99 FCT is below case b's."""
        return [lab for (_, _, lab), x, y in zip(BINS, stats[(tag, 0.7, a)][1], stats[(tag, 0.7, b)][1])
                if x[2] and y[2] and x[1] < y[1]]

    small = {tag: (stats[(tag, 0.7, "rocc")][1][0][1], stats[(tag, 0.7, "hpcc")][1][0][1]) for _, tag in WORKLOADS}
    # Size bins at 70 % where RoCC and another scheme both finished flows: the comparisons below.
    compared = sum(1 for _, tag in WORKLOADS for cc, _ in SCHEMES if cc != "rocc"
                   for x, y in zip(stats[(tag, 0.7, cc)][1], stats[(tag, 0.7, "rocc")][1]) if x[2] and y[2])
    if not compared:
        differs = ((f"Reduced scale: {ms} ms of arrivals instead of the paper's 100 ms (--full). " if not full else "") +
                   "No size bin at 70 % load has flows finished under both RoCC and another scheme, so the tails are "
                   "not compared (rows).")
    else:
        differs = ((f"Reduced scale: {ms} ms of arrivals instead of the paper's 100 ms (--full). " if not full else "") +
                   "Ratios are each scheme's p99 FCT over RoCC's per size bin (min-max over the bins that have flows), beside "
                   "the ranges the paper gives for 70 % load. At 70 % RoCC's tail is below DCQCN's in " +
                   "; ".join(f"{len(bins_behind(tag, 'rocc', 'dcqcn'))} of {len([b for b in stats[(tag, 0.7, 'rocc')][1] if b[2]])} "
                             f"bins ({cdf})" for cdf, tag in WORKLOADS) +
                   " and below HPCC's in bins " +
                   "; ".join(f"{', '.join(bins_behind(tag, 'rocc', 'hpcc')) or 'none'} ({cdf})" for cdf, tag in WORKLOADS) +
                   ", but HPCC's is lower in bins " +
                   "; ".join(f"{', '.join(bins_behind(tag, 'hpcc', 'rocc')) or 'none'} ({cdf})" for cdf, tag in WORKLOADS) +
                   ", the short flows. Cause: RoCC holds every congested queue at Q_ref by design (150 KB = 30 us at 40G, 300 KB = 24 us at "
                   "100G) while HPCC keeps queues near empty (eta 0.95), and a short flow's FCT is its base RTT plus the "
                   "queues it crosses: p99 of flows under 10 KB " +
                   "; ".join(f"{cdf} RoCC {outputs.number(small[tag][0], '.0f', NO_FLOW, ' us')}, "
                             f"HPCC {outputs.number(small[tag][1], '.0f', NO_FLOW, ' us')}" for cdf, tag in WORKLOADS) +
                   ". It is not RoCC's slow start-up: with low_queue_full_gain (CPs climb in ~1 ms) the short flows wait "
                   "longer still (HPCC/RoCC " + "; ".join(f"{cdf} {span(lqfg)}" for cdf, _, lqfg in iso) +
                   ").")
    item = {"id": "fig15-16-fct", "kind": "figure",
            "title": "Figs. 15-16: average and p99 FCT by flow size, 3 x 3 fat tree, 90 hosts at 40G",
            "rows": [list(x) for x in lines], "plots": plots, "differs": differs, "verdict": "differs"}
    t_lines = []
    for cc, _ in SCHEMES:
        _, _, m, sd = stats[("fbhadoop", 0.7, cc)]
        p = TABLE3_PAPER.get(cc)
        t_lines.append((f"Table III {LABELS[cc]}: per-flow average rate / standard deviation (Mb/s)",
                        NO_FLOW if outputs.missing(m) else f"{m:.0f} / {sd:.0f}",
                        f"{p[0]:.0f} / {p[1]:.0f}" if p else "not in Table III"))
    t_plot = {"title": f"Table III: per-flow average rate (size / FCT), FB_Hadoop 70 %, {ms} ms", "type": "bars",
              "ylabel": "Mb/s", "categories": [LABELS[cc] for cc, _ in SCHEMES],
              "series": [{"label": label, "y": [None if outputs.missing(stats[("fbhadoop", 0.7, cc)][k]) else
                                                round(stats[("fbhadoop", 0.7, cc)][k], 1) for cc, _ in SCHEMES]}
                         for k, label in ((2, "mean"), (3, "standard deviation"))],
              "refs": [{"y": 333, "label": "ideal ~333 Mb/s (100 Gb/s / 300)"}]}
    table = {"id": "table3-rates", "kind": "figure", "title": "Table III: per-flow average rate, FB_Hadoop at 70 % load",
             "rows": [list(x) for x in t_lines], "plots": [t_plot],
             "differs": "Not covered: the paper records per-flow rates at the sources without saying how it samples or "
                        "averages them, and its ideal ~333 Mb/s (100 Gb/s shared by 300 flows at a core) assumes long-lived "
                        "flows. The numbers shown are each completed flow's size over its FCT, a different quantity: a "
                        "1-KB FB_Hadoop flow done in ~5 us counts 1.6 Gb/s, so they measure how fast short flows finish, "
                        "not how evenly the sources share, and are not compared with the paper's.",
             "verdict": "not-covered"}
    p_lines = []
    for cdf, tag in WORKLOADS:
        for load in (0.5, 0.7):
            p_lines.append((f"Fig. 17(b) {cdf} {load:.0%}: PFC pause frames by scheme",
                            ", ".join(f"{LABELS[cc]} {stats[(tag, load, cc)][0]['pfc']['pause_frames']}" for cc, _ in SCHEMES),
                            "RoCC up to 7x fewer than DCQCN, 2x fewer than PACC; HPCC, PACC, RoCC low" if load == 0.7 else ""))
    if "pacc" in dict(SCHEMES):
        p_lines.append(("Fig. 17(b) FB_Hadoop 70%: PACC pause frames, period 80 us / 40 us",
                        f"{stats[('fbhadoop', 0.7, 'pacc')][0]['pfc']['pause_frames']} / "
                        f"{stats[('fbhadoop', 0.7, 'pacc-40us')][0]['pfc']['pause_frames']}", "PACC 2x more than RoCC"))
    for cdf, tag in WORKLOADS:
        for load in (0.5, 0.7):
            p_lines.append((f"Fig. 17(b) {cdf} {load:.0%}: DCQCN pause frames, static 500/800 KB / dynamic threshold of "
                            f"the 32 MB pool", f"{stats[(tag, load, 'dcqcn')][0]['pfc']['pause_frames']} / "
                            f"{stats[(tag, load, 'dcqcn-dynamic')][0]['pfc']['pause_frames']}", "DCQCN pauses"))
    pauses = {(tag, load, cc): stats[(tag, load, cc)][0]["pfc"]["pause_frames"]
              for _, tag in WORKLOADS for load in (0.5, 0.7) for cc in [c for c, _ in SCHEMES] + ["dcqcn-dynamic"]}
    combos = [(tag, load) for _, tag in WORKLOADS for load in (0.5, 0.7)]
    dcqcn_pauses = all(pauses[(t, l, "dcqcn")] > 0 for t, l in combos)
    rocc_fewer = all(pauses[(t, l, "rocc")] * 7 <= pauses[(t, l, "dcqcn")] for t, l in combos if pauses[(t, l, "dcqcn")])
    low = [cc for cc in ("rocc", "hpcc") if all(pauses[(t, l, cc)] <= pauses[(t, l, "dcqcn")] for t, l in combos)]
    ws_dyn = pauses[("websearch", 0.7, "dcqcn-dynamic")]
    ws_st = pauses[("websearch", 0.7, "dcqcn")]
    has_pacc = "pacc" in dict(SCHEMES)
    # The paper: RoCC 2x fewer than PACC, PACC ~3.5x fewer than DCQCN.
    pacc_low = not has_pacc or all(pauses[(t, l, "pacc")] * 2 <= pauses[(t, l, "dcqcn")] for t, l in combos)
    verdict = "reproduced" if dcqcn_pauses and rocc_fewer and len(low) == 2 and pacc_low else "differs"
    pacc_text = ""
    if has_pacc:
        p40 = stats[("fbhadoop", 0.7, "pacc-40us")][0]["pfc"]["pause_frames"]
        pacc_text = (f" PACC pauses {', '.join(str(pauses[(t, l, 'pacc')]) for t, l in combos)} times, "
                     f"{pauses[('fbhadoop', 0.7, 'pacc')] / max(1, pauses[('fbhadoop', 0.7, 'dcqcn')]):.2f}x DCQCN at "
                     f"FB_Hadoop 70 % where the paper has it ~3.5x below: its switch acts every 80 us (its reconstructed "
                     f"default) against RoCC's 40 us; with a 40-us period it pauses {p40} times there "
                     f"({p40 / max(1, pauses[('fbhadoop', 0.7, 'dcqcn')]):.2f}x DCQCN).")
    pfc_differs = (f"With the paper's static thresholds (500 KB per 40G ingress port, 800 KB per 100G; e-large-scale.yaml) "
                   f"DCQCN pauses in {sum(1 for t, l in combos if pauses[(t, l, 'dcqcn')])} of the 4 workload/load cases "
                   f"(WebSearch 70 %: {ws_st}) where the dynamic threshold of the 32 MB pool we ran before pauses "
                   f"{ws_dyn} times: with the dynamic threshold a lone congested ingress of the ~32 MB shared pool S pauses "
                   f"at alpha S / (1 + alpha) = 3.5 MB at 40G (alpha 1/8) and 10.6 MB at 100G (alpha 1/2), 7-13x the "
                   f"paper's thresholds. RoCC pauses {', '.join(str(pauses[(t, l, 'rocc')]) for t, l in combos)} times and "
                   f"HPCC {', '.join(str(pauses[(t, l, 'hpcc')]) for t, l in combos)} against DCQCN's "
                   f"{', '.join(str(pauses[(t, l, 'dcqcn')]) for t, l in combos)} (WebSearch 50 %, 70 %, FB_Hadoop 50 %, "
                   f"70 %); TIMELY pauses as DCQCN does. BFC's count is of PFC frames (its own per-flow pauses are not "
                   f"PFC)." + pacc_text + (f" Reduced scale: {ms} ms of arrivals." if not full else ""))
    pfc = {"id": "fig17-pfc", "kind": "table", "title": "Fig. 17(b): PFC activations", "rows": [list(x) for x in p_lines],
           "differs": pfc_differs, "verdict": verdict}
    return lines + t_lines + p_lines, [item, table, pfc]


def available_schemes(lossless):
    """BASE_SCHEMES, plus the optional ones whose switch mechanism the binary registers."""
    try:
        listed = subprocess.run([lossless, "list", "mechanisms"], capture_output=True, text=True).stdout
    except OSError:
        listed = ""
    extra = tuple((cc, sets) for cc, sets, mech in OPTIONAL_SCHEMES if f"  {mech} — " in listed)
    return BASE_SCHEMES + extra


def main():
    global SCHEMES
    ap = case_runner.arguments(ROOT, "rocc", "(e) at the paper's 100 ms")
    ap.add_argument("--plot", action="store_true")
    a = ap.parse_args()
    SCHEMES = available_schemes(a.lossless)
    todo = cases(a.full)
    jobs = max(1, a.jobs)
    failed = run_all(a.lossless, a.out, todo, jobs)
    failed.update(run_sweep(a.lossless, a.out, a.full, jobs))
    lines = [("experiment", "lossless", "paper")]
    items = []
    def large_scale_e(d):
        return large_scale(d, a.full)

    analyses = ((fairness, ("a-",)), (ruling, ("a-", "b-")), (staircase, ("b-",)), (fig11, ("a-40g-n10", "f11-")),
                (multi_bottleneck, ("c-",)), (asymmetric, ("d-",)), (fig12, ("c-", "d-")), (large_scale_e, ("e-",)))
    for analyse, prefixes in analyses:
        broken = [n for n in failed if n.startswith(prefixes)]
        if broken:  # the item's numbers need every one of its cases
            lines.append((f"({prefixes[0].rstrip('-')}) cases {', '.join(sorted(broken))}", "FAILED", ""))
            continue
        try:
            ls, made = analyse(a.out)
        except CaseFailed as e:  # a run without the samples its item measures (wire_rates, queue_samples)
            name = f"({prefixes[0].rstrip('-')}) analysis {analyse.__name__}()"
            lines.append((name, "FAILED", str(e)))
            failed[name] = str(e)
            continue
        lines += ls
        items += made if isinstance(made, list) else [made]
    case_runner.print_table(lines, 34)
    results = {"paper": "rocc", "title": "RoCC: robust congestion control for RDMA (Menikumbura et al., IEEE TPDS 2023)",
               "scale": "full" if a.full else "reduced",
               "command": "experiments/rocc/run.py" + (" --full" if a.full else ""),
               "summary": "Micro-benchmarks of TPDS'23 §VI on lossless with RoCC and the schemes it is compared with ("
                          + ", ".join(LABELS[cc] for cc, _ in SCHEMES) + "): (a)-(d) and Figs. 11-12 at the paper's "
                          "durations, the large-scale comparison (e) as one sweep of "
                          + f"{len(e_cases())} runs with {e_ms(a.full)} ms of arrivals"
                          + (" (the paper's)." if a.full else " (the paper's 100 ms with --full).")
                          + " Known differences and their causes: experiments/rocc/README.md.",
               "items": items, "failed": [{"case": n, "error": e} for n, e in sorted(failed.items())]}
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    if a.plot:
        subprocess.run([a.lossless, "plot"] + [os.path.join(a.out, n) for n, _, _ in todo if n not in failed], check=True)
    return 2 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
