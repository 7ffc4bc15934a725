#!/usr/bin/env python3
"""Re-runs the RCM paper's experiments (Liu et al., "Regional Congestion Mitigation in Lossless Datacenter
Networks", NPC 2017, §4) and prints each result beside the paper's.

usage: experiments/rcm/run.py [--lossless build/lossless] [--out out/rcm] [--full] [--sweep] [-j N]
Follows the experiment protocol of experiments/README.md (`lossless reproduce rcm` runs it): prints the table, a
progress line per case on stderr, and writes OUT/results.json (figures as plot data, drawn by tools/report.py).
Every case runs on the paper's switch (switch.architecture voq, 100 KB queues) with DCQCN at the Mellanox 100G NIC
defaults; "RCM" adds switch.mechanism rcm, "DCQCN" is the same fabric without it.
  (a) Fig. 6, incast + 20 us micro-burst, and (b) Fig. 7, incast + victim flow: the switches the flows cross
      (custom topologies, 100 Gb/s links), at the paper's scale always (well under a second each).
  (c) Fig. 8, hot-spot traffic at 60 % load, and (d) Fig. 9, Enterprise and DataMining in 12 groups of 36 hosts
      at 60 % load: the paper's 432-host fat tree of 12-port switches (fat_tree k 12). Reduced (default): (c)
      0.3 ms of arrivals, (d) 0.5 ms (Enterprise) and 1 ms (DataMining); --full: (c) 3 ms, (d) 5 ms and
      100 ms (DataMining reaches its load only after ~100 ms).
      Each run ends 2 ms after its last arrival (--full: 10 ms), flows unfinished then are counted as such.
      RCM and DCQCN are compared paired: means over the flows both runs finished (the same seed draws the
      same flows), with each run's count of finished flows beside.
      Receivers place out-of-order data (nic.out_of_order place), as the paper's simulation evidently does
      with the packets SAR reorders; "RCM, go-back-N receivers" is the same run with RoCEv2's go-back-N (and
      the 1 ms timeout nic.rto auto then arms), "RCM, SAR steers new flows only" never moves a flow under way.
  --sweep (and --full): (c) at 30 % to 90 % load, 0.3 ms of arrivals, RCM and DCQCN (the paper gives no load).
Standard library only. Exit status 2 if a case failed (the others are still reported).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import case_runner  # noqa: E402
import outputs  # noqa: E402
from outputs import series  # noqa: E402
NONE = ["switch.mechanism=none", "switch.params={}"]
GBN = ["nic.out_of_order=go_back_n"]  # RoCEv2 NICs; nic.rto auto becomes 1ms (SAR reorders)
SAR_NEW = ["switch.params.sar_flows=new"]
HOT_LOAD = 0.6  # (c)'s load: the paper gives none for Fig. 8; 60 % is its injection rate for Fig. 9 (§4.3)
SWEEP_LOADS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
LITERAL = ["switch.params.harmful_share=0", "switch.params.harmless_share=0"]


class CaseFailed(Exception):
    pass


def durations(full):
    """Arrival durations (ms) of (c) and (d) Enterprise / DataMining, and the drain after them (ms). --full runs
    DataMining for 100 ms: 98 % of its bytes are in elephants (> 10 MB), so t after arrivals begin the fabric carries
    at most 0.06 of its capacity at 1 ms, 0.27 at 10 ms and the 60 % offered only from ~100 ms (README, (d))."""
    return ({"c": 3.0, "enterprise": 5.0, "datamining": 100.0}, 10.0) if full else \
        ({"c": 0.3, "enterprise": 0.5, "datamining": 1.0}, 2.0)


def hot_loads(load):
    """(c)'s two workload entries at total load `load`: 85 % of it uniform, 15 % to the hot hosts."""
    return [f"workload.0.load={round(0.85 * load, 6)}", f"workload.1.load={round(0.15 * load, 6)}"]


# Runs recorded for `lossless view` (the report links their pages): the congestion region of Fig. 6 in 2 us
# steps (its burst lasts 20 us), the victim of Fig. 7 with and without RCM.
VIEW_FINE = ["monitor.fabric.interval=2us"]
VIEW = ["monitor.fabric.interval=10us"]


