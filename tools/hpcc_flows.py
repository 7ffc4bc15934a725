#!/usr/bin/env python3
"""Writes a flow file in the HPCC simulator's format (first line: number of flows; then one line per flow,
`src dst pg dport size start_seconds`, in start-time order, as that simulator requires).

Background traffic as the HPCC repository's traffic_gen.py makes it: per host Poisson arrivals at `load` of the
host link, a uniform random destination other than the source, sizes drawn from a CDF of data/cdf/ by linear
interpolation (rounded down to whole bytes, at least 1), integer-nanosecond start times from t = 2 s. Optionally
incast events on top: Poisson event arrivals at `incast_load` of the total host capacity, each event a random
receiver and `incast_senders` distinct random senders, each sending `incast_size` bytes at the event's time.
Standard library only; the output depends only on the arguments (seeded random.Random).

usage: tools/hpcc_flows.py --cdf data/cdf/FB_Hadoop.txt --hosts 320 --load 0.3 --duration-ms 10 --seed 19 -o F
       [--incast-load 0.02 --incast-senders 60 --incast-size 500000] [--bandwidth 100e9]
"""
import argparse
import heapq
import math
import random
import sys

BASE_NS = 2_000_000_000


def read_cdf(path):
    pts = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        x, y = line.split()[:2]
        pts.append((float(x), float(y)))
    if pts[0][1] != 0 or abs(pts[-1][1] - 1) > 1e-12:
        sys.exit(f"{path}: cdf must start at 0 and end at 1")
    return pts


def cdf_mean(pts):
    # Linear interpolation: the mean of each segment is its midpoint.
    return sum((x0 + x1) / 2 * (y1 - y0) for (x0, y0), (x1, y1) in zip(pts, pts[1:]))


def cdf_sample(pts, rng):
    u = rng.random()
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        if u <= y1 and y1 > y0:
            return x0 + (u - y0) / (y1 - y0) * (x1 - x0)
    return pts[-1][0]


def exp_ns(rng, mean_ns):
    return int(-math.log(1 - rng.random()) * mean_ns)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cdf", required=True)
    ap.add_argument("--hosts", type=int, required=True, help="hosts 0..N-1 (the topology's host ids)")
    ap.add_argument("--load", type=float, required=True, help="background load per host link (0..1)")
    ap.add_argument("--bandwidth", type=float, default=100e9, help="host link rate, bits/s")
    ap.add_argument("--duration-ms", type=float, default=10.0)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--incast-load", type=float, default=0.0, help="incast load, fraction of total host capacity")
    ap.add_argument("--incast-senders", type=int, default=60)
    ap.add_argument("--incast-size", type=int, default=500_000)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()

    rng = random.Random(a.seed)
    pts = read_cdf(a.cdf)
    end_ns = BASE_NS + int(a.duration_ms * 1e6)
    flows = []  # (start_ns, order, src, dst, size)

    if a.load > 0:
        gap = cdf_mean(pts) * 8 / (a.bandwidth * a.load) * 1e9
        heap = [(BASE_NS + exp_ns(rng, gap), h) for h in range(a.hosts)]
        heapq.heapify(heap)
        while heap:
            t, src = heap[0]
            nxt = t + exp_ns(rng, gap)
            dst = rng.randrange(a.hosts - 1)
            if dst >= src:
                dst += 1
            size = max(1, int(cdf_sample(pts, rng)))
            flows.append((t, len(flows), src, dst, size))
            if nxt > end_ns:
                heapq.heappop(heap)
            else:
                heapq.heapreplace(heap, (nxt, src))

    if a.incast_load > 0:
        irng = random.Random(a.seed * 1_000_003 + 7)
        gap = a.incast_senders * a.incast_size * 8 / (a.incast_load * a.hosts * a.bandwidth) * 1e9
        t = BASE_NS + exp_ns(irng, gap)
        while t <= end_ns:
            recv = irng.randrange(a.hosts)
            senders = irng.sample([h for h in range(a.hosts) if h != recv], a.incast_senders)
            for s in senders:
                flows.append((t, len(flows), s, recv, a.incast_size))
            t += exp_ns(irng, gap)

    flows.sort()
    with open(a.output, "w") as f:
        f.write(f"{len(flows)}\n")
        for t, _, src, dst, size in flows:
            f.write(f"{src} {dst} 3 100 {size} {t // 1_000_000_000}.{t % 1_000_000_000:09d}\n")
    print(f"{a.output}: {len(flows)} flows", file=sys.stderr)


if __name__ == "__main__":
    main()
