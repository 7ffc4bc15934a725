#!/usr/bin/env bash
# Compares the wall time of two builds on one scenario by running them one at a time, alternated, on one core
# and one thread: round r runs A then B, the next round B then A (ABBA), so that a drift of the machine over a
# round falls on both builds alike:
#   bench/alternated.sh [--rounds N] [--core C] SCENARIO.yaml [--set KEY=VALUE ...] -- BINARY_A BINARY_B
# Prints each round's wall seconds and B / A, then the median and mean of the rounds' ratios with the mean's
# standard error, and the fastest run of each build with their ratio.
# Why: the speed issue's targets ask for "A/B alternated, same machine, same hour". bench/paired.sh runs the two
# builds at the same moment instead, one per core; that cancels the host's drift better, but the two runs share
# the last-level cache and memory bandwidth, which changes what a run whose working set outgrows the caches
# costs. Here each run has the machine to itself (the other core idles). A ratio of a single round can still
# move by 15 % on a shared virtual machine (docs/performance.md "Twenty-first pass"): take 10 rounds or more.
# Outputs of the two builds are compared (fct.csv): a difference is reported, since a speed comparison of
# builds that disagree means nothing.
set -euo pipefail
rounds=10
core=0
while [[ "${1:-}" == --rounds || "${1:-}" == --core ]]; do
  case "$1" in
    --rounds) rounds=${2:?--rounds needs a count} ;;
    --core) core=${2:?--core needs a core number} ;;
  esac
  shift 2
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "bench/alternated.sh: --rounds needs a positive count, got '$rounds'" >&2; exit 2; }
[[ $core =~ ^[0-9]+$ ]] || { echo "bench/alternated.sh: --core needs a core number, got '$core'" >&2; exit 2; }
source "$(dirname "$0")/ab_lib.sh"
read_ab_args bench/alternated.sh \
  "usage: bench/alternated.sh [--rounds N] [--core C] SCENARIO.yaml [--set KEY=VALUE ...] -- BINARY_A BINARY_B" "$@"
[[ $core -lt $(nproc) ]] || { echo "bench/alternated.sh: no core $core (this machine has $(nproc))" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Runs build $1 into $work/$2 and prints its wall seconds.
timed() {
  rm -rf "${work:?}/$2"
  taskset -c "$core" "$1" run "$scenario" "${args[@]}" -o "$work/$2" --quiet --threads 1
  wall_seconds "$work/$2"
}
times=()
for ((r = 0; r < rounds; r++)); do
  if ((r % 2 == 0)); then
    wa=$(timed "$a" a)
    wb=$(timed "$b" b)
    order="A B"
  else
    wb=$(timed "$b" b)
    wa=$(timed "$a" a)
    order="B A"
  fi
  cmp -s "$work/a/fct.csv" "$work/b/fct.csv" || echo "bench/alternated.sh: round $r: fct.csv differs between the builds" >&2
  times+=("$wa" "$wb")
  printf 'round %2d (%s)  A %.2f s  B %.2f s  B/A %s\n' "$r" "$order" "$wa" "$wb" "$(ab_ratio "$wa" "$wb")"
done
ab_summary --fastest "${times[@]}"