def cases(full, sweep=False):
    """Every run: (name, scenario file, --set overrides). Names are the output folders."""
    out = [("a-rcm", "a-incast-burst.yaml", ["switch.params.trace=true"] + VIEW_FINE),
           ("a-rcm-literal-cfr", "a-incast-burst.yaml", ["switch.params.trace=true"] + LITERAL),
           ("a-dcqcn", "a-incast-burst.yaml", NONE),
           ("b-rcm", "b-victim.yaml", VIEW),
           ("b-rcm-sar-new", "b-victim.yaml", SAR_NEW),
           ("b-rcm-no-sar", "b-victim.yaml", ["switch.params.sar=false"]),
           ("b-dcqcn", "b-victim.yaml", NONE + VIEW)]
    dur, drain = durations(full)
    c = [f"workload.{i}.duration={dur['c']}ms" for i in (0, 1)] + [f"stop={dur['c'] + drain}ms"]
    out += [("c-rcm", "c-hotspot.yaml", c), ("c-dcqcn", "c-hotspot.yaml", c + NONE),
            ("c-rcm-gbn", "c-hotspot.yaml", c + GBN), ("c-rcm-sar-new", "c-hotspot.yaml", c + SAR_NEW)]
    for wl, cdf in (("enterprise", "Enterprise"), ("datamining", "DataMining")):
        d = [f"workload.{g}.duration={dur[wl]}ms" for g in range(12)] + \
            [f"workload.{g}.cdf={cdf}" for g in range(12)] + [f"stop={dur[wl] + drain}ms"]
        out += [(f"d-{wl}-rcm", "d-workloads.yaml", d), (f"d-{wl}-dcqcn", "d-workloads.yaml", d + NONE),
                (f"d-{wl}-rcm-gbn", "d-workloads.yaml", d + GBN)]
    if full or sweep:
        rdur, rdrain = durations(False)
        s = [f"workload.{i}.duration={rdur['c']}ms" for i in (0, 1)] + [f"stop={rdur['c'] + rdrain}ms"]
        for load in SWEEP_LOADS:
            out += [(f"s-rcm-{load}", "c-hotspot.yaml", s + hot_loads(load)),
                    (f"s-dcqcn-{load}", "c-hotspot.yaml", s + hot_loads(load) + NONE)]
    return out


def run_all(lossless, out_dir, todo, jobs):
    """Runs the cases `jobs` at a time; returns {name: error} for those that failed (the largest first, so that -j N
    does not end on one long case)."""
    return case_runner.run_all("rcm", lossless, HERE, out_dir, todo, jobs, first=lambda n: n[0] in "cds")


def rates(out):
    """flow id -> [(time us, Gb/s of payload delivered to the receiver)]."""
    per = {}
    for r in outputs.rows(out, "flow_rates.csv"):
        per.setdefault(int(r["flow_id"]), []).append((float(r["time_ns"]) / 1e3, float(r["rate_bps"]) / 1e9))
    return per


def mean_rate(samples, t0_us, t1_us):
    v = [g for t, g in samples if t0_us < t <= t1_us]
    return sum(v) / len(v) if v else 0.0


def moving_mean(samples, width_us):
    out, window = [], []
    for t, g in samples:
        window.append((t, g))
        while window and window[0][0] <= t - width_us:
            window.pop(0)
        out.append((t, sum(x for _, x in window) / len(window)))
    return out


def sampled(r, run, flows):
    """Raises CaseFailed when a flow of `flows` has no sample in `run`'s flow_rates.csv (`r`, rates() of it): a run
    stopped before the flow delivered anything has no throughput to show."""
    missing = [f for f in flows if not r.get(f)]
    if missing:
        raise CaseFailed(f"{run}: no rate sample of flow {', '.join(map(str, missing))} in flow_rates.csv")


def fct_text(row):
    """A flow's FCT (us) of its fct.csv row, or 'not finished'."""
    return f"{float(row['fct_ns']) / 1e3:.1f}" if row["fct_ns"] else "not finished"


def detection_us(out):
    """When regional CC first engages at the last switch's port toward D0 (rcm.csv), in us."""
    for r in outputs.rows(out, "rcm.csv"):
        if r["node"] == "s0" and r["port"] == "0" and r["event"] == "engage":
            return float(r["time_ns"]) / 1e3
    return None


