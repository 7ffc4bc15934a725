#!/usr/bin/env bash
# Cost per packet-hop as the fat tree grows (docs/performance.md "Scaling"): runs
# bench/scenarios/fattree-k16-ws30.yaml at each k with --set topology.k=K --set workload.0.duration=DURATION, and
# a set-up run (the same flows, stopped at 4 us: building the fabric, routing and flows), and prints hosts, events,
# packet-hops, wall seconds, ns per packet-hop (wall time of the run minus that of the set-up run, per packet-hop
# of the run beyond the set-up run's),
# set-up seconds and peak RSS. With --compare-threads N, each k is run again on N threads and the outputs
# compared with the first run's (fct.csv byte for byte, summary.json without wall time, memory and thread count):
# the last columns give that run's wall seconds, the speed-up and "identical" or "DIFFER". With --repeat N, the
# set-up run and the run are each repeated N times and the fastest of each is used (on a shared machine the wall
# time of one run can vary by a third from one minute to the next; the fastest is the least disturbed). With
# --senders N, only N hosts send (every (hosts / N)-th host, so that the traffic crosses the whole fabric), each at
# the same load: the traffic, and with it the packets in flight, is then the same at every k, and what is left of
# the growth with k is the fabric's own (its ports, buffers and routes; docs/performance.md "Twenty-first pass").
# The set-up run then stops at 100 us, since the first of fewer senders' flows can start after 4 us.
#   bench/scale.sh [--threads N] [--duration D] [--ks "8 16 24 32"] [--compare-threads N] [--repeat N]
#                  [--senders N] [BINARY]
#   (default binary: build/lossless)
set -euo pipefail
cd "$(dirname "$0")/.."
threads=1
duration=0.5ms
ks="8 16 24 32"
compare=0
repeat=1
senders=0
while [[ "${1:-}" == --* ]]; do
  case "$1" in
    --threads) threads=${2:?--threads needs a count} ;;
    --duration) duration=${2:?--duration needs a time} ;;
    --ks) ks=${2:?--ks needs a list} ;;
    --compare-threads) compare=${2:?--compare-threads needs a count} ;;
    --repeat) repeat=${2:?--repeat needs a count} ;;
    --senders) senders=${2:?--senders needs a count} ;;
    *) echo "bench/scale.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift 2
done
[[ $repeat =~ ^[1-9][0-9]*$ ]] || { echo "bench/scale.sh: --repeat needs a positive count, got '$repeat'" >&2; exit 2; }
[[ $senders =~ ^[0-9]+$ ]] || { echo "bench/scale.sh: --senders needs a count, got '$senders'" >&2; exit 2; }
bin=${1:-build/lossless}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
header=(k hosts events packet_hops wall_s ns/hop setup_s run_MB setup_MB)
[[ $compare -gt 0 ]] && header+=("wall_s_$compare" speedup "${compare}_vs_$threads")
printf '%-4s %6s %12s %12s %8s %9s %8s %8s %8s' "${header[@]:0:9}"
[[ $compare -gt 0 ]] && printf ' %8s %8s %12s' "${header[@]:9}"
printf '\n'
# The fastest of `repeat` runs into $1 (the runs' outputs are identical; only wall time differs).
fastest() {
  local dest=$1
  shift
  rm -rf "$dest"
  for _ in $(seq "$repeat"); do
    rm -rf "$out/try"
    "$bin" run "$@" -o "$out/try"
    if [[ ! -d "$dest" ]] || python3 -c 'import json, sys
w = [json.load(open(p + "/summary.json"))["wall_seconds"] for p in sys.argv[1:]]
sys.exit(0 if w[0] < w[1] else 1)' "$out/try" "$dest"; then
      rm -rf "$dest"
      mv "$out/try" "$dest"
    fi
  done
}
for k in $ks; do
  common=(bench/scenarios/fattree-k16-ws30.yaml --quiet --set "topology.k=$k")
  setup_stop=4us
  if [[ $senders -gt 0 ]]; then
    hosts=$((k * k * k / 4))
    [[ $senders -ge 2 && $senders -le $hosts ]] ||
      { echo "bench/scale.sh: --senders $senders: k = $k has $hosts hosts (and a sender needs another host)" >&2; exit 2; }
    setup_stop=100us
    common+=(--set "workload.0.hosts=[$(seq -s, 0 $((hosts / senders)) $((hosts / senders * (senders - 1))))]")
  fi
  args=("${common[@]}" --threads "$threads")
  fastest "$out/setup" "${args[@]}" --set "workload.0.duration=$duration" --set "stop=$setup_stop"
  fastest "$out/run" "${args[@]}" --set "workload.0.duration=$duration"
  rm -rf "$out/cmp"
  if [[ $compare -gt 0 ]]; then
    "$bin" run "${common[@]}" --threads "$compare" --set "workload.0.duration=$duration" -o "$out/cmp"
  fi
  python3 - "$out/setup/summary.json" "$out/run/summary.json" "$k" "$out/cmp" <<'PY'
import json, os, sys
s0, s = (json.load(open(p)) for p in sys.argv[1:3])
k = int(sys.argv[3])
hops, w, w0 = s["packets"]["hops"], s["wall_seconds"], s0["wall_seconds"]
hops0 = s0["packets"]["hops"]
per_hop = (w - w0) * 1e9 / (hops - hops0) if hops > hops0 else float("nan")
line = (f"{k:<4} {k ** 3 // 4:6d} {s['events']:12d} {hops:12d} {w:8.2f} {per_hop:9.1f} {w0:8.2f} "
        f"{s['memory']['peak_rss_kb'] / 1024:8.1f} {s0['memory']['peak_rss_kb'] / 1024:8.1f}")
cmp = sys.argv[4]
if os.path.isdir(cmp):
    run = os.path.dirname(sys.argv[2])
    def summary(d):
        x = json.load(open(os.path.join(d, "summary.json")))
        for key in ("wall_seconds", "memory", "threads", "run_id", "outputs"):
            x.pop(key, None)
        return x
    same = (open(os.path.join(run, "fct.csv"), "rb").read() == open(os.path.join(cmp, "fct.csv"), "rb").read()
            and summary(run) == summary(cmp))
    w2 = json.load(open(os.path.join(cmp, "summary.json")))["wall_seconds"]
    line += f" {w2:8.2f} {w / w2:8.2f} {'identical' if same else 'DIFFER':>12}"
print(line)
PY
done
