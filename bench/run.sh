#!/usr/bin/env bash
# Benchmark harness: runs the fixed benchmark scenarios with the Release build and prints, per scenario, wall
# seconds, events, events/s, packet-hops, ns per packet-hop, simulated/wall time and peak RSS.
#   bench/run.sh [--repeat N] [--threads N] [SCENARIO_NAME_SUBSTRING]      (builds build/ first)
# --repeat N runs each scenario N times and reports the fastest run (wall times on a shared machine are noisy;
# event and packet-hop counts are exact and identical across runs).
# --threads N runs each scenario on N threads (`lossless run --threads N`; default: the number of CPUs, at
# most 2). Outputs do not depend on it; ns/hop is wall time per packet-hop, whatever the thread count.
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=1
threads=$(( $(nproc) < 2 ? $(nproc) : 2 ))
while [[ "${1:-}" == --* ]]; do
  case "$1" in
    --repeat) repeat=${2:?--repeat needs a count}
      [[ "$repeat" =~ ^[1-9][0-9]*$ ]] || { echo "bench/run.sh: --repeat needs a positive count, got '$repeat'" >&2; exit 2; } ;;
    --threads) threads=${2:?--threads needs a count}
      [[ "$threads" =~ ^[1-9][0-9]*$ ]] || { echo "bench/run.sh: --threads needs a positive count, got '$threads'" >&2; exit 2; } ;;
    *) echo "bench/run.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift 2
done
scripts/install-deps.sh >/dev/null
scripts/build.sh build >/dev/null
filter=${1:-}
out=out/bench
mkdir -p "$out"
echo "threads per run: $threads; core-to-core round trip $(./build/core_to_core) ns before the runs" \
  "(2-thread runs slow down when it is far above ~55 ns: see docs/performance.md)"
printf '%-22s %8s %12s %10s %12s %9s %10s %9s %7s\n' scenario wall_s events Mevents/s packet_hops ns/hop sim/wall peak_MB flows
for f in bench/scenarios/*.yaml; do
  name=$(basename "$f" .yaml)
  [[ -n "$filter" && "$name" != *"$filter"* ]] && continue
  walls=()
  for ((i = 0; i < repeat; i++)); do
    ./build/lossless run "$f" -o "$out/$name" --quiet --threads "$threads"
    walls+=("$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["wall_seconds"])' "$out/$name/summary.json")")
  done
  python3 - "$out/$name/summary.json" "$name" "${walls[@]}" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
w, ev, hops = min(float(x) for x in sys.argv[3:]), s["events"], s["packets"]["hops"]
sim_s = s["sim_time_ns"] * 1e-9
# HPCC flow files start at t = 2 s: count simulated time from the first flow start.
active = s["sim_time_ns"] - s.get("first_start_ns", 0)
print(f"{sys.argv[2]:<22} {w:8.2f} {ev:12d} {ev / w / 1e6:10.2f} {hops:12d} {w * 1e9 / hops:9.1f} "
      f"{active * 1e-9 / w:10.2e} {s['memory']['peak_rss_kb'] / 1024:9.1f} {s['flows']['completed']:>3}/{s['flows']['total']}")
PY
done
echo "core-to-core round trip after the runs: $(./build/core_to_core) ns"
