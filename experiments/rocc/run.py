#!/usr/bin/env python3
"""Re-runs the RoCC paper's micro-benchmarks (TPDS'23 §VI) and prints each result beside the paper's number.

usage: experiments/rocc/run.py [--lossless build/lossless] [--out out/rocc] [--plot]
Experiments: (a) fairness, queue and settling time for N = 2, 10, 100 at 40G and 100G (20 ms; steady state
from 12 ms); (b) the 3 -> 100 -> 3 flow staircase; (c) multi-bottleneck; (d) asymmetric topology with RoCC and with
HPCC; (e) the large-scale scenario at reduced duration (50 % load for 2 ms, 70 % for 10 ms). Rates in (c), (d) are wire rates averaged from 4 ms to the
end (8 ms). Standard library only (--plot calls `lossless plot`, which needs matplotlib).
"""
import argparse
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def run(lossless, scenario, out, sets=()):
    cmd = [lossless, "run", os.path.join(HERE, scenario), "-o", out, "--quiet"]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True)
    return out


def wire_rates(out, start_ns=4e6):
    acc = {}
    for r in csv.DictReader(open(os.path.join(out, "flow_rates.csv"))):
        if float(r["time_ns"]) > start_ns:
            acc.setdefault(int(r["flow_id"]), []).append(float(r["rate_bps"]) * 1048 / 1000)
    return {k: sum(v) / len(v) for k, v in acc.items()}


STEADY_NS = 12e6
STAIRCASE = (3, 6, 12, 25, 50, 100, 50, 25, 12, 6, 3)  # flows during each 10 ms step of (b)


def settled_ms(out, target, port="0"):
    """Last time the CP's fair rate was more than 10 % off `target` (ms)."""
    last = 0.0
    for r in csv.DictReader(open(os.path.join(out, "rocc.csv"))):
        if r["node"] == "s0" and r["port"] == port and abs(float(r["fair_rate_bps"]) / target - 1) > 0.10:
            last = float(r["time_ns"])
    return last / 1e6