def fig6(out_dir):
    """(a): the burst's and the incast flows' throughput at the last switch's output (10 us averages)."""
    names = {0: "IncastFlow 1", 1: "IncastFlow 2", 2: "IncastFlow 3", 3: "IncastFlow 4", 4: "BurstFlow"}
    r = {k: rates(os.path.join(out_dir, f"a-{k}")) for k in ("rcm", "rcm-literal-cfr", "dcqcn")}
    for k in r:
        sampled(r[k], f"a-{k}", range(5))
    det = detection_us(os.path.join(out_dir, "a-rcm"))
    if det is None:
        raise CaseFailed("a-rcm: regional CC never engaged at the last switch's port to D0 (rcm.csv), so Fig. 6 has "
                         "no detection to time the throughputs from")
    lines, plots = [], []
    for at in (10, 20, 30):
        t = det + at
        burst = {k: mean_rate(r[k][4], t - 10, t) for k in r}
        incast = {k: sum(mean_rate(r[k][f], t - 10, t) for f in range(4)) for k in r}
        lines.append((f"(a) burst / 4 incast flows at the output, 10 us mean to detection + {at} us (Gb/s): RCM",
                      f"{burst['rcm']:.1f} / {incast['rcm']:.1f}", "~25 / ~75 (cut 'sharply')"))
        lines.append((f"(a)   same, DCQCN", f"{burst['dcqcn']:.1f} / {incast['dcqcn']:.1f}", "50 / 50"))
        lines.append((f"(a)   same, RCM with the paper's literal CFR (every CAM flow harmful)",
                      f"{burst['rcm-literal-cfr']:.1f} / {incast['rcm-literal-cfr']:.1f}", "-"))
    fct = {k: {int(x["flow_id"]): x for x in outputs.rows(out_dir, f"a-{k}", "fct.csv")}
           for k in r}
    lines.append(("(a) burst FCT (us): RCM / DCQCN", f"{fct_text(fct['rcm'][4])} / {fct_text(fct['dcqcn'][4])}",
                  "longer with RCM (its rate is cut)"))
    for k, title in (("rcm", "(a) RCM"), ("dcqcn", "(b) DCQCN")):
        plots.append({"title": f"Fig. 6{title}: throughput at the last switch's output (10 us means)", "type": "lines",
                      "xlabel": "time (us)", "ylabel": "throughput (Gb/s)",
                      "series": [series(names[f], *zip(*[(t, g) for t, g in moving_mean(r[k][f], 10) if 100 <= t <= 260]))
                                 for f in range(5)],
                      "refs": [{"y": 50, "label": "half the port"}, {"y": 25, "label": "paper: burst with RCM"}]})
    b30 = mean_rate(r["rcm"][4], det + 20, det + 30)
    b20 = mean_rate(r["rcm"][4], det + 10, det + 20)
    i30 = sum(mean_rate(r["rcm"][f], det + 20, det + 30) for f in range(4))
    d30 = mean_rate(r["dcqcn"][4], det + 20, det + 30)
    # The paper's result: RCM cuts the burst to ~25 Gb/s and the incast flows recover; DCQCN leaves it at 50.
    # Judged 30 us after detection (MECHANISMS.md §5, ruling of 2026-11-26: the first window only measures).
    verdict = "reproduced" if b30 <= 30 and i30 >= 60 and d30 >= 45 else "differs"
    differs = (f"RCM finds the congestion {det - 150:.1f} us after the burst starts; the burst's share at D0's port falls "
               f"to {b20:.0f} Gb/s by 20 us and {b30:.0f} Gb/s by 30 us after it (paper: 'sharply' to 25) while the incast "
               f"flows take the rest; DCQCN leaves it at 50 as in the paper (these 100 KB queues never reach its ECN "
               f"thresholds). Slower than the paper's figure: regional CC acts where packets enter the 100 KB output queue, "
               f"which first drains (8 us at 100 Gb/s), the first window measures W_c (paper §3.4) and each 10 us window "
               f"applies one cut. With the paper's literal CFR rule (every CAM flow harmful) all five flows are held alike "
               f"and the burst keeps its half: experiments/rcm/README.md.")
    item = {"id": "fig6-incast-burst", "kind": "figure", "views": ["a-rcm"],
            "title": "Fig. 6: incast (4 flows through one input of the last switch) with a 20 us micro-burst at 150 us",
            "rows": [list(x) for x in lines], "differs": differs, "verdict": verdict, "plots": plots}
    return lines, item


