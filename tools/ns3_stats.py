#!/usr/bin/env python3
"""Slowdown statistics of an HPCC ns-3 simulator run, in the format of experiments/*/ns3_*_stats.json.

usage: tools/ns3_stats.py FCT_FILE [FLOW_FILE PFC_FILE [RUN_LOG]] > stats.json
FCT_FILE: the simulator's FCT_OUTPUT_FILE (`sip dip sport dport size start_ns fct_ns standalone_fct_ns`, plain or
gzip). Slowdown = max(1, fct / standalone fct); percentile = sorted value at index round(p/100 (n-1)); bins
[0,10K) [10K,100K) [100K,1M) [1M,10M) [10M,inf) bytes. With the flow and PFC files also: flows_total (the flow
file's first line) and pause_frames (PAUSE events in the PFC_OUTPUT_FILE, type 1); with the simulator's standard
output also drops (its switches' "Drop:" lines: packets refused at a full PFC headroom). Standard library only.
"""
import gzip
import json
import sys

EDGES = [0, 10000, 100000, 1000000, 10000000, 4611686018427387904]


def opn(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def pct(v, p):
    return v[int(round(p / 100 * (len(v) - 1)))] if v else 0


def stats(v):
    v = sorted(v)
    return dict(count=len(v), mean=sum(v) / len(v) if v else 0, p50=pct(v, 50), p95=pct(v, 95), p99=pct(v, 99))


def main():
    rows = []
    for line in opn(sys.argv[1]):
        f = line.split()
        rows.append((int(f[4]), max(1.0, int(f[6]) / int(f[7]))))
    out = stats([s for _, s in rows])
    out["bins"] = []
    for lo, hi in zip(EDGES, EDGES[1:]):
        b = dict(min_bytes=lo, max_bytes=hi)
        b.update(stats([s for z, s in rows if lo <= z < hi]))
        out["bins"].append(b)
    if len(sys.argv) > 3:
        out["flows_total"] = int(opn(sys.argv[2]).readline().split()[0])
        out["pause_frames"] = sum(1 for line in opn(sys.argv[3]) if line.split() and line.split()[-1] == "1")
    if len(sys.argv) > 4:
        out["drops"] = sum(1 for line in opn(sys.argv[4]) if " Drop: " in line)
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
