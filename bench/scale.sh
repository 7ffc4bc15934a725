#!/usr/bin/env bash
# Cost per packet-hop as the fat tree grows (docs/performance.md "Scaling"): runs
# bench/scenarios/fattree-k16-ws30.yaml at each k with --set topology.k=K --set workload.0.duration=DURATION, and
# a set-up run (the same flows, stopped 2 us after the first starts: building the fabric, routing and flows), and prints hosts, events,
# packet-hops, wall seconds, ns per packet-hop (wall time of the run minus that of the set-up run, per hop),
# set-up seconds and peak RSS.
#   bench/scale.sh [--threads N] [--duration D] [--ks "8 16 24 32"] [BINARY]     (default binary: build/lossless)
set -euo pipefail
cd "$(dirname "$0")/.."
threads=1
duration=0.5ms
ks="8 16 24 32"
while [[ "${1:-}" == --* ]]; do
  case "$1" in
    --threads) threads=${2:?--threads needs a count} ;;
    --duration) duration=${2:?--duration needs a time} ;;
    --ks) ks=${2:?--ks needs a list} ;;
    *) echo "bench/scale.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift 2
done
bin=${1:-build/lossless}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-4s %6s %12s %12s %8s %9s %8s %8s %8s\n' k hosts events packet_hops wall_s ns/hop setup_s run_MB setup_MB
for k in $ks; do
  args=(bench/scenarios/fattree-k16-ws30.yaml --quiet --threads "$threads" --set "topology.k=$k")
  "$bin" run "${args[@]}" --set "workload.0.duration=$duration" --set stop=4us -o "$out/setup"
  "$bin" run "${args[@]}" --set "workload.0.duration=$duration" -o "$out/run"
  python3 - "$out/setup/summary.json" "$out/run/summary.json" "$k" <<'PY'
import json, sys
s0, s = (json.load(open(p)) for p in sys.argv[1:3])
k = int(sys.argv[3])
hops, w, w0 = s["packets"]["hops"], s["wall_seconds"], s0["wall_seconds"]
print(f"{k:<4} {k ** 3 // 4:6d} {s['events']:12d} {hops:12d} {w:8.2f} {(w - w0) * 1e9 / hops:9.1f} {w0:8.2f} "
      f"{s['memory']['peak_rss_kb'] / 1024:8.1f} {s0['memory']['peak_rss_kb'] / 1024:8.1f}")
PY
done
