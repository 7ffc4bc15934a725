"""Per-flow shares of a bottleneck over windows, from an ns-2 queue trace (dumbbell.tcl).

python3 fairness.py outputs/trace.out FROM_S TO_S N
For windows of 0.1 .. 5 ms in (FROM_S, TO_S]: the bytes of data packets each flow (fid 0..N-1) delivered over
the traced link, as a fraction of the window's mean over the flows minus 1; prints their standard deviation
over all windows and flows and the largest single deviation.
"""
import collections
import statistics
import sys

path, t0, t1, n = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
rows = []
with open(path) as f:
    for line in f:
        p = line.split()
        if p[0] != "r" or int(p[5]) < 1000:  # received at the far end; data packets only
            continue
        t = float(p[1])
        if t0 < t <= t1:
            rows.append((t, int(p[7]), int(p[5])))
for window in (1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3):
    count = int(round((t1 - t0) / window))
    acc = [collections.Counter() for _ in range(count)]
    for t, fid, size in rows:
        acc[min(int((t - t0) / window), count - 1)][fid] += size
    devs = []
    for a in acc:
        fair = sum(a[i] for i in range(n)) / n
        devs += [a[i] / fair - 1 for i in range(n)]
    total = sum(size for _, _, size in rows) * 8 / (t1 - t0) / 1e9
    print(f"window {window * 1e6:5.0f} us: std {statistics.pstdev(devs):.3f} "
          f"worst {max(abs(d) for d in devs):.3f} ({count} windows), {total:.2f} Gb/s in all")