def fig7(out_dir):
    """(b): the victim's throughput with PFC + DCQCN, with RCM, and with RCM without SAR."""
    cases_ = (("rcm", "RCM"), ("rcm-sar-new", "RCM, SAR steers new flows only (moves no flow under way)"),
              ("rcm-no-sar", "RCM without SAR (regional CC only)"), ("dcqcn", "PFC + DCQCN"))
    r = {k: rates(os.path.join(out_dir, f"b-{k}")) for k, _ in cases_}
    for k in r:
        sampled(r[k], f"b-{k}", range(5))
    lines = []
    paper = {"rcm": "~50", "rcm-sar-new": "-", "rcm-no-sar": "-", "dcqcn": "~25 (HOL blocking)"}
    for k, label in cases_:
        v = mean_rate(r[k][4], 200, 1000)
        inc = [mean_rate(r[k][f], 200, 1000) for f in range(4)]
        lines.append((f"(b) victim / incast flows 200-1000 us (Gb/s): {label}",
                      f"{v:.1f} / {' '.join(f'{x:.1f}' for x in inc)}", f"{paper[k]} / ~25 each"))
    plots = [{"title": "Fig. 7: the victim flow's throughput (10 us samples)", "type": "lines", "xlabel": "time (us)",
              "ylabel": "throughput (Gb/s)",
              "series": [series(label, *zip(*r[k][4])) for k, label in cases_],
              "refs": [{"y": 50, "label": "fair share"}, {"y": 25, "label": "paper: PFC"}]},
             {"title": "Fig. 7: mean throughput 200-1000 us", "type": "bars", "ylabel": "throughput (Gb/s)",
              "categories": ["victim", "incast 1", "incast 2", "incast 3", "incast 4"],
              "series": [{"label": label, "y": [round(mean_rate(r[k][f], 200, 1000), 2) for f in range(5)]}
                         for k, label in cases_]}]
    v = {k: mean_rate(r[k][4], 200, 1000) for k, _ in cases_}
    # The paper's result: the victim, ~25 Gb/s behind the paused incast flows with PFC, gets ~50 with RCM.
    escapes = v["dcqcn"] <= 30 and v["rcm"] >= 40
    verdict = "reproduced" if escapes and v["rcm"] <= 60 else "differs"
    differs = (f"PFC + DCQCN gives the victim {v['dcqcn']:.0f} Gb/s (paper ~25): it waits behind the paused incast flows on "
               f"SW_L0_0's link. Regional CC alone restores {v['rcm-no-sar']:.0f} Gb/s on average (paper ~50), in cycles: "
               f"W_c only shrinks during an episode and resets when the flags clear. Full RCM gives {v['rcm']:.0f} where the "
               f"paper's figure shows ~50: SAR moves the two incast flows beside the victim, while they are under way, to "
               f"the other aggregation switch (paused, they leave SW_L0_0's CAM, so they are not harmful there), and the "
               f"victim has the link to itself. The isolating run: with SAR steering new flows only (no flow under way "
               f"moves) the victim gets {v['rcm-sar-new']:.0f}, as with regional CC alone; the paper's ~50 is what its "
               f"regional CC gives, and its SAR text (§3.4) would move these flows too.")
    item = {"id": "fig7-victim", "kind": "figure", "views": ["b-rcm", "b-dcqcn"],
            "title": "Fig. 7: incast S1-S4 -> D0 with a victim Sv -> Dv sharing the first switch",
            "rows": [list(x) for x in lines], "differs": differs, "verdict": verdict, "plots": plots}
    return lines, item


def flows(out):
    return list(outputs.rows(out, "fct.csv"))


def flow_key(x):
    """What makes a flow of fct.csv the same flow in another run: its id (its place in the scenario's flow list),
    ends, size and start. The list is drawn before the run from the scenario's seed and workload entries (a random
    stream per seed, entry and sender; src/workload/generators.cc), so runs that differ only in switch or NIC
    settings start the same flows."""
    return (x["flow_id"], x["src"], x["dst"], x["size_bytes"], x["start_ns"])


def finished_in_all(*runs):
    """The keys of the flows that every run of `runs` (lists of fct.csv rows) finished: a paired comparison averages
    over these, so that a run that finishes more (long) flows does not weigh its mean with flows the other's lacks.
    Raises CaseFailed if the runs did not start the same flows."""
    keys = [{flow_key(x) for x in rows} for rows in runs]
    if any(k != keys[0] for k in keys[1:]):
        raise CaseFailed(f"the runs compared flow by flow started different flows ({[len(k) for k in keys]} flows, "
                         f"{len(set.intersection(*keys))} alike)")
    return set.intersection(*({flow_key(x) for x in rows if x["finish_ns"]} for rows in runs))


def hotspot_classes(rows):
    """Background flows are workload 0's, hot flows workload 1's: ids restart their start times at entry 1."""
    split = len(rows)
    for i in range(1, len(rows)):
        if float(rows[i]["start_ns"]) < float(rows[i - 1]["start_ns"]):
            split = i
            break
    return {"background": rows[:split], "hot": rows[split:], "all": rows}


def class_stats(rows, paired):
    """A class of one run's flows: n started, done finished, and the mean flow throughput (size / FCT) and FCT over
    `over` flows: those of its finished flows whose keys are in `paired` (finished_in_all of the compared runs)."""
    done = [x for x in rows if x["finish_ns"]]
    over = [x for x in done if flow_key(x) in paired]
    if not over:
        return {"n": len(rows), "done": len(done), "over": 0, "gbps": 0.0, "fct_us": 0.0}
    gbps = sum(float(x["size_bytes"]) * 8 / float(x["fct_ns"]) for x in over) / len(over)
    fct = sum(float(x["fct_ns"]) for x in over) / len(over) / 1e3
    return {"n": len(rows), "done": len(done), "over": len(over), "gbps": gbps, "fct_us": fct}


def paired_stats(runs, classes):
    """{run: {class: class_stats}} for the runs {name: fct.csv rows}, every mean over the flows all of them finished;
    `classes` splits a run's rows into {class: rows}."""
    both = finished_in_all(*runs.values())
    return {k: {c: class_stats(v, both) for c, v in classes(rows).items()} for k, rows in runs.items()}


def packets(out):
    """The run's packet counters (summary.json): retransmitted_bytes, nacks, timeouts."""
    return outputs.summary(out)["packets"]


NO_SUCH = "no such flows"  # (c): a class without flows (class_stats: n 0), in place of its means and gain