def mean_queue(out, start_ns=4e6):
    q = [float(r["bytes"]) for r in csv.DictReader(open(os.path.join(out, "queues.csv"))) if float(r["time_ns"]) > start_ns]
    return sum(q) / len(q)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lossless", default=os.path.join(ROOT, "build", "lossless"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "rocc"))
    ap.add_argument("--plot", action="store_true")
    a = ap.parse_args()
    lines = [("experiment", "lossless", "paper")]
    outs = []
    for gbps, qref in ((40, 150), (100, 300)):
        for n in (2, 10, 100):
            out = run(a.lossless, "a-fairness.yaml", os.path.join(a.out, f"a-{gbps}g-n{n}"),
                      [f"topology.hosts={n + 1}", f"workload.0.senders=1-{n}", f"topology.host_link.rate={gbps}Gbps",
                       f"workload.0.rate={gbps * 9 // 10}Gbps"])
            outs.append(out)
            r = wire_rates(out, STEADY_NS)
            fair = gbps * 1e9 / n
            lines.append((f"(a) {gbps}G N={n}: per-flow rate / (B/N), min-max, 12-20 ms",
                          f"{min(r.values()) / fair:.3f} - {max(r.values()) / fair:.3f}", "1.0"))
            lines.append((f"(a) {gbps}G N={n}: mean queue (KB), 12-20 ms", f"{mean_queue(out, STEADY_NS) / 1e3:.0f}",
                          f"{qref} (Q_ref)"))
            lines.append((f"(a) {gbps}G N={n}: F within 10 % of B/N from", f"{settled_ms(out, fair):.1f} ms", "~2 ms"))
    out = run(a.lossless, "b-staircase.yaml", os.path.join(a.out, "b-staircase"))
    outs.append(out)
    trace = [(float(r["time_ns"]), float(r["fair_rate_bps"])) for r in csv.DictReader(open(os.path.join(out, "rocc.csv")))
             if r["node"] == "s0" and r["port"] == "0"]
    # Step times: when a group's first flow starts (up) or its last flow finishes (down); groups are sized for
    # 10 ms steps but finish a little early or late, so each step is timed from the run itself.
    flows = list(csv.DictReader(open(os.path.join(out, "fct.csv"))))
    groups = ((3, 6), (6, 12), (12, 25), (25, 50), (50, 100))  # flow ids [lo, hi) of each added group
    # A down step starts when the group's last flow has finished and ends when the next group's first flow does.
    ups = [min(float(f["start_ns"]) for f in flows[lo:hi]) for lo, hi in groups]
    first_end = [min(float(f["finish_ns"] or "inf") for f in flows[lo:hi]) for lo, hi in reversed(groups)]
    last_end = [max(float(f["finish_ns"] or "inf") for f in flows[lo:hi]) for lo, hi in reversed(groups)]
    starts = [0.0] + ups + last_end
    ends = ups + first_end + [110e6]
    for k, n in enumerate(STAIRCASE):
        t0, t1, target = starts[k], ends[k], 40e9 / n
        window = [(t, f) for t, f in trace if t0 <= t < t1]
        settled = t1
        for t, f in reversed(window):
            if abs(f / target - 1) > 0.10:
                break
            settled = t
        lines.append((f"(b) step at {t0 / 1e6:.1f} ms to N={n} ({target / 1e9:.2f} Gb/s): F within 10 % after",
                      f"{(settled - t0) / 1e6:.1f} ms (step lasts {(t1 - t0) / 1e6:.1f})", "< 2 ms"))
    out = run(a.lossless, "c-multi-bottleneck.yaml", os.path.join(a.out, "c-multi-bottleneck"))
    outs.append(out)
    r = wire_rates(out)
    lines.append(("(c) D0, D5 (Gb/s)", f"{r[0] / 1e9:.2f}, {r[5] / 1e9:.2f}", "5, 5"))
    lines.append(("(c) D1..D4 (Gb/s)", ", ".join(f"{r[i] / 1e9:.2f}" for i in range(1, 5)), "8.75 each"))
    out = run(a.lossless, "d-asymmetric.yaml", os.path.join(a.out, "d-asymmetric-rocc"))
    outs.append(out)
    r = wire_rates(out)
    lines.append(("(d) RoCC D0..D6 (Gb/s)", ", ".join(f"{r[i] / 1e9:.2f}" for i in range(7)), "14.29 each"))
    out = run(a.lossless, "d-asymmetric.yaml", os.path.join(a.out, "d-asymmetric-hpcc"),
              ["cc.algorithm=hpcc", "switch.mechanism=none", "switch.params={}"])
    r = wire_rates(out)
    lines.append(("(d) HPCC D0..D4 / D5, D6 (Gb/s)", ", ".join(f"{r[i] / 1e9:.1f}" for i in range(5)) + " / " +
                  f"{r[5] / 1e9:.1f}, {r[6] / 1e9:.1f}", "~9.4 / ~24.5"))
    schemes = (("rocc", []), ("dcqcn", ["cc.algorithm=dcqcn", "switch.mechanism=none"]),
               ("hpcc", ["cc.algorithm=hpcc", "switch.mechanism=none"]),
               ("timely", ["cc.algorithm=timely", "switch.mechanism=none"]))
    for load, ms in ((0.5, 2), (0.7, 10)):
        for cc, sets in schemes:
            out = run(a.lossless, "e-large-scale.yaml", os.path.join(a.out, f"e-large-scale-{cc}-{int(load * 100)}"),
                      sets + [f"workload.0.load={load}", f"workload.0.duration={ms}ms"])
            s = json.load(open(os.path.join(out, "summary.json")))
            lines.append((f"(e) {load:.0%} load, {ms} ms, {cc}: slowdown mean / p99, PFC pauses",
                          f"{s['slowdown']['mean']:.2f} / {s['slowdown']['p99']:.2f}, {s['pfc']['pause_frames']}",
                          "RoCC lowest tail, fewest pauses"))
    w = max(len(l[0]) for l in lines)
    for e, m, p in lines:
        print(f"{e:<{w}}  {m:<34}  {p}")
    if a.plot:
        subprocess.run([a.lossless, "plot"] + outs, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
