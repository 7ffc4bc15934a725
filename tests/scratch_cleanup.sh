#!/usr/bin/env bash
# tests/scratch_cleanup.sh SCENARIO_TESTS: a test program removes its scratch folder ($TMPDIR/lossless-test-<pid>)
# when its tests pass, and keeps it, named on stderr, when one fails (tests/test_util.cc ScratchCleanup). Before
# that, every test process left its folder behind: thousands per suite run.
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
logs=$(mktemp -d)
trap 'rm -rf "$tmp" "$logs"' EXIT

TMPDIR=$tmp "$bin" --gtest_filter='ScratchFolder.*' >"$logs/out" 2>"$logs/err" || {
  echo "FAIL: the ScratchFolder tests failed"; cat "$logs/out" "$logs/err"; exit 1; }
left=$(find "$tmp" -mindepth 1 -maxdepth 1 -name 'lossless-test-*')
[ -z "$left" ] || { echo "FAIL: passing tests left their scratch folder behind: $left"; exit 1; }

if TMPDIR=$tmp LOSSLESS_TEST_FAIL_ON_PURPOSE=1 "$bin" --gtest_filter='ScratchFolder.*' >"$logs/out" 2>"$logs/err"; then
  echo "FAIL: ScratchFolder.FailsOnlyWhenAskedTo passed when asked to fail"; exit 1
fi
kept=$(find "$tmp" -mindepth 1 -maxdepth 1 -name 'lossless-test-*')
[ -n "$kept" ] && [ -d "$kept/asked_to_fail" ] || { echo "FAIL: a failed run's scratch folder was not kept"; exit 1; }
grep -qF "scratch folder is kept: $kept" "$logs/err" || {
  echo "FAIL: stderr does not name the kept folder $kept"; cat "$logs/err"; exit 1; }
echo "ok: removed after a pass; kept and named after a failure ($kept)"