def gain(r, d):
    """RCM's gain (%) in mean flow throughput r over DCQCN's d (class_stats' gbps), or None where the class has no
    mean: no flow of it finished in both runs (compared() lets that through only for a class without flows)."""
    return 100 * (r / d - 1) if d else None


def gain_text(g, none=NO_SUCH):
    """A gain() as '+12.2 %', or `none` where there is none (never a +0.0 % of no flows)."""
    return outputs.number(g, "+.1f", none, " %")


def compared(stats, what):
    """Raises CaseFailed when a class of a paired comparison has no flow both runs finished: its mean would read
    0.00 / 0.00 and its gain +0.0 %, which looks like "no difference"."""
    for run, classes in stats.items():
        for c, st in classes.items():
            if st["n"] and not st["over"]:
                raise CaseFailed(f"{what}: no {c} flow finished in every run compared ({run} finished {st['done']} "
                                 f"of {st['n']}), so the paired means have nothing to compare")
    return stats


def fig8(out_dir, full, sweep):
    """(c). Each comparison is paired: RCM's (or a variant's) and DCQCN's means over the flows both runs finished."""
    rows = {k: flows(os.path.join(out_dir, f"c-{k}")) for k in ("rcm", "dcqcn", "rcm-gbn", "rcm-sar-new")}
    vs = {k: compared(paired_stats({k: rows[k], "dcqcn": rows["dcqcn"]}, hotspot_classes), f"Fig. 8, {k} and dcqcn")
          for k in ("rcm", "rcm-gbn", "rcm-sar-new")}
    pk = {k: packets(os.path.join(out_dir, f"c-{k}")) for k in rows}
    lines = []
    paper = {"background": ("+12.2 %", "lower"), "hot": ("a little lower", "-"), "all": ("higher", "lower")}
    for c in ("background", "hot", "all"):
        r, d = vs["rcm"]["rcm"][c], vs["rcm"]["dcqcn"][c]
        lines.append((f"(c) {c}: mean flow throughput RCM / DCQCN (Gb/s), paired (flows both finished)",
                      f"{r['gbps']:.2f} / {d['gbps']:.2f} ({gain(r['gbps'], d['gbps']):+.1f} %)" if r["n"] else NO_SUCH,
                      paper[c][0]))
        lines.append((f"(c) {c}: mean FCT RCM / DCQCN (us), paired (flows both finished)",
                      f"{r['fct_us']:.1f} / {d['fct_us']:.1f} over {r['over']}; finished {r['done']}, {d['done']} of "
                      f"{r['n']}" if r["n"] else NO_SUCH,
                      paper[c][1]))
    labels = {"rcm": "RCM", "rcm-gbn": "RCM, go-back-N receivers", "rcm-sar-new": "RCM, SAR steers new flows only",
              "dcqcn": "DCQCN"}
    for k in ("rcm-gbn", "rcm-sar-new"):
        r, d = vs[k][k], vs[k]["dcqcn"]
        lines.append((f"(c) {labels[k]}: background / hot / all throughput vs DCQCN, paired",
                      " / ".join(gain_text(gain(r[c]["gbps"], d[c]["gbps"])) for c in ("background", "hot", "all")) +
                      f"; finished {r['all']['done']} of {r['all']['n']}", "-"))
    lines.append(("(c) retransmitted MB (NACKs, timeouts): " + " / ".join(labels[k] for k in pk),
                  " / ".join(f"{pk[k]['retransmitted_bytes'] / 1e6:.2f} ({pk[k]['nacks']}, {pk[k]['timeouts']})"
                             for k in pk), "-"))
    cats = ["background", "hot", "all"]
    three = ("rcm", "dcqcn", "rcm-gbn")
    st3 = compared(paired_stats({k: rows[k] for k in three}, hotspot_classes), "Fig. 8, " + ", ".join(three))
    plots = [{"title": "Fig. 8(a): mean flow throughput by class (the flows all three runs finished)", "type": "bars",
              "ylabel": "throughput (Gb/s)", "categories": cats,
              "series": [{"label": labels[k], "y": [round(st3[k][c]["gbps"], 3) if st3[k][c]["over"] else None
                                                    for c in cats]} for k in three]},
             {"title": "Fig. 8(b): mean flow completion time by class (the flows all three runs finished)",
              "type": "bars", "ylabel": "FCT (us)", "categories": cats,
              "series": [{"label": labels[k], "y": [round(st3[k][c]["fct_us"], 2) if st3[k][c]["over"] else None
                                                    for c in cats]} for k in three]}]
    swept = []
    if full or sweep:
        for load in SWEEP_LOADS:
            p = compared(paired_stats({k: flows(os.path.join(out_dir, f"s-{k}-{load}")) for k in ("rcm", "dcqcn")},
                                      hotspot_classes), f"Fig. 8 at load {load}")
            r, d = p["rcm"], p["dcqcn"]
            g = {c: gain(r[c]["gbps"], d[c]["gbps"]) for c in cats}
            swept.append((load, g))
            lines.append((f"(c) load {round(100 * load)} %, 0.3 ms: background / hot / all throughput RCM vs DCQCN, "
                          f"paired",
                          " / ".join(gain_text(g[c]) for c in cats) +
                          f"; finished {r['all']['done']}, {d['all']['done']} of {r['all']['n']}",
                          "+12.2 % / lower / higher (load not given)"))
        plots.append({"title": "Fig. 8: RCM's throughput gain over DCQCN by load (0.3 ms of arrivals)", "type": "lines",
                      "xlabel": "load (% of each host's link)", "ylabel": "gain in mean flow throughput (%)",
                      "series": [{"label": c, "x": [round(100 * l) for l, _ in swept],
                                  "y": [None if g[c] is None else round(g[c], 2) for _, g in swept]} for c in cats],
                      "refs": [{"y": 12.2, "label": "paper: background"}]})
    dur, _ = durations(full)
    g = {c: gain(vs["rcm"]["rcm"][c]["gbps"], vs["rcm"]["dcqcn"][c]["gbps"]) for c in cats}
    gg = {c: gain(vs["rcm-gbn"]["rcm-gbn"][c]["gbps"], vs["rcm-gbn"]["dcqcn"][c]["gbps"]) for c in cats}
    sn = gain(vs["rcm-sar-new"]["rcm-sar-new"]["background"]["gbps"], vs["rcm-sar-new"]["dcqcn"]["background"]["gbps"])
    # The paper's result: background +12.2 %, hot flows a little lower, all flows higher.
    verdict = "reproduced" if None not in (g["background"], g["all"]) and g["background"] >= 10 and g["all"] > 0 \
        else "differs"
    bg = [x["background"] for _, x in swept if x["background"] is not None]  # the loads with background flows
    best = max(bg, default=0)
    per_load = ", ".join(outputs.number(x["background"], "+.1f", NO_SUCH) for _, x in swept)
    sweep_text = (f" Over 30-90 % load (0.3 ms of arrivals) the background gain runs {per_load} % (largest {best:+.1f} %)" +
                  (": no load reaches +12.2 %." if best < 12.2 else ".")
                  if bg else f" Over 30-90 % load (0.3 ms of arrivals) there are {NO_SUCH} in the background class."
                  if swept else " run.py --sweep (or --full) runs (c) at 30-90 % load (measured gains: "
                                "experiments/rcm/README.md).")
    none = f"nothing ({NO_SUCH})"
    differs = (f"At 60 % load ({dur['c']} ms of arrivals" + ("" if full else ", reduced") + f") background flows gain "
               f"{gain_text(g['background'], none)} (paper +12.2 %), hot flows {gain_text(g['hot'], none)} (paper: a "
               f"little lower), all {gain_text(g['all'], none)} (paper: higher; mean flow throughputs over the flows "
               f"both runs finished). The paper "
               f"gives neither the load nor the message size of its hot-spot pattern (ours: 60 %, its Fig. 9 injection rate, and 64 KB), and the gain grows with load." + sweep_text +
               f" With go-back-N receivers (RoCEv2) instead of the out-of-order placement the paper's simulation "
               f"evidently has (SAR moves flows under way, §3.4; the impact of its 'out-of-order packets' is left "
               f"unstudied, §5) RCM resends {pk['rcm-gbn']['retransmitted_bytes'] / 1e6:.1f} MB and the background gain "
               f"is {gain_text(gg['background'], none)}; steering new flows only gives {gain_text(sn, none)}. What "
               f"closes the rest of the "
               f"gap to +12.2 % is not established (the paper's metric, message sizes and switch model are not given): "
               f"experiments/rcm/README.md.")
    item = {"id": "fig8-hotspot", "kind": "figure",
            "title": "Fig. 8: hot-spot traffic (85 % uniform, 15 % to 12.5 % of the hosts) on the 432-host fat tree",
            "rows": [list(x) for x in lines], "differs": differs, "verdict": verdict, "plots": plots}
    return lines, item


