#!/usr/bin/env bash
# Address translations per packet-hop (exact and independent of the machine's load, unlike wall times), for
# comparing builds and layouts (docs/performance.md "Fourteenth pass"). cachegrind is run with 4 KiB "lines":
# its first level then models a 96-entry first-level data TLB (6-way) and its second a 2,048-entry second-level
# TLB (16-way), both LRU, for 4 KiB pages. That is the page size that counts in a virtual machine whose host
# maps guest memory with 4 KiB pages, however large the guest's own pages are (`build/memory_latency
# --spread` shows what a miss costs there). A miss in the second level is a page walk. Software prefetches are
# not modelled: a walk is charged to the first load of the page.
#   bench/pages.sh [--ks "8 32"] [--duration D] [--top N] [BINARY...]   (default binary: build/lossless)
# Runs the fat320 benchmark scenarios (0.6 ms of traffic, as bench/instructions.sh) and the fat tree of
# bench/scale.sh at each k (D of arrivals, default 0.06ms; the set-up run's misses, stopped 4 us after the
# first flow starts, are subtracted). Prints per binary and scenario the packet-hops and the misses per hop of
# each level; with --top N, the N functions with the most second-level misses (of the run, set-up included).
set -euo pipefail
cd "$(dirname "$0")/.."
ks="8 32"
duration=0.06ms
top=0
while [[ "${1:-}" == --* ]]; do
  case "$1" in
    --ks) ks=${2?--ks needs a list} ;;
    --duration) duration=${2:?--duration needs a time} ;;
    --top) top=${2:?--top needs a count} ;;
    *) echo "bench/pages.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift 2
done
[[ $top =~ ^[0-9]+$ ]] || { echo "bench/pages.sh: --top needs a count, got '$top'" >&2; exit 2; }
binaries=("$@")
[[ ${#binaries[@]} -gt 0 ]] || binaries=(build/lossless)
command -v valgrind >/dev/null || { echo "bench/pages.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Runs the simulator under the page model; prints "hops first_level_misses second_level_misses".
model() {
  local bin=$1
  shift
  rm -rf "$out/run"
  # Guest huge pages off: cachegrind's own allocator ignores them anyway, and the model is of 4 KiB pages.
  LOSSLESS_HUGE_PAGES=0 valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=393216,6,4096 \
    --LL=8388608,16,4096 --cachegrind-out-file="$out/cg.out" "$bin" run "$@" -o "$out/run" --quiet --threads 1 \
    2>"$out/valgrind.log"
  python3 - "$out/cg.out" "$out/run/summary.json" <<'PY'
import json, sys
events = fields = None
for line in open(sys.argv[1]):
    if line.startswith("events:"):
        fields = line.split()[1:]
    elif line.startswith("summary:"):
        counts = dict(zip(fields, map(int, line.split()[1:])))
hops = json.load(open(sys.argv[2]))["packets"]["hops"]
print(hops, counts["D1mr"] + counts["D1mw"], counts["DLmr"] + counts["DLmw"])
PY
}

printf '%-40s %-22s %12s %18s %18s\n' binary scenario packet_hops "first-level/hop" "second-level/hop"
for bin in "${binaries[@]}"; do
  runs=()
  for name in fat320-ws30-dcqcn fat320-ws30-hpcc; do
    read -r hops l1 l2 < <(model "$bin" "bench/scenarios/$name.yaml" --set stop=2000600us)
    python3 -c 'import sys; h, a, b = map(int, sys.argv[3:]); print(f"{sys.argv[1]:<40} {sys.argv[2]:<22} {h:12d} {a / h:18.3f} {b / h:18.3f}")' \
      "$bin" "$name" "$hops" "$l1" "$l2"
    cp "$out/cg.out" "$out/$name.cg"
    runs+=("$name")
  done
  for k in $ks; do
    common=(bench/scenarios/fattree-k16-ws30.yaml --set "topology.k=$k" --set "workload.0.duration=$duration")
    read -r h0 a0 b0 < <(model "$bin" "${common[@]}" --set stop=4us)
    read -r hops l1 l2 < <(model "$bin" "${common[@]}")
    python3 -c 'import sys; h, a, b, h0, a0, b0 = map(int, sys.argv[3:]); h -= h0
print(f"{sys.argv[1]:<40} {sys.argv[2]:<22} {h:12d} {(a - a0) / h:18.3f} {(b - b0) / h:18.3f}")' \
      "$bin" "fattree-k$k" "$hops" "$l1" "$l2" "$h0" "$a0" "$b0"
    cp "$out/cg.out" "$out/fattree-k$k.cg"
    runs+=("fattree-k$k")
  done
  if [[ $top -gt 0 ]]; then
    for name in "${runs[@]}"; do
      echo "-- $name: functions with the most second-level misses"
      cg_annotate --show=DLmr,DLmw --sort=DLmr --auto=no "$out/$name.cg" 2>/dev/null |
        awk '/file:function/{f=1; next} f && /^-+$/{if (n++) exit; next} f && NF' | head -n "$top" | cut -c1-160
    done
  fi
done
