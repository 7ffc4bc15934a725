# Sourced by bench/paired.sh and bench/alternated.sh: reads their common arguments,
#   SCENARIO.yaml [--set KEY=VALUE ...] -- BINARY_A BINARY_B
# into `scenario`, `args` (the options passed on to `lossless run`), `a` and `b`, and checks that taskset is there.
# $1 is the calling script's name and $2 its usage line, for the messages; a bad call exits 2.
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