def size_class(size):
    return "mice (<1MB)" if size < 1e6 else ("elephants (>10MB)" if size > 1e7 else "medium (1-10MB)")


def fig9_classes(rows):
    by = {c: [] for c in FIG9_CLASSES}
    for x in rows:
        by[size_class(float(x["size_bytes"]))].append(x)
        by["all"].append(x)
    return by


FIG9_CLASSES = ["mice (<1MB)", "medium (1-10MB)", "elephants (>10MB)", "all"]
NO_MICE, NO_FLOW = "no mice finished in both runs", "no flow finished in both runs"  # in place of a ratio


def ratio(r, d):
    """RCM's mean FCT over DCQCN's (class_stats of one paired comparison); None if no flow finished in both."""
    return r["fct_us"] / d["fct_us"] if r["over"] and d["fct_us"] else None


def times(q, none):
    """A ratio of ratio() as x0.912, or `none` (what the comparison lacks) when it has none: never a 0.000 ratio of
    empty data."""
    return outputs.number(q, ".3f", none, prefix="x")


def fig9_plot(label, st):
    """Fig. 9's bars for one workload: RCM's and DCQCN's mean FCT by class (paired_stats of the two runs). A class
    with no flow finished in both runs has no mean: its bars are left out (null, which tools/charts.py does not
    draw) and its name says why, never a 0.0 us bar (on a log axis)."""
    cats = []
    for c in FIG9_CLASSES:
        r = st["rcm"][c]
        cats.append(c if r["over"] else f"{c}: {'no such flows' if not r['n'] else 'none finished in both runs'}")
    return {"title": f"Fig. 9: {label}, mean FCT by flow size (the flows both runs finished)", "type": "bars",
            "ylabel": "mean FCT (us)", "ylog": True, "categories": cats,
            "series": [{"label": k.upper(),
                        "y": [outputs.log_value(st[k][c]["fct_us"] if st[k][c]["over"] else None, 2)
                              for c in FIG9_CLASSES]}
                       for k in ("rcm", "dcqcn")]}


