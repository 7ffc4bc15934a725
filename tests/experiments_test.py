#!/usr/bin/env python3
"""Unit tests of the experiments' analysis functions (experiments/*/run.py) on outputs written here: no simulator
run, a few seconds (most of it removing the made-up run folders). CTest runs it as Experiments.AnalysesOnMadeUpOutputs.

usage: tests/experiments_test.py [-v]
"""
import csv
import importlib.util
import json
import math
import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_run(paper):
    """experiments/<paper>/run.py as a module (its main() does not run)."""
    spec = importlib.util.spec_from_file_location(f"{paper.replace('-', '_')}_run",
                                                  os.path.join(ROOT, "experiments", paper, "run.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FCT_COLUMNS = ["flow_id", "src", "dst", "size_bytes", "start_ns", "finish_ns", "fct_ns"]


def write_run(folder, flows, retransmitted_bytes=0, summary=None):
    """A run's fct.csv from (size, fct_ns or None: unfinished[, src, dst]; host 1 to host 0 if not given) and a
    summary.json with its packet counters (and the keys of `summary`)."""
    os.makedirs(folder)
    with open(os.path.join(folder, "fct.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(FCT_COLUMNS)
        for i, (size, fct, *ends) in enumerate(flows):
            src, dst = ends or (1, 0)
            start = 1000 * i
            w.writerow([i, src, dst, size, start, "" if fct is None else start + fct, "" if fct is None else fct])
    with open(os.path.join(folder, "summary.json"), "w") as f:
        json.dump({"packets": {"retransmitted_bytes": retransmitted_bytes, "nacks": 0, "timeouts": 0},
                   **(summary or {})}, f)


def write_csv(folder, name, header, rows):
    """A CSV file of a made-up run (flow_rates.csv, queues.csv, pfc.csv, ...): its header and rows."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def report_texts(lines, items):
    """Every text a report shows of an analysis: its table rows and each item's rows and "differs" line."""
    return [v for line in lines for v in line] + [v for item in items for row in item.get("rows", []) for v in row] \
        + [item["differs"] for item in items]


def plot_values_drawable(test, plot):
    """What tools/charts.py accepts (its check needs matplotlib, absent here) and a log axis can show: per series a
    y per category (bars) or per x (lines), each null or above 0."""
    for s in plot["series"]:
        test.assertEqual(len(s["y"]), len(plot["categories"]) if plot["type"] == "bars" else len(s["x"]))
        test.assertTrue(all(v is None or (isinstance(v, (int, float)) and v > 0) for v in s["y"]), s["y"])


class MadeUpRunsTest(unittest.TestCase):
    """Analyses of made-up runs in the class's temporary folder (`cls.tmp`, made by setUpClass), removed after."""

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def assert_reported(self, lines, items, absent=("nan",)):
        """No text of the report holds any of `absent`, every log axis can show its values, and results.json
        stays JSON (NaN and Infinity are not)."""
        for text in report_texts(lines, items):
            for word in absent:
                self.assertNotIn(word, text)
        for item in items:
            for plot in item.get("plots", []):
                if plot.get("ylog"):
                    plot_values_drawable(self, plot)
        json.dumps(items, allow_nan=False)


class RcmTest(unittest.TestCase):
    """RCM's analyses (experiments/rcm/run.py) on made-up runs in a temporary folder per test (`self.out`)."""

    def setUp(self):
        self.rcm = load_run("rcm")
        self.tmp = tempfile.TemporaryDirectory()
        self.out = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()


class RcmFig9(RcmTest):
    def fig9(self, gbn_mouse_fct, rcm_medium_fct=900_000):
        """Fig. 9 over made-up runs: a mouse and a medium flow each workload (no elephant), every run finishing both,
        but the go-back-N run's mouse finishing in `gbn_mouse_fct` ns and RCM's medium flow in `rcm_medium_fct` ns
        (None: not at all)."""
        out = tempfile.mkdtemp(dir=self.out)
        for wl in ("enterprise", "datamining"):
            write_run(os.path.join(out, f"d-{wl}-rcm"), [(10_000, 8_000), (2_000_000, rcm_medium_fct)])
            write_run(os.path.join(out, f"d-{wl}-dcqcn"), [(10_000, 10_000), (2_000_000, 1_000_000)])
            write_run(os.path.join(out, f"d-{wl}-rcm-gbn"), [(10_000, gbn_mouse_fct), (2_000_000, 950_000)],
                      retransmitted_bytes=3_000_000)
        return self.rcm.fig9(out, False)

    def test_a_go_back_n_pair_with_no_common_mice_says_so_rather_than_a_ratio(self):
        # Fig. 9's go-back-N row and its "differs" line read x0.000 for the mice (a ratio of nothing).
        lines, item = self.fig9(None)
        gbn = [value for name, value, _ in lines if "go-back-N" in name]
        self.assertEqual(len(gbn), 2)
        for value in gbn:
            self.assertTrue(value.startswith("no mice finished in both runs / x0.950; 3.00; "), value)
        self.assertIn("With go-back-N receivers, mice: Enterprise no mice finished in both runs, DataMining no "
                      "mice finished in both runs.", item["differs"])
        for text in [v for _, v, _ in lines] + [item["differs"]]:
            self.assertNotIn("x0.000", text)

    def test_a_go_back_n_pair_with_common_mice_reads_their_ratio(self):
        lines, item = self.fig9(12_000)
        gbn = [value for name, value, _ in lines if "go-back-N" in name]
        self.assertEqual(gbn, ["x1.200 / x0.952; 3.00; finished 2 of 2"] * 2)
        self.assertIn("With go-back-N receivers, mice: Enterprise x1.200, DataMining x1.200.", item["differs"])

    def test_the_bars_leave_out_a_class_with_no_flow_finished_in_both_runs(self):
        # Fig. 9's bars drew 0.0 us (on a log axis) for a class without a flow both runs finished: here the
        # elephants (none started) and, when RCM's medium flow does not finish, the medium flows.
        _, item = self.fig9(12_000)
        self.assertEqual(len(item["plots"]), 2)
        for plot in item["plots"]:
            self.assertEqual(plot["categories"], ["mice (<1MB)", "medium (1-10MB)",
                                                  "elephants (>10MB): no such flows", "all"])
            self.assertEqual([s["y"] for s in plot["series"]], [[8.0, 900.0, None, 454.0], [10.0, 1000.0, None, 505.0]])
        _, item = self.fig9(12_000, rcm_medium_fct=None)
        for plot in item["plots"]:
            self.assertEqual(plot["categories"], ["mice (<1MB)", "medium (1-10MB): none finished in both runs",
                                                  "elephants (>10MB): no such flows", "all"])
            self.assertEqual([s["y"] for s in plot["series"]], [[8.0, None, None, 8.0], [10.0, None, None, 10.0]])
        # What tools/charts.py accepts (its check needs matplotlib, absent here): a number or null per category.
        for plot in item["plots"]:
            for s in plot["series"]:
                self.assertEqual(len(s["y"]), len(plot["categories"]))
                self.assertTrue(all(v is None or (isinstance(v, float) and v > 0) for v in s["y"]), s["y"])

    def test_times_never_reads_a_ratio_of_nothing(self):
        self.assertEqual(self.rcm.times(0.9123, "no mice finished in both runs"), "x0.912")
        self.assertEqual(self.rcm.times(None, "no mice finished in both runs"), "no mice finished in both runs")


class RcmNoFlowFinished(RcmTest):
    """Fig. 8 gave a class without any flow a gain of +0.0 % (gain() of 0 / 0) and a 0 bar; a run that finished
    nothing stopped the whole script: Fig. 6 added to the detection time of a run in which regional CC never
    engaged (TypeError: None + 10) and read the burst's empty FCT (ValueError), Fig. 7 looked up the rates of a
    flow with no sample (KeyError); main() catches none of them."""

    def test_fig8_says_a_class_without_flows_has_none(self):
        # Made up: background flows only (no hot flow: workload 1 drew none), every one finished, RCM's 10 % faster;
        # the load sweep alike.
        flows = [(64_000, 10_000, 1 + i % 20, 21 + i % 30) for i in range(20)]
        for name in ("c-rcm", "c-rcm-gbn", "c-rcm-sar-new") + tuple(f"s-rcm-{l}" for l in self.rcm.SWEEP_LOADS):
            write_run(os.path.join(self.out, name), [(s_, f * 10 // 11, a, b) for s_, f, a, b in flows])
        for name in ("c-dcqcn",) + tuple(f"s-dcqcn-{l}" for l in self.rcm.SWEEP_LOADS):
            write_run(os.path.join(self.out, name), flows)
        lines, item = self.rcm.fig8(self.out, False, True)
        rows = {name: value for name, value, _ in lines}
        self.assertEqual(rows["(c) hot: mean flow throughput RCM / DCQCN (Gb/s), paired (flows both finished)"],
                         "no such flows")
        self.assertEqual(rows["(c) hot: mean FCT RCM / DCQCN (us), paired (flows both finished)"], "no such flows")
        self.assertEqual(rows["(c) RCM, go-back-N receivers: background / hot / all throughput vs DCQCN, paired"],
                         "+10.0 % / no such flows / +10.0 %; finished 20 of 20")
        self.assertEqual(rows["(c) load 60 %, 0.3 ms: background / hot / all throughput RCM vs DCQCN, paired"],
                         "+10.0 % / no such flows / +10.0 %; finished 20, 20 of 20")
        self.assertIn("hot flows nothing (no such flows)", item["differs"])
        bars, _, sweep = item["plots"]
        self.assertEqual([s["y"][1] for s in bars["series"]], [None] * 3)
        self.assertEqual([s["y"] for s in sweep["series"] if s["label"] == "hot"], [[None] * 7])
        for text in report_texts(lines, [item]):
            self.assertNotIn("+0.0 %", text)
        json.dumps(item, allow_nan=False)

    def fig6_runs(self, engaged, burst_fct):
        for k in ("rcm", "rcm-literal-cfr", "dcqcn"):
            f = os.path.join(self.out, f"a-{k}")
            write_run(f, [(1_000_000, None)] * 4 + [(500_000, burst_fct)])
            write_csv(f, "flow_rates.csv", ["time_ns", "flow_id", "rate_bps"],
                      [(t * 1000, fl, 20e9) for t in range(100, 301) for fl in range(5)])
            write_csv(f, "rcm.csv", ["time_ns", "node", "port", "event"],
                      [(160_000, "s0", 0, "engage")] if engaged else [])

    def test_fig6_without_a_detection_fails_its_case_and_an_unfinished_burst_says_so(self):
        self.fig6_runs(engaged=False, burst_fct=None)
        with self.assertRaisesRegex(self.rcm.CaseFailed, "regional CC never engaged"):
            self.rcm.fig6(self.out)
        shutil.rmtree(self.out)
        self.fig6_runs(engaged=True, burst_fct=None)
        lines, item = self.rcm.fig6(self.out)
        rows = {name: value for name, value, _ in lines}
        self.assertEqual(rows["(a) burst FCT (us): RCM / DCQCN"], "not finished / not finished")
        json.dumps(item, allow_nan=False)

    def test_fig7_without_rate_samples_fails_its_case(self):
        for k in ("rcm", "rcm-sar-new", "rcm-no-sar", "dcqcn"):
            f = os.path.join(self.out, f"b-{k}")
            write_run(f, [(10_000_000, None)] * 5)
            write_csv(f, "flow_rates.csv", ["time_ns", "flow_id", "rate_bps"], [])
        with self.assertRaisesRegex(self.rcm.CaseFailed, "no rate sample"):
            self.rcm.fig7(self.out)


class PpfcFig18(unittest.TestCase):
    """Fig. 18 plotted an empty bin's mean (NaN) as 0 on its log axis, its table showed "-" there and its "differs"
    line "nan" (and a burst mean of 0.00 ms when no burst flow finished)."""

    def setUp(self):
        self.ppfc = load_run("ppfc")
        self.tmp = tempfile.TemporaryDirectory()
        # Made up: no flow of 1-10 MB in any run; an elephant none finishes; a 100 KB-1 MB flow only CaPFC does not
        # finish; no burst flow (500 KB from hosts 1-16 to host 0) finished under CaPFC.
        for fc, mid, burst in (("pfc", 700_000, 900_000), ("ppfc", 600_000, 800_000), ("capfc", None, None)):
            write_run(os.path.join(self.tmp.name, f"datamining-{fc}"),
                      [(5_000, 30_000, 20, 17), (50_000, 90_000, 21, 18), (400_000, mid, 22, 19),
                       (20_000_000, None, 23, 17), (500_000, burst, 1, 0), (500_000, burst, 2, 0)])
        self.lines, self.item = self.ppfc.fig18(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_the_table_names_a_bin_without_a_finished_flow(self):
        means = {name: value for name, value, _ in self.lines if "DataMining mean FCT by size" in name}
        self.assertEqual(means, {
            "Fig. 18 DataMining mean FCT by size, PFC (ms)":
                "0.03 / 0.09 / 0.70 / no such flows / no flow finished  (3/4 done)",
            "Fig. 18 DataMining mean FCT by size, P-PFC (ms)":
                "0.03 / 0.09 / 0.60 / no such flows / no flow finished  (3/4 done)",
            "Fig. 18 DataMining mean FCT by size, CaPFC (ms)":
                "0.03 / 0.09 / no flow finished / no such flows / no flow finished  (2/4 done)"})
        bursts = [value for name, value, _ in self.lines if "burst flows" in name]
        self.assertEqual(bursts, ["0.90 ms (2 flows)", "0.80 ms (2 flows)", "no burst flow finished"])
        differs = self.item["differs"]
        self.assertIn("100 KB-1 MB flows: 0.60 / no flow finished / 0.70 ms for P-PFC / CaPFC / PFC", differs)
        self.assertIn(">= 10 MB no flow finished against no flow finished ms", differs)
        self.assertIn("1-10 MB flows take no flow finished against no flow finished ms", differs)
        self.assertNotIn("nan", differs)

    def test_the_chart_has_no_bar_for_a_bin_without_a_finished_flow(self):
        plot, = self.item["plots"]
        self.assertTrue(plot["ylog"])
        self.assertEqual([(s["label"], s["y"]) for s in plot["series"]],
                         [("PFC", [0.03, 0.09, 0.7, None, None]), ("P-PFC", [0.03, 0.09, 0.6, None, None]),
                          ("CaPFC", [0.03, 0.09, None, None, None])])
        self.assertEqual(plot["categories"], ["<10KB", "10K-100K", "100K-1M: no flow finished (CaPFC)",
                                              "1M-10M: no such flows", ">=10M: no flow finished"])
        plot_values_drawable(self, plot)
        json.dumps(self.item, allow_nan=False)  # results.json stays JSON (NaN is not)

class PpfcNoFlowFinished(MadeUpRunsTest):
    """Incasts that finished no flow: the receiver throughput (NaN unless every flow finished) read 'nan / nan Gb/s'
    in Figs. 6, 7, 10, 11 and 12 and their 'differs' lines ('throughput nanx'), Figs. 7 and 10 wrote it into
    results.json as NaN, and Fig. 7's minimum over no ratio kept its start value: 'P-PFC keeps at least
    100000000000.0 % of PFC's receiver throughput at every degree, as in the paper'."""

    @classmethod
    def setUpClass(cls):
        cls.ppfc = m = load_run("ppfc")
        cls.tmp = tempfile.TemporaryDirectory()
        # Made up: every case of the reduced scale, its 4 flows unfinished; the monitored ports' queue at 100 KB
        # (200 KB after 50 us) and no pause.
        for name, _, _ in m.cases(False):
            f = os.path.join(cls.tmp.name, name)
            write_run(f, [(500_000, None, 1 + i, 0) for i in range(4)],
                      summary={"queue": {"max_bytes": 200_000},
                               "pfc": {"pause_frames": 0, "paused_time_ns": 0,
                                       "pause_frames_by_kind": {"standard": 0, "capfc": 0, "predictive": 0}}})
            write_csv(f, "queues.csv", ["time_ns", "node", "port", "bytes"],
                      [(t * 10_000, "s0", port, 100_000 if t < 5 else 200_000) for t in range(200) for port in (0, 1)])
            write_csv(f, "pfc.csv", ["time_ns", "node", "port", "priority", "event", "quanta", "kind"], [])

    def check(self, lines, items):
        self.assert_reported(lines, items)

    def test_fig7_says_no_flow_finished_and_compares_nothing(self):
        lines, item = self.ppfc.fig7(self.tmp.name, False)
        self.assertEqual(lines[0], ("Fig. 7 2:1 receiver throughput PFC / P-PFC", "no flow finished / no flow finished",
                                    "almost the same"))
        self.assertTrue(item["differs"].startswith("No incast degree has every flow finished under both PFC and "
                                                   "P-PFC"), item["differs"])
        self.assertEqual(item["verdict"], "differs")
        plot, = item["plots"]
        self.assertEqual([s["y"] for s in plot["series"]], [[None] * len(plot["series"][0]["x"])] * 2)
        self.check(lines, [item])

    def test_figs6_10_11_12_say_no_flow_finished(self):
        lines, item = self.ppfc.fig6(self.tmp.name)
        rows = {name: value for name, value, _ in lines}
        self.assertEqual(rows["Fig. 6 dcqcn 16:1 throughput PFC / P-PFC; predictive pauses"],
                         "no flow finished / no flow finished; 0")
        self.assertIn("throughput not compared (not every flow finished)", item["differs"])
        self.check(lines, [item])
        lines, item = self.ppfc.fig10(self.tmp.name)
        self.assertEqual(lines[0][1], "200 KB, no flow finished, 0")
        self.assertEqual(item["plots"][1]["series"][0]["y"], [None] * 5)
        self.check(lines, [item])
        lines, items = self.ppfc.figs11_12_15(self.tmp.name)
        rows = {name: value for name, value, _ in lines}
        self.assertEqual(rows["Fig. 11 dumbbell 8:1 throughput PFC / P-PFC; predictive / standard pauses (P-PFC)"],
                         "no flow finished / no flow finished; 0 / 0")
        self.check(lines, items)


class MercuryFatTree(unittest.TestCase):
    """Figs. 11-14 (the fat tree, (d)) put a class without a finished flow on their log axes as NaN (round(nan, 2),
    which results.json writes as NaN, no JSON value) and the table's per-run rows read "nan / nan"."""

    @classmethod
    def setUpClass(cls):
        cls.mercury = m = load_run("mercury")
        cls.tmp = tempfile.TemporaryDirectory()

        unfinished = {("d", "WebSearch", "dcqcn", 0.7), ("d", "FB_Hadoop", "timely", 0.3)} | {
            ("d-hpcc-code", "FB_Hadoop", "pacc", load) for load in m.LOADS}

        def flows(scheme, cdf, load, prefix="d"):
            # Made up: one short, one medium and (FB_Hadoop, WebSearch) one long flow per run, Mercury's 20 %
            # faster; CacheFollower and WebServer without a long flow; the long flow unfinished in the runs of
            # `unfinished` (prefix, workload, scheme, load).
            sizes = [20_000, 300_000] + ([2_000_000] if cdf in ("FB_Hadoop", "WebSearch") else [])
            speed = 0.8 if scheme == "mercury" else 1.0
            return [(size, None if size >= m.LONG_BYTES and (prefix, cdf, scheme, load) in unfinished
                     else int(speed * (size / 10 + 5_000))) for size in sizes]

        def run(name, scheme, cdf, load, prefix="d"):
            write_run(os.path.join(cls.tmp.name, name), flows(scheme, cdf, load, prefix),
                      summary={"sim_time_ns": 1_000_000})

        for prefix in ("d", "d-hpcc-code"):
            for s, _ in m.SCHEMES:
                for cdf in m.WORKLOADS:
                    for load in m.LOADS:
                        run(os.path.join(f"{prefix}-{s}", m.grid_name(cdf, load)), s, cdf, load, prefix)
        for load in m.LOADS:  # the isolating runs of HPCC's and Mercury's FB_Hadoop long flows
            for tag, _, _ in m.D_HPCC_ISO:
                run(m.d_iso_name(tag, load), "hpcc", "FB_Hadoop", load)
            run(m.d_merc_iso_name(load), "mercury", "FB_Hadoop", load)
        for s in ("mercury", "hpcc"):
            run(m.d_long_name(s), s, "FB_Hadoop", m.D_LONG_LOAD)
        cls.lines, cls.items = m.fat_tree(cls.tmp.name, False)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def plots(self):
        return {p["title"]: p for item in self.items for p in item["plots"]}

    def test_the_line_plots_leave_out_a_class_without_a_finished_flow(self):
        plots = self.plots()
        self.assertEqual(len(plots), 16)
        for what in ("average", "p99"):
            # CacheFollower has no long flow: no point at all; WebSearch's: none for DCQCN at 70 %.
            cache = plots[f"Fig. 13: CacheFollower, {what} FCT of long (>= 1 MB) flows"]
            self.assertEqual([s["y"] for s in cache["series"]], [[None, None, None]] * 6)
            search = plots[f"Fig. 14: WebSearch, {what} FCT of long (>= 1 MB) flows"]
            self.assertEqual({s["label"]: s["y"] for s in search["series"]},
                             {"Mercury": [164.0] * 3, "DCQCN": [205.0, 205.0, None], "TIMELY": [205.0] * 3,
                              "HPCC": [205.0] * 3, "PACC": [205.0] * 3, "DCQCN+TCD": [205.0] * 3})
        for plot in plots.values():
            self.assertTrue(plot["ylog"])
            plot_values_drawable(self, plot)
        json.dumps(self.items, allow_nan=False)  # results.json stays JSON (NaN is not)

    def test_the_table_names_a_class_without_a_finished_flow(self):
        rows = {name: value for item in self.items for name, value, _ in item["rows"]}
        self.assertEqual(rows["(d) DCQCN WebSearch 70 %: avg / p99 FCT all, short, long (us)"],
                         "21 / 35 | 7 / 7 | no flow finished")
        self.assertEqual(rows["(d) DCQCN WebSearch 50 %: avg / p99 FCT all, short, long (us)"],
                         "82 / 205 | 7 / 7 | 205 / 205")
        for s in ("Mercury", "DCQCN", "TIMELY", "HPCC", "PACC", "DCQCN+TCD"):
            self.assertTrue(rows[f"(d) {s} CacheFollower 30 %: avg / p99 FCT all, short, long (us)"].endswith(
                " | no flow finished"))
        # The best reduction over the loads: of those with long flows under both (TIMELY's 30 % has none), or none.
        self.assertEqual(rows["(d) FB_Hadoop long flows vs TIMELY: best avg / p99 FCT reduction"], "+20.0 / +20.0 %")
        self.assertEqual(rows["(d) isolating, HPCC-code settings, 0.5 ms: FB_Hadoop long flows vs PACC: best avg / p99"],
                         "no flow finished under both")
        for text in list(rows.values()) + [item["differs"] for item in self.items]:
            self.assertNotIn("nan", text)


class MercuryNoFlowFinished(MadeUpRunsTest):
    """Runs that finished no flow: (d)'s isolating 10 ms pair divided by a count of no flows (ZeroDivisionError in
    hpcc_long_cause, `all10`) and its rows read +nan, and (c)'s Fig. 10 wrote nan for the p99 FCTs (NaN into
    results.json) and divided by a max queue of 0."""

    @classmethod
    def setUpClass(cls):
        cls.mercury = m = load_run("mercury")
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        # Made up, no flow finished anywhere: a short, a medium and a long flow per run, the queue never built.
        flows = [(20_000, None), (300_000, None), (2_000_000, None)]
        empty = {"sim_time_ns": 5_000, "queue": {"max_bytes": 0}}
        names = [os.path.join(f"{prefix}-{s}", m.grid_name(cdf, load)) for prefix in ("d", "d-hpcc-code")
                 for s, _ in m.SCHEMES for cdf in m.WORKLOADS for load in m.LOADS]
        names += [m.d_iso_name(tag, load) for tag, _, _ in m.D_HPCC_ISO for load in m.LOADS]
        names += [m.d_merc_iso_name(load) for load in m.LOADS] + [m.d_long_name(s) for s in ("mercury", "hpcc")]
        names += [f"c-hadoop-{s}" for s, _ in m.SCHEMES] + [f"c-hadoop-hpcc-code-{s}" for s, _ in m.SCHEMES]
        names += [f"c-hadoop-mercury-thr{t}" for t in m.C_THRESHOLDS_KB] + ["c-hadoop-dcqcn-step", "c-hadoop-hpcc-ms0"]
        for name in names:
            write_run(os.path.join(d, name), flows, summary=empty)

    def check(self, lines, items):
        self.assert_reported(lines, items)

    def test_the_fat_tree_says_no_flow_finished(self):
        lines, items = self.mercury.fat_tree(self.tmp.name, False)
        rows = {name: value for item in items for name, value, _ in item["rows"]}
        self.assertEqual(rows["(d) Mercury WebSearch 50 %: avg / p99 FCT all, short, long (us)"],
                         "no flow finished | no flow finished | no flow finished")
        self.assertEqual(rows["(d) isolating HPCC's FB_Hadoop long flows, 50 % load, 0.5 ms -> 10 ms of arrivals: avg "
                              "/ p99 reduction; long flows; % of their lifetime after the arrivals stop (Mercury / "
                              "HPCC)"],
                         "no flow finished under both -> no flow finished under both; 0 -> 0; no flow finished")
        differs = items[0]["differs"]
        self.assertTrue(differs.startswith("No flow finished under both Mercury and another scheme in any cell. "),
                        differs)
        self.assertTrue(items[1]["differs"].startswith("Short flows: none finished under both Mercury and another "
                                                       "scheme in any cell. Long flows: none finished under both "
                                                       "Mercury and another scheme in any cell. "), items[1]["differs"])
        self.assertIn("no long flow finished in the runs with 0.5 and 10 ms of arrivals", items[1]["differs"])
        self.assertEqual([item["verdict"] for item in items], ["differs", "differs"])
        self.check(lines, items)

    def test_a_cell_and_the_10_ms_pair_without_a_finished_flow(self):
        # Made up: the sweeps finish every flow, Mercury's twice as fast (margins far from the paper's, so the
        # 'differs' line quotes the 10 ms pair), but DCQCN's WebSearch run at 70 % finished none, and the 10 ms pair
        # none either.
        m = self.mercury
        with tempfile.TemporaryDirectory() as d:
            for prefix in ("d", "d-hpcc-code"):
                for s, _ in m.SCHEMES:
                    for cdf in m.WORKLOADS:
                        for load in m.LOADS:
                            none = (prefix, s, cdf, load) == ("d", "dcqcn", "WebSearch", 0.7)
                            write_run(os.path.join(d, f"{prefix}-{s}", m.grid_name(cdf, load)),
                                      [(size, None if none else (size // 10 + 5_000) // (2 if s == "mercury" else 1))
                                       for size in (20_000, 300_000, 2_000_000)], summary={"sim_time_ns": 1_000_000})
            for name in [m.d_iso_name(tag, load) for tag, _, _ in m.D_HPCC_ISO for load in m.LOADS] + \
                        [m.d_merc_iso_name(load) for load in m.LOADS]:
                write_run(os.path.join(d, name), [(2_000_000, 200_000)], summary={"sim_time_ns": 1_000_000})
            for s in ("mercury", "hpcc"):
                shutil.copytree(os.path.join(self.tmp.name, m.d_long_name(s)), os.path.join(d, m.d_long_name(s)))
            lines, items = m.fat_tree(d, False)
        differs = items[0]["differs"]
        self.assertTrue(differs.startswith("Mercury has the lowest average and p99 FCT wherever both finished flows. No "
                                           "flow finished under both in 1 of 60 cells (DCQCN WebSearch 70 %). "), differs)
        self.assertEqual(items[0]["verdict"], "differs")
        self.assertIn("with 10 ms of FB_Hadoop arrivals at 50 % load Mercury's overall average FCT and its long flows': "
                      "no flow finished under both (isolating runs", differs)
        rows = {name: value for name, value, _ in items[1]["rows"]}
        self.assertEqual(rows["(d) isolating HPCC's FB_Hadoop long flows, 50 % load, 0.5 ms -> 10 ms of arrivals: avg "
                              "/ p99 reduction; long flows; % of their lifetime after the arrivals stop (Mercury / "
                              "HPCC)"],
                         "+50.0 / +50.0 % -> no flow finished under both; 1 -> 0; 0 % / 0 % -> no flow finished / "
                         "no flow finished")
        self.check(lines, items)

    def test_fig10_says_no_flow_finished_and_draws_no_bar(self):
        lines, item = self.mercury.hadoop(self.tmp.name)
        rows = {name: value for name, value, _ in lines}
        self.assertEqual(rows["(c) Mercury vs DCQCN: p99 FCT (us), max queue (KB)"],
                         "no flow finished vs no flow finished, 0 vs 0")
        self.assertEqual(rows["(c) mean slowdown of the flows >= 1 MB (ours; HPCC-code settings), 0 flows"],
                         ", ".join(f"{lab} no flow finished; no flow finished" for lab in
                                   ("Mercury", "DCQCN", "TIMELY", "HPCC", "PACC", "DCQCN+TCD")))
        self.assertTrue(item["differs"].startswith("No flow finished in the runs of Mercury, DCQCN, TIMELY, HPCC, PACC, "
                                                   "DCQCN+TCD (ours and with the HPCC-code settings)"), item["differs"])
        self.assertEqual([s["y"] for s in item["plots"][0]["series"]], [[None] * 6] * 2)
        self.assertEqual(item["verdict"], "differs")
        self.check(lines, [item])


class RoccLargeScale(unittest.TestCase):
    """Figs. 15-16 drew a size bin without a finished flow as a 0 bar on their log axis (`... if b[2] else 0`), and
    the table did not say which bins had none."""

    @classmethod
    def setUpClass(cls):
        cls.rocc = m = load_run("rocc")
        cls.tmp = tempfile.TemporaryDirectory()
        # Made up: a flow per size bin, each scheme's FCTs a little longer than RoCC's; no WebSearch flow of 10 MB or
        # more finishes at 70 % load, and HPCC's 1-10 MB flow does not at FB_Hadoop 70 %.
        for cdf, tag in m.WORKLOADS:
            for load in (0.5, 0.7):
                for k, cc in enumerate([c for c, _ in m.SCHEMES] + ["dcqcn-dynamic", "rocc-lqfg"]):
                    flows = []
                    for size, fct in ((5_000, 10_000), (50_000, 40_000), (500_000, 200_000), (5_000_000, 1_000_000),
                                      (20_000_000, 4_000_000)):
                        gone = (tag, load, size) == ("websearch", 0.7, 20_000_000) or \
                               (tag, load, cc, size) == ("fbhadoop", 0.7, "hpcc", 5_000_000)
                        flows.append((size, None if gone else fct * (10 + k) // 10))
                    write_run(os.path.join(cls.tmp.name, "e", f"{cc}-{tag}-{int(load * 100)}"), flows,
                              summary={"pfc": {"pause_frames": k}, "slowdown": {"mean": 1.5, "p99": 4.0}})
        cls.lines, cls.items = m.large_scale(cls.tmp.name, False)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_bars_leave_out_a_bin_without_a_finished_flow(self):
        plots = {p["title"]: p for p in self.items[0]["plots"]}
        self.assertEqual(len(plots), 4)
        labels = ["RoCC", "DCQCN", "DCQCN+PI", "HPCC", "TIMELY", "QCN", "BFC"]
        for key, what in ((0, "average FCT"), (1, "p99 FCT")):
            search = plots[f"Fig. {15 + key} (WebSearch, 70 % load, 5 ms): {what} by flow size"]
            self.assertEqual([(s["label"], s["y"]) for s in search["series"]],
                             [(lab, [10 + k, 40 + 4 * k, 200 + 20 * k, 1000 + 100 * k, None])
                              for k, lab in enumerate(labels)])
            self.assertEqual(search["categories"], ["<10K", "10K-100K", "100K-1M", "1M-10M", ">=10M: no flow finished"])
            hadoop = plots[f"Fig. {15 + key} (FB_Hadoop, 70 % load, 5 ms): {what} by flow size"]
            self.assertEqual([s["y"][3] for s in hadoop["series"]], [1000, 1100, 1200, None, 1400, 1500, 1600])
            self.assertEqual(hadoop["categories"], ["<10K", "10K-100K", "100K-1M", "1M-10M: no flow finished (HPCC)",
                                                    ">=10M"])
        for plot in plots.values():
            self.assertTrue(plot["ylog"])
            plot_values_drawable(self, plot)
        json.dumps(self.items, allow_nan=False)

    def test_the_table_names_the_bins_without_a_finished_flow(self):
        rows = {name: value for name, value, _ in self.lines}
        row = "(e) {}, 5 ms, {}: p99 FCT / RoCC's over size bins; slowdown mean / p99; PFC pauses"
        self.assertEqual(rows[row.format("WebSearch 70%", "DCQCN")],
                         "1.10-1.10 (no flow finished: >=10M); 1.50 / 4.00; 1")
        self.assertEqual(rows[row.format("FB_Hadoop 70%", "HPCC")],
                         "1.30-1.30 (no flow finished: 1M-10M); 1.50 / 4.00; 3")
        self.assertEqual(rows[row.format("FB_Hadoop 70%", "DCQCN")], "1.10-1.10; 1.50 / 4.00; 1")
        self.assertEqual(rows[row.format("WebSearch 50%", "DCQCN")], "1.10-1.10; 1.50 / 4.00; 1")


class RoccNoFlowFinished(MadeUpRunsTest):
    """Runs that finished no flow: (e) divided the per-flow rates of Table III by a count of none (ZeroDivisionError)
    and read the summary's slowdown of no flow as 0.00; (b)'s staircase timed the steps after an unfinished group
    from an infinite finish time ('step at inf ms', Infinity into results.json); (a) took max() of the rates of a run
    stopped before the window it measures."""

    @classmethod
    def setUpClass(cls):
        cls.rocc = m = load_run("rocc")
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        # (e), made up: a flow per size bin in every run, none finished; the summary's slowdown of no flow is 0 (as
        # summary.json writes it).
        for cdf, tag in m.WORKLOADS:
            for load in (0.5, 0.7):
                for k, cc in enumerate([c for c, _ in m.SCHEMES] + ["dcqcn-dynamic", "rocc-lqfg"]):
                    write_run(os.path.join(d, "e", f"{cc}-{tag}-{int(load * 100)}"),
                              [(size, None) for size in (5_000, 50_000, 500_000, 5_000_000, 20_000_000)],
                              summary={"pfc": {"pause_frames": k}, "slowdown": {"mean": 0, "p99": 0}})
        # (b), made up: the staircase's 100 flows (3 at first, then groups of 3, 6, 13, 25, 50 every 10 ms), none
        # finished by a stop at 55 ms; the CP's fair rate sampled every ms.
        starts = [0] * 3 + [10_000_000] * 3 + [20_000_000] * 6 + [30_000_000] * 13 + [40_000_000] * 25 + \
                 [50_000_000] * 50
        f = os.path.join(d, "b-staircase")
        write_csv(f, "fct.csv", FCT_COLUMNS, [(i, 1 + i, 0, 10_000_000, t, "", "") for i, t in enumerate(starts)])
        write_csv(f, "rocc.csv", ["time_ns", "node", "port", "fair_rate_bps"],
                  [(t * 1_000_000, "s0", 0, 40e9 / sum(1 for x in starts if x <= t * 1_000_000)) for t in range(56)])
        # (a), made up: N flows into one port, stopped at 1 ms, before the window Fig. 8 measures (12-20 ms).
        for gbps in (40, 100):
            for n in (2, 10, 100):
                f = os.path.join(d, f"a-{gbps}g-n{n}")
                write_run(f, [(10_000_000, None, 1 + i, 0) for i in range(n)])
                write_csv(f, "flow_rates.csv", ["time_ns", "flow_id", "rate_bps"],
                          [(t * 100_000, i, gbps * 1e9 / n) for t in range(11) for i in range(n)])
                write_csv(f, "queues.csv", ["time_ns", "node", "port", "bytes"], [(t * 100_000, "s0", 0, 0)
                                                                                   for t in range(11)])

    def check(self, lines, items):
        self.assert_reported(lines, items, absent=("nan", "inf "))

    def test_table3_and_the_e_rows_say_no_flow_finished(self):
        lines, items = self.rocc.large_scale(self.tmp.name, False)
        rows = {name: value for name, value, _ in lines}
        self.assertEqual(rows["Table III DCQCN: per-flow average rate / standard deviation (Mb/s)"], "no flow finished")
        self.assertEqual(rows["(e) FB_Hadoop 70%, 5 ms, HPCC: p99 FCT / RoCC's over size bins; slowdown mean / p99; "
                              "PFC pauses"],
                         "no size bin with flows finished under both (no flow finished: <10K, 10K-100K, 100K-1M, "
                         "1M-10M, >=10M); no flow finished; 3")
        self.assertIn("No size bin at 70 % load has flows finished under both RoCC and another scheme", items[0]["differs"])
        table, = [item for item in items if item["id"] == "table3-rates"]
        self.assertEqual([s["y"] for s in table["plots"][0]["series"]], [[None] * len(self.rocc.SCHEMES)] * 2)
        self.check(lines, items)

    def test_a_run_that_ended_before_its_window_fails_its_case(self):
        # main() caught nothing: a run stopped before 12 ms ended the script on max() of no rate (no results.json).
        with self.assertRaisesRegex(self.rocc.CaseFailed, "a-40g-n2: no rate sample after 12 ms in flow_rates.csv"):
            self.rocc.fairness(self.tmp.name)

    def test_the_staircase_says_which_steps_no_finish_reached(self):
        lines, item = self.rocc.staircase(self.tmp.name)
        values = [value for _, value, _ in lines]
        self.assertEqual(len(values), 11)
        self.assertEqual(values[5], "0.0 ms (step lasts until the run's end: no flow of the group finished)")
        self.assertEqual(values[6:], ["not reached: a flow of the group leaving did not finish"] * 5)
        self.assertEqual(lines[6][0], "(b) step 7 to N=50 (0.80 Gb/s): F within 10 % after")
        self.check(lines, [item])


class RccFatTree(unittest.TestCase):
    """Fig. 9 (overall average FCT by load, log axis) wrote a run without a finished flow as NaN; Figs. 10-11 left an
    empty size bin out of their bars already, but their table read "n/a/n/a" there."""

    @classmethod
    def setUpClass(cls):
        cls.rcc = m = load_run("rcc-fattree")
        cls.tmp = tempfile.TemporaryDirectory()
        # Made up: WebSearch, a flow per size bin, RCC's FCTs 20 % below the others'; DCQCN's flow of 10 MB or more
        # does not finish at 30 % load, and no flow of TIMELY's at 70 %.
        cls.schemes, cls.loads, stats = ["rcc", "hpcc", "dcqcn", "timely"], [0.3, 0.5, 0.7], {}
        for load in cls.loads:
            for s in cls.schemes:
                flows = [(size, None if (s, load) == ("timely", 0.7) or (s, load, size) == ("dcqcn", 0.3, 20_000_000)
                          else fct * (10 if s == "rcc" else 12) // 10)
                         for size, fct in ((5_000, 10_000), (50_000, 40_000), (500_000, 200_000),
                                           (5_000_000, 1_000_000), (20_000_000, 4_000_000))]
                folder = os.path.join(cls.tmp.name, m.case_name("WebSearch", load, s))
                write_run(folder, flows, summary={"pfc": {"pause_frames": 0}, "drops": 0})
                stats[("WebSearch", load, s)] = m.fct_stats(folder)
        cls.overall = m.overall_item(stats, ["WebSearch"], cls.loads, cls.schemes, 1)
        cls.by_size = m.by_size_item(stats, "WebSearch", 10, cls.loads, cls.schemes)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_fig9_leaves_out_a_run_without_a_finished_flow(self):
        rows, item = self.overall
        plot, = item["plots"]
        self.assertTrue(plot["ylog"])
        self.assertEqual({s["label"]: s["y"] for s in plot["series"]},
                         {"RCC": [1050.0] * 3, "HPCC": [1260.0] * 3, "DCQCN": [375.0, 1260.0, 1260.0],
                          "TIMELY": [1260.0, 1260.0, None]})
        plot_values_drawable(self, plot)
        values = {name: value for name, value, _ in rows}
        self.assertEqual(values["WebSearch: TIMELY average FCT (us) at 30%, 50%, 70%"],
                         "1260.0 / 1260.0 / no flow finished")
        self.assertEqual(values["WebSearch: RCC's average FCT below TIMELY's"], "up to 17 % (min 17 %)")
        json.dumps(item, allow_nan=False)

    def test_figs10_11_name_a_bin_without_a_finished_flow(self):
        rows, item = self.by_size
        values = {name: value for name, value, _ in rows}
        row = "WebSearch {}%: {} avg / p99 FCT (us) by size <10KB, 10K-100K, 100K-1M, 1M-10M, >=10M"
        self.assertEqual(values[row.format(30, "DCQCN")], "12.0/12.0; 48.0/48.0; 240.0/240.0; 1200.0/1200.0; "
                                                          "no flow finished")
        self.assertEqual(values[row.format(70, "TIMELY")], "; ".join(["no flow finished"] * 5))
        plots = {p["title"]: p for p in item["plots"]}
        for what in ("average", "p99"):
            plot = plots[f"Fig. 10 (WebSearch, 30 % load): {what} FCT by flow size"]
            self.assertEqual(plot["categories"], ["<10KB", "10K-100K", "100K-1M", "1M-10M",
                                                  ">=10M: no flow finished (DCQCN)"])
            self.assertEqual([s["y"][4] for s in plot["series"]], [4000.0, 4800.0, None, 4800.0])
        for plot in plots.values():
            self.assertTrue(plot["ylog"])
            plot_values_drawable(self, plot)
        json.dumps(item, allow_nan=False)


class RccNoFlowFinished(MadeUpRunsTest):
    """Runs that finished no flow (a stop time too short): incast_stats() took min() of no finish time (and
    percentile() indexed an empty list), so (b), (e) and (g) stopped on a ValueError; pause_time_share() and Table
    II's incast duration took max() of no finish time, so (c) did too."""

    @classmethod
    def setUpClass(cls):
        cls.rcc = m = load_run("rcc")
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        ms = 1_000_000
        every = [k * 100_000 for k in range(151)]  # 0-15 ms in 0.1 ms steps
        # Made up, no flow finished: each incast run's background flow and 20 incast flows of 200 KB, the
        # background flow's rate and the ToR's queue sampled up to a stop at 2 ms.
        incasts = ["b-incast-rcc", "b-incast-hpcc", "b-incast-hpcc-formulation", "g-incast-rcc-evaluation-gains"] + \
                  [f"b-incast-rcc-n{n}" for n in m.INCAST_N] + [f"e-incast-{k}" for k, _, _ in m.CLOCK_VARIANTS
                                                                if k != "rcc"]
        for name in incasts:
            f = os.path.join(d, name)
            write_run(f, [(10_000_000_000, None, 1, 0)] + [(200_000, None, 16 + i, 0) for i in range(20)],
                      summary={"pfc": {"pause_frames": 0, "expired_pauses": 0}})
            write_csv(f, "flow_rates.csv", ["time_ns", "flow_id", "rate_bps"], [(t, 0, 5e9) for t in every[:21]])
            write_csv(f, "queues.csv", ["time_ns", "node", "port", "bytes"], [(t, "s0", 0, 50_000) for t in every[:21]])
        # Table II's incasts, no flow finished: one pause at 0.1 ms, resumed at 0.2 ms.
        for fab, _ in m.FABRICS:
            for cc, _ in m.PAUSE_SCHEMES:
                for n in m.PAUSE_N:
                    f = os.path.join(d, f"c-pause-{fab}-{cc}-{n}")
                    write_run(f, [(200_000, None, 1 + i, 0) for i in range(4)],
                              summary={"pfc": {"pause_frames": 1, "expired_pauses": 0}})
                    write_csv(f, "pfc.csv", ["time_ns", "node", "port", "priority", "event"],
                              [(100_000, "s0", 1, 3, "pause"), (200_000, "s0", 1, 3, "resume")])
        # (a)'s staircase and (d)'s multi-bottleneck as (e) and (g) read them, every flow finished: flows 5 ms apart,
        # each at 95 Gb/s shared evenly while it runs.
        def shared(spans):
            return [(t, f, 95e9 / sum(1 for a, b in spans if a <= t < b)) for t in every
                    for f, (a, b) in enumerate(spans) if a <= t < b]

        stair = [(0, 30 * ms), (5 * ms, 25 * ms), (10 * ms, 22 * ms), (15 * ms, 20 * ms)]
        for name in ("a-staircase-rcc", "g-staircase-rcc-evaluation-gains"):
            f = os.path.join(d, name)
            write_csv(f, "fct.csv", FCT_COLUMNS, [(i, i, 4, 1_000_000, a, b, b - a) for i, (a, b) in enumerate(stair)])
            write_csv(f, "flow_rates.csv", ["time_ns", "flow_id", "rate_bps"], shared(stair))
        multi = [(0, 15 * ms), (5 * ms, 15 * ms), (10 * ms, 15 * ms)]
        for name in ["d-multi-rcc"] + [n for n, _, _ in m.MB_READINGS] + [f"e-multi-{k}" for k, _, _ in
                                                                           m.CLOCK_VARIANTS if k != "rcc"]:
            f = os.path.join(d, name)
            write_csv(f, "flow_rates.csv", ["time_ns", "flow_id", "rate_bps"], shared(multi))
            write_csv(f, "queues.csv", ["time_ns", "node", "port", "bytes"],
                      [(t, node, port, 10_000) for t in every for node, port in (("s0", 2), ("s1", 1))])
            write_csv(f, "rcc.csv", ["flow_id", "pid_entry_ns", "pid_ns", "floor_ns"], [(0, 5 * ms, 10 * ms, 0)])

    def check_texts(self, lines, item):
        self.assert_reported(lines, [item])

    def test_a_percentile_of_no_value_is_missing(self):
        self.assertTrue(math.isnan(self.rcc.percentile([], 99)))
        self.assertEqual(self.rcc.percentile([3.0, 1.0, 2.0], 50), 2.0)

    def test_the_incast_rows_say_no_flow_finished(self):
        lines, item = self.rcc.b_analyse(self.tmp.name, False)
        rows = {name: value for name, value, _ in lines}
        self.assertEqual(rows["(b) RCC: aggregate goodput during the incast (Gb/s)"], "no flow finished")
        self.assertEqual(rows["(b) HPCC: incast FCT p50 / p99 (ms), 0 of 1000 done"], "no flow finished")
        self.assertEqual(rows["(b) RCC vs HPCC: FCT p50 / p99 lower by"], "no flow finished")
        self.assertEqual(rows["(b) RCC: bottleneck queue peak / time above 1 MB / standing (KB, ms, KB)"],
                         "50 / 0.0 / no flow finished")
        self.assertTrue(item["differs"].startswith("No incast flow finished in the runs of RCC, HPCC, HPCC (paper "
                                                   "formulation), N = 200, N = 300, N = 600:"), item["differs"])
        self.check_texts(lines, item)

    def test_the_clock_and_gains_rows_say_no_flow_finished(self):
        lines, item = self.rcc.e_analyse(self.tmp.name, False)
        incast = [value for name, value, _ in lines if name.endswith("incast: goodput (Gb/s), FCT p50 / p99 (ms)")]
        self.assertEqual(incast, ["no flow finished"] * len(self.rcc.CLOCK_VARIANTS))
        self.check_texts(lines, item)
        lines, item = self.rcc.g_analyse(self.tmp.name, False)
        rows = {name: value for name, value, _ in lines}
        self.assertEqual(rows["(g) Figs. 7-8 with the evaluation's gains: identical"], "no flow finished")
        self.check_texts(lines, item)

    def test_table2_says_no_flow_finished_and_draws_no_bar(self):
        lines, item = self.rcc.c_analyse(self.tmp.name, False)
        rows = {name: value for name, value, _ in lines}
        self.assertEqual(rows["(c) one switch, DCQCN: pause-time share (%), N = 16, 32, 64, 128, 192, 256"],
                         ", ".join(["no flow finished"] * 6))
        self.assertEqual(rows["(c) fat tree, RCC, N = 256: last pause (ms) / incast duration (ms) / mean goodput (Gb/s)"],
                         "0.10 / no flow finished / no flow finished")
        self.assertTrue(item["differs"].startswith("No flow finished in the runs of "), item["differs"])
        for plot in item["plots"]:
            self.assertEqual([s["y"] for s in plot["series"][:3]], [[None] * 6] * 3)
        self.check_texts(lines, item)


class RccFatTreeNoFlowFinished(MadeUpRunsTest):
    """Runs that finished no flow: the isolating rows of Fig. 9's RCC PID item read 'nan [nan]' and its ranges
    min/max over NaN, Fig. 14's 'RCC below RCC-PID / RCC-EWA' read 'nan % (nan %)' (NaN into results.json for its
    lines); with no case compared Fig. 9 said 'RCC has the lowest average FCT in every case ..., as in the paper'
    (verdict reproduced) over an empty 'Order of average FCT: .', and Figs. 10-11 named the lowest scheme 'n/a's'."""

    @classmethod
    def setUpClass(cls):
        cls.rcc = m = load_run("rcc-fattree")
        cls.tmp = tempfile.TemporaryDirectory()
        cls.loads, cls.stats = [0.3, 0.5, 0.7], {}
        # Made up, no flow finished: a flow per size bin in each run; RCC's runs traced (rcc.csv), no flow in PID.
        runs = [(w, s) for w in ("WebServer", "CacheFollower") for s in m.PID_VARIANTS + ("hpcc",)] + \
               [("WebSearch", s) for s in list(m.SCHEMES) + ["rcc-pid", "rcc-ewa"]]
        for w, s in runs:
            for load in cls.loads:
                folder = os.path.join(cls.tmp.name, m.case_name(w, load, s))
                write_run(folder, [(size, None) for size in (5_000, 50_000, 500_000, 5_000_000, 20_000_000)],
                          summary={"pfc": {"pause_frames": 0}, "drops": 0})
                if s.startswith("rcc"):
                    write_csv(folder, "rcc.csv", ["flow_id", "pid_entry_ns", "pid_ns", "floor_ns"], [(0, "", 0, 0)])
                cls.stats[(w, load, s)] = m.fct_stats(folder)

    def check(self, rows, item):
        self.assert_reported(rows, [item])

    def test_the_pid_item_says_no_flow_finished(self):
        rows, item = self.rcc.pid_item(self.stats, self.loads)
        values = {name: value for name, value, _ in rows}
        self.assertEqual(values["CacheFollower: RCC: average FCT (us) [x HPCC's]; flows in PID (%); their PID time at "
                                "the floor (%), at 30%, 50%, 70%"], " | ".join(["no flow finished; 0.0; 0.0"] * 3))
        self.assertTrue(item["differs"].startswith("No flow finished under both HPCC and RCC or a variant in any "
                                                   "case"), item["differs"])
        self.assertEqual(item["verdict"], "differs")
        self.check(rows, item)

    def test_figs9_10_say_no_flow_finished(self):
        schemes = list(self.rcc.SCHEMES)
        rows, item = self.rcc.overall_item(self.stats, ["WebSearch"], self.loads, schemes, 1)
        self.assertTrue(item["differs"].startswith("No flow finished under both RCC and another scheme in any case, "
                                                   "so there is no average FCT to compare. The paper's loads"),
                        item["differs"])
        self.assertEqual(item["verdict"], "differs")
        self.check(rows, item)
        rows, item = self.rcc.by_size_item(self.stats, "WebSearch", 10, self.loads, schemes)
        self.assertTrue(item["differs"].startswith("At 50 % load no flow finished below 10 KB in any run and no flow "
                                                   "finished of 10 MB or more in any run (paper: "), item["differs"])
        self.check(rows, item)

    def test_fig14_says_no_flow_finished(self):
        rows, item = self.rcc.fig14_item(self.stats, self.loads)
        values = {name: value for name, value, _ in rows}
        self.assertEqual(values["WebSearch: RCC average FCT (us) at 30%, 50%, 70%"],
                         "no flow finished / no flow finished / no flow finished")
        self.assertEqual(values["RCC's average FCT below RCC-PID's / RCC-EWA's (up to, min)"],
                         "no flow finished under both / no flow finished under both")
        self.assertTrue(item["differs"].startswith("No load has flows finished under both RCC and an ablation"),
                        item["differs"])
        self.assertEqual(item["verdict"], "differs")
        self.assertEqual([s["y"] for s in item["plots"][0]["series"]], [[None] * 3] * 3)
        self.check(rows, item)


class StoppedBeforeTheirWindows(MadeUpRunsTest):
    """Runs stopped before the rate samples an analysis reads (every case stopped at 5 us: no sample at all) failed
    RCC's (a) and (d) and Mercury's (a) and (b) with a bare KeyError, reported as "(a) analysis FAILED 0"; they
    now fail naming the run, the flow and when the run ended."""

    @classmethod
    def setUpClass(cls):
        cls.rcc, cls.mercury = load_run("rcc"), load_run("mercury")
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        # Stopped at 5 us: flows started, none finished, no rate sample yet.
        m = cls.mercury
        cls.victim = m.a_name("dcqcn", m.A_XOFF, 1)
        for name in ["rcc-staircase", cls.victim] + [f"b-incast-{s}" for s, _ in m.SCHEMES]:
            write_run(os.path.join(d, name), [(1_000_000, None)] * 4, summary={"sim_time_ns": 5_000})
            write_csv(os.path.join(d, name), "flow_rates.csv", ["time_ns", "flow_id", "rate_bps"], [])
        # RCC (d) stopped in its second phase: samples of flow 0 only, up to 7 ms.
        s = cls.rcc.mb_spacing_ms(False)
        write_run(os.path.join(d, "rcc-multi"), [(10**9, None)] * 3, summary={"sim_time_ns": int(1.4 * s * 1e6)})
        write_csv(os.path.join(d, "rcc-multi"), "flow_rates.csv", ["time_ns", "flow_id", "rate_bps"],
                  [(t * 100_000, 0, 95e9) for t in range(1, int(14 * s))])
        # And with flow 1's samples from 5 ms: none in phase 2's window (its second half, 7.5-10 ms).
        write_run(os.path.join(d, "rcc-multi-2"), [(10**9, None)] * 3, summary={"sim_time_ns": int(1.4 * s * 1e6)})
        write_csv(os.path.join(d, "rcc-multi-2"), "flow_rates.csv", ["time_ns", "flow_id", "rate_bps"],
                  [(t * 100_000, f, 47e9) for t in range(1, int(14 * s)) for f in (0, 1) if f == 0 or t >= 10 * s])

    def test_rcc_staircase_names_the_flow_without_a_sample(self):
        with self.assertRaisesRegex(RuntimeError, r"rcc-staircase: no rate sample of flow 0; the run ended at 0.005 ms"):
            self.rcc.staircase_stats(os.path.join(self.tmp.name, "rcc-staircase"), False)

    def test_rcc_multi_bottleneck_names_the_phase_it_did_not_reach(self):
        with self.assertRaisesRegex(RuntimeError, r"rcc-multi: no rate sample of flow 1; the run ended at 7 ms"):
            self.rcc.mb_phases(os.path.join(self.tmp.name, "rcc-multi"), False)
        with self.assertRaisesRegex(RuntimeError, r"rcc-multi-2: no rate sample of every flow in 7.5-10 ms \(phase 2\); "
                                                  r"the run ended at 7 ms"):
            self.rcc.mb_phases(os.path.join(self.tmp.name, "rcc-multi-2"), False)

    def test_mercury_victim_and_incast_name_the_window_the_run_did_not_reach(self):
        m = self.mercury
        with self.assertRaisesRegex(ValueError, self.victim + r": \(a\) reads flow 0's rate until 5 ms, but the run "
                                                r"ended at 0.005 ms with no sample of it"):
            m.a_run(self.tmp.name, "dcqcn", m.A_XOFF, 1, m.a_neighbour())
        with self.assertRaisesRegex(ValueError, r"b-incast-\w+: \(b\) reads flow 0's rate until 1.2 ms, but the run "
                                                r"ended at 0.005 ms"):
            m.incast(self.tmp.name)


if __name__ == "__main__":
    sys.exit(unittest.main())
