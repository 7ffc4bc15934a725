#!/usr/bin/env bash
# Instruction counts (exact, unlike wall times on a shared machine) of the fat320 benchmark scenarios on a short
# run under cachegrind, for comparing two builds:
#   bench/instructions.sh [--threads N] [--stop TIME] [BINARY...]     (default binary: build/lossless)
# Prints, per binary and scenario, the instructions executed (Ir) and the events run. 0.6 ms of traffic
# (stop 2000.6ms: the HPCC flow file starts at 2 s) takes ~10-20 s per run under valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
threads=1
stop=2000600us
while [[ "${1:-}" == --* ]]; do
  case "$1" in
    --threads) threads=${2:?--threads needs a count} ;;
    --stop) stop=${2:?--stop needs a time} ;;
    *) echo "bench/instructions.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift 2
done
binaries=("$@")
[[ ${#binaries[@]} -gt 0 ]] || binaries=(build/lossless)
command -v valgrind >/dev/null || { echo "bench/instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-40s %-22s %16s %12s\n' binary scenario instructions events
for bin in "${binaries[@]}"; do
  for name in fat320-ws30-dcqcn fat320-ws30-hpcc; do
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out/cg.out" \
      "$bin" run "bench/scenarios/$name.yaml" -o "$out/run" --quiet --threads "$threads" --set "stop=$stop" \
      2>"$out/valgrind.log"
    ir=$(grep -E '^summary:' "$out/cg.out" | awk '{print $2}')
    events=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["events"])' "$out/run/summary.json")
    printf '%-40s %-22s %16s %12s\n' "$bin" "$name" "$ir" "$events"
  done
done