def fig9(out_dir, full):
    """(d). Each comparison is paired: RCM's (or go-back-N's) and DCQCN's mean FCT over the flows both runs finished
    (a run that finishes more elephants would otherwise hold more long flows in its mean)."""
    lines, plots, gains, done = [], [], {}, {}
    cats = FIG9_CLASSES
    for wl, label in (("enterprise", "Enterprise"), ("datamining", "DataMining")):
        rows = {k: flows(os.path.join(out_dir, f"d-{wl}-{k}")) for k in ("rcm", "dcqcn", "rcm-gbn")}
        st = paired_stats({k: rows[k] for k in ("rcm", "dcqcn")}, fig9_classes)
        gb = paired_stats({k: rows[k] for k in ("rcm-gbn", "dcqcn")}, fig9_classes)
        done[wl] = st
        for c in cats:
            r, d = st["rcm"][c], st["dcqcn"][c]
            if not r["n"]:
                lines.append((f"(d) {label} {c}: mean FCT RCM / DCQCN (us)", "no such flows", "-"))
                continue
            q = gains[(wl, c)] = ratio(r, d)
            paper = {"mice (<1MB)": "RCM lower (> 10 %)", "elephants (>10MB)": "about equal",
                     "all": "RCM lower"}.get(c, "-")
            mean = NO_FLOW if q is None else f"{r['fct_us']:.1f} / {d['fct_us']:.1f} ({times(q, NO_FLOW)})"
            lines.append((f"(d) {label} {c}: mean FCT RCM / DCQCN (us), paired (flows both finished)",
                          f"{mean} over {r['over']}; finished {r['done']}, {d['done']} of {r['n']}", paper))
        g, d = gb["rcm-gbn"], gb["dcqcn"]
        pk = packets(os.path.join(out_dir, f"d-{wl}-rcm-gbn"))
        gains[(wl, "gbn")] = ratio(g["mice (<1MB)"], d["mice (<1MB)"])
        gall = ratio(g["all"], d["all"])
        lines.append((f"(d) {label}, RCM with go-back-N receivers: mice / all FCT vs DCQCN, paired; retransmitted MB",
                      f"{times(gains[(wl, 'gbn')], NO_MICE)} / {times(gall, NO_FLOW)}; "
                      f"{pk['retransmitted_bytes'] / 1e6:.2f}; "
                      f"finished {g['all']['done']} of {g['all']['n']}", "-"))
        plots.append(fig9_plot(label, st))
    dur, _ = durations(full)
    m = {wl: gains[(wl, "mice (<1MB)")] for wl in ("enterprise", "datamining")}
    a = {wl: gains[(wl, "all")] for wl in ("enterprise", "datamining")}
    # The paper's result: RCM's mean FCT is lower for both workloads, mice by more than 10 %, and more so for
    # DataMining than for Enterprise.
    if None in (*m.values(), *a.values()):
        raise CaseFailed("no mice or no flow at all finished in both runs of a Fig. 9 pair")
    verdict = "reproduced" if max(m.values()) <= 0.9 and max(a.values()) < 1 and a["datamining"] <= a["enterprise"] \
        else "differs"
    dm = done["datamining"]["rcm"]
    scale = ("" if full else
             f" At this reduced scale DataMining starts {dm['all']['n']} flows, {dm['elephants (>10MB)']['n']} of them "
             f"elephants ({dm['elephants (>10MB)']['done']} finished): too little to congest its groups, so this run cannot "
             f"show what RCM does for DataMining; the isolating run "
             f"is --full's {durations(True)[0]['datamining']:g} ms of arrivals (measured: experiments/rcm/README.md).")
    order = ("" if a["datamining"] <= a["enterprise"] else
             " DataMining gains less than Enterprise over all flows, where the paper has it gain more. Its all-flow "
             "mean is about 90 % its elephants' FCT (measured with 10 and 100 ms of arrivals; our Enterprise table, "
             "IMC'10, has no flow above 3 MB, so no elephants), and its elephants gain least, as the paper's 'little "
             "impact on the elephant flow' has it. Its mice gain less early on: 98 % of its bytes are in elephants and "
             "a flow sends at most at line rate from its start, so t after arrivals begin the fabric carries at most "
             "0.06 of its capacity at 1 ms, 0.27 at 10 ms and the 60 % offered only from ~100 ms (derived); its mice "
             "wait less than Enterprise's and RCM's cut of the same share of that wait is a smaller gain. In the 100 ms "
             "run its mice that start in the first 10 ms gain x0.893, those starting at 80-100 ms x0.70 (isolating "
             "runs: experiments/rcm/README.md).")
    differs = (f"Mean FCT RCM / DCQCN, mice: Enterprise {times(m['enterprise'], NO_MICE)}, DataMining "
               f"{times(m['datamining'], NO_MICE)}; all flows {times(a['enterprise'], NO_FLOW)} and "
               f"{times(a['datamining'], NO_FLOW)} (paper: more than 10 % lower for mice, more so "
               f"for DataMining). Means over the flows both runs finished (the same flows: one seed draws them before the "
               f"run), from {dur['enterprise']} ms (Enterprise) and "
               f"{dur['datamining']} ms (DataMining) of arrivals." + scale + order +
               f" With go-back-N receivers, mice: Enterprise {times(gains[('enterprise', 'gbn')], NO_MICE)}, "
               f"DataMining {times(gains[('datamining', 'gbn')], NO_MICE)}.")
    item = {"id": "fig9-workloads", "kind": "figure",
            "title": "Fig. 9: Enterprise and DataMining, 12 groups of 36 hosts, Poisson at 60 % load: mean FCT",
            "rows": [list(x) for x in lines], "differs": differs, "verdict": verdict, "plots": plots}
    return lines, item


