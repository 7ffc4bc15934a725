#!/usr/bin/env python3
"""Unit tests of the experiments' analysis functions (experiments/*/run.py) on outputs written here: no simulator
run, a second or less. CTest runs it as Experiments.AnalysesOnMadeUpOutputs.

usage: tests/experiments_test.py [-v]
"""
import csv
import importlib.util
import json
import os
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


def write_run(folder, flows, retransmitted_bytes=0):
    """A run's fct.csv from (size, fct_ns or None: unfinished) and a summary.json with its packet counters."""
    os.makedirs(folder)
    with open(os.path.join(folder, "fct.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(FCT_COLUMNS)
        for i, (size, fct) in enumerate(flows):
            start = 1000 * i
            w.writerow([i, 1, 0, size, start, "" if fct is None else start + fct, "" if fct is None else fct])
    with open(os.path.join(folder, "summary.json"), "w") as f:
        json.dump({"packets": {"retransmitted_bytes": retransmitted_bytes, "nacks": 0, "timeouts": 0}}, f)


class RcmFig9(unittest.TestCase):
    def setUp(self):
        self.rcm = load_run("rcm")
        self.tmp = tempfile.TemporaryDirectory()
        self.out = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

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


if __name__ == "__main__":
    sys.exit(unittest.main())
