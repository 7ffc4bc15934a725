#!/usr/bin/env bash
# tests/fuzz/run.sh BUILD_DIR --smoke | --minutes N [TARGET...]
# Runs the libFuzzer targets of a LOSSLESS_FUZZ build (tests/fuzz/README.md) one after the other.
#   --smoke      the test suite's short run (CTest Fuzz.Run): a fixed number of executions per target from a fixed
#                seed on a copy of the committed corpus, so the same inputs are tried every time (~60 s in all).
#   --minutes N  a developer's longer run: N minutes per target, growing tests/fuzz/work/<target> (kept between
#                runs, not committed); crashes land in tests/fuzz/work/crash-<target>-*.
# A finding (crash, sanitizer report, timeout, an input that is read though another check shows it invalid)
# stops the target with a non-zero status; once fixed, copy the input into tests/fuzz/findings/<target>/, where
# Fuzz.Replay.<target> checks it in every build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
mode=$2
shift 2
minutes=0
if [ "$mode" = "--minutes" ]; then
  minutes=$1
  shift
fi
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(scenario hpcc_config hpcc_topology hpcc_flows cdf)
# Executions per target in --smoke (about 12 s each on the project's 2-core machine).
declare -A smoke_runs=([scenario]=1500 [hpcc_config]=1500 [hpcc_topology]=20000 [hpcc_flows]=20000 [cdf]=20000)
# Leaks are not findings here: the readers keep nothing between inputs, and libFuzzer's leak check at exit
# would flag the process's caches.
common=(-timeout=30 -rss_limit_mb=4096 -max_len=8192 -print_final_stats=1 -detect_leaks=0)
# The files each input becomes are written to memory where the machine has it (the targets use $TMPDIR).
if [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
status=0
for t in "${targets[@]}"; do
  bin="$build/fuzz_$t"
  if [ "$mode" = "--smoke" ]; then
    work=$(mktemp -d)
    cp -r "$here/corpus/$t/." "$work/"
    if [ -d "$here/findings/$t" ]; then cp -r "$here/findings/$t/." "$work/"; fi
    echo "== fuzz_$t: ${smoke_runs[$t]} runs, seed 1"
    (cd "$work" && "$bin" "${common[@]}" -seed=1 -runs="${smoke_runs[$t]}" -artifact_prefix="$work/crash-" \
      "$work") || status=1
    if ls "$work"/crash-* > /dev/null 2>&1; then status=1; fi
    rm -rf "$work"
  else
    work="$here/work/$t"
    mkdir -p "$work"
    echo "== fuzz_$t: $minutes min"
    "$bin" "${common[@]}" -max_total_time=$((minutes * 60)) -artifact_prefix="$here/work/crash-$t-" \
      "$work" "$here/corpus/$t" || status=1
  fi
done
exit $status