def main():
    ap = case_runner.arguments(ROOT, "rcm", "(c), (d) at longer durations, and the (c) load sweep (see the docstring)")
    ap.add_argument("--sweep", action="store_true", help="(c) at 30 %% to 90 %% load (0.3 ms of arrivals each)")
    a = ap.parse_args()
    todo = cases(a.full, a.sweep)
    failed = run_all(a.lossless, a.out, todo, max(1, a.jobs))
    lines = [("experiment", "lossless", "paper")]
    items = []
    analyses = ((fig6, "a-"), (fig7, "b-"), (lambda d: fig8(d, a.full, a.sweep), "c-"), (lambda d: fig9(d, a.full), "d-"))
    for analyse, prefix in analyses:
        broken = [n for n in failed if n.startswith(prefix) or (prefix == "c-" and n.startswith("s-"))]
        if broken:
            lines.append((f"({prefix[0]}) cases {', '.join(sorted(broken))}", "FAILED", ""))
            continue
        try:
            ls, item = analyse(a.out)
        except CaseFailed as e:  # runs that cannot be compared flow by flow (finished_in_all)
            lines.append((f"({prefix[0]}) analysis", "FAILED", str(e)))
            failed[f"({prefix[0]}) analysis"] = str(e)
            continue
        lines += ls
        items.append(item)
    case_runner.print_table(lines, 44)
    dur, drain = durations(a.full)
    results = {"paper": "rcm",
               "title": "RCM: regional congestion mitigation in lossless datacenter networks (Liu et al., NPC 2017)",
               "scale": "full" if a.full else "reduced",
               "command": "experiments/rcm/run.py" + (" --full" if a.full else "") + (" --sweep" if a.sweep else ""),
               "summary": "The paper's §4 on lossless: its input-and-output-queued switch (switch.architecture voq, 100 KB "
                          "queues), DCQCN at the Mellanox 100G defaults, RCM (switch.mechanism rcm) against DCQCN alone. "
                          "(a), (b) on the switches the flows cross; (c), (d) on the 432-host fat tree of 12-port switches "
                          "at 60 % load, receivers placing out-of-order data (SAR reorders; go-back-N runs beside), "
                          f"{dur['c']} ms (hot-spot), {dur['enterprise']} ms (Enterprise) and {dur['datamining']} ms "
                          f"(DataMining) of arrivals, {drain} ms to drain" + ("." if a.full else " (reduced; --full is "
                                                                                  "longer).") +
                          " Known differences and their causes: experiments/rcm/README.md.",
               "items": items, "failed": [{"case": n, "error": e} for n, e in sorted(failed.items())]}
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    return 2 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
