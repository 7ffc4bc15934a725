#!/usr/bin/env bash
# Compares the wall time of two builds on one scenario by running them at the same time, one per core, and
# swapping the cores every round:
#   bench/paired.sh [--rounds N] SCENARIO.yaml [--set KEY=VALUE ...] -- BINARY_A BINARY_B
# Prints each round's wall seconds and B / A, then the median and mean ratio with its standard error.
# Why: on a shared virtual machine one run's wall time can move by 15 % from one minute to the next (the
# host's other tenants), which swamps a difference of a few percent between builds run one after the other;
# two runs at the same moment see the same machine. They also share the last-level cache and memory
# bandwidth, so the absolute times are not those of a run alone: use the ratio, and bench/run.sh or
# bench/scale.sh for the times. Needs two cores (taskset, util-linux). Outputs of the two runs are compared
# (fct.csv): a difference is reported, since a speed comparison of builds that disagree means nothing.
set -euo pipefail
rounds=10
if [[ "${1:-}" == --rounds ]]; then
  rounds=${2:?--rounds needs a count}
  shift 2
fi
source "$(dirname "$0")/ab_lib.sh"
read_ab_args bench/paired.sh \
  "usage: bench/paired.sh [--rounds N] SCENARIO.yaml [--set KEY=VALUE ...] -- BINARY_A BINARY_B" "$@"
[[ $(nproc) -ge 2 ]] || { echo "bench/paired.sh: needs two cores" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
times=()
for ((r = 0; r < rounds; r++)); do
  ca=$((r % 2))
  cb=$((1 - ca))
  rm -rf "$work/a" "$work/b"
  taskset -c "$ca" "$a" run "$scenario" "${args[@]}" -o "$work/a" --quiet --threads 1 &
  pa=$!
  taskset -c "$cb" "$b" run "$scenario" "${args[@]}" -o "$work/b" --quiet --threads 1 &
  pb=$!
  wait "$pa"
  wait "$pb"
  cmp -s "$work/a/fct.csv" "$work/b/fct.csv" || echo "bench/paired.sh: round $r: fct.csv differs between the builds" >&2
  wa=$(wall_seconds "$work/a")
  wb=$(wall_seconds "$work/b")
  times+=("$wa" "$wb")
  printf 'round %2d  A %.2f s (core %d)  B %.2f s (core %d)  B/A %s\n' "$r" "$wa" "$ca" "$wb" "$cb" "$(ab_ratio "$wa" "$wb")"
done
ab_summary "${times[@]}"
