# Sourced by bench/paired.sh and bench/alternated.sh, which compare the wall time of two builds round by round.
# read_ab_args NAME USAGE ARGS...: reads their common arguments,
#   SCENARIO.yaml [--set KEY=VALUE ...] -- BINARY_A BINARY_B
# into `scenario`, `args` (the options passed on to `lossless run`), `a` and `b`, and checks that taskset is there;
# NAME (the calling script) and USAGE are for the messages; a bad call exits 2.
read_ab_args() {
  local name=$1 usage=$2
  shift 2
  [[ $# -gt 0 ]] || { echo "$usage" >&2; exit 2; }
  scenario=$1
  shift
  args=()
  while [[ $# -gt 0 && "$1" != "--" ]]; do
    args+=("$1")
    shift
  done
  [[ "${1:-}" == "--" ]] || { echo "$name: expected '--' before the two binaries" >&2; exit 2; }
  shift
  [[ $# -eq 2 ]] || { echo "$name: expected two binaries after '--'" >&2; exit 2; }
  a=$1
  b=$2
  command -v taskset >/dev/null || { echo "$name: needs taskset (apt-get install util-linux)" >&2; exit 2; }
}

# The wall seconds of the run whose output folder is $1.
wall_seconds() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['wall_seconds'])" "$1/summary.json"; }

# B / A of the wall times $1 (A) and $2 (B), to three decimals.
ab_ratio() { python3 -c "import sys; print('%.3f' % (float(sys.argv[2]) / float(sys.argv[1])))" "$1" "$2"; }

# The summary of the rounds, from their wall times A1 B1 A2 B2 ...: median and mean (with its standard error) of
# the rounds' B / A, each taken to three decimals as the rounds print it; with `--fastest` first, also the fastest
# run of each build and their ratio.
ab_summary() {
  python3 - "$@" <<'PY'
import statistics, sys
args = sys.argv[1:]
fastest = args[:1] == ["--fastest"]
t = [float(x) for x in (args[1:] if fastest else args)]
a, b = t[0::2], t[1::2]
r = [float("%.3f" % (y / x)) for x, y in zip(a, b)]
se = statistics.stdev(r) / len(r) ** 0.5 if len(r) > 1 else float("nan")
line = f"B/A over {len(r)} rounds: median {statistics.median(r):.3f}, mean {statistics.mean(r):.3f} +- {se:.3f} (standard error)"
if fastest:
    line += f"; fastest A {min(a):.2f} s, fastest B {min(b):.2f} s, ratio {min(b) / min(a):.3f}"
print(line)
PY
}
