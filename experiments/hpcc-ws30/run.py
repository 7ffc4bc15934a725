#!/usr/bin/env python3
"""The HPCC fidelity case under the experiment protocol of experiments/README.md (`lossless reproduce hpcc`).

usage: experiments/hpcc-ws30/run.py [--lossless build/lossless] [--out out/hpcc] [--full] [-j N]
Runs tools/fidelity.py (DCQCN, HPCC, TIMELY and DCTCP on this folder's HPCC-simulator config, topology and flow
files and on the cases of ../hpcc-fidelity/) with its markdown report in OUT/fidelity.md, the runs in
OUT/<case>/<scheme>/ and OUT/results.json. The cases have one scale (320 hosts): --full changes nothing. -j N becomes fidelity.py's --threads N (threads per run;
outputs do not depend on it). Exit status: fidelity.py's (1 if a statistic is out of tolerance).
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lossless", default=os.path.join(ROOT, "build", "lossless"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "hpcc"))
    ap.add_argument("--full", action="store_true", help="accepted; the case runs at the paper's scale either way")
    ap.add_argument("-j", "--jobs", type=int, default=min(2, os.cpu_count() or 1))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    return subprocess.run([sys.executable, os.path.join(ROOT, "tools", "fidelity.py"), "--lossless", a.lossless,
                           "--out", a.out, "--report", os.path.join(a.out, "fidelity.md"), "--threads", str(a.jobs),
                           "--results-json", os.path.join(a.out, "results.json")]).returncode


if __name__ == "__main__":
    sys.exit(main())
