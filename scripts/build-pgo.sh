#!/usr/bin/env bash
# build-pgo.sh [BUILD_DIR]: builds the simulator with gcc's profile-guided optimisation (default directory
# build-pgo). Opt-in: scripts/build.sh stays the build of record (README, run.sh, test.sh, bench/).
#
# Three steps in one directory (gcc names a translation unit's profile after its object's path, so the
# instrumented and the optimised objects must live at the same place):
#   1. an instrumented build (-fprofile-generate);
#   2. training runs: every case of the default sweep (experiments/default/sweep.yaml) at a small size, and the
#      four bench scenarios briefly, so that every scheme's code is profiled, not only the benchmarks';
#   3. the optimised build (-fprofile-use -fprofile-partial-training: code no training run reached is
#      optimised as without a profile, not as cold).
# The profile changes only where gcc lays out and inlines code: outputs are byte-identical to build/lossless
# (tools/identity.py). Measured (docs/performance.md "Eleventh pass"): HPCC fat320 and fattree k = 24 -3 to
# -5 % wall, DCQCN fat320 and Homa unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-pgo}
# The profile flags stay in the directory's CMake cache: a directory scripts/build.sh configured (build/) would
# keep them for its next normal build.
if [[ -f "$dir/CMakeCache.txt" && ! -d "$dir/pgo-profile" ]]; then
  echo "build-pgo: $dir is a normal build directory; give the profile-guided build a directory of its own" >&2
  exit 2
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
profile="$dir/pgo-profile"
rm -rf "$profile"
mkdir -p "$profile"

echo "build-pgo: 1/3 instrumented build in $dir" >&2
LOSSLESS_TARGET=lossless scripts/build.sh "$dir" \
  -DCMAKE_CXX_FLAGS="-fprofile-generate -fprofile-update=single -fprofile-dir=$profile" \
  -DCMAKE_EXE_LINKER_FLAGS="-fprofile-generate"

echo "build-pgo: 2/3 training runs" >&2
runs=$(mktemp -d)
trap 'rm -rf "$runs"' EXIT
bin="$dir/lossless"
# Every case of the default sweep, at a small size (`lossless sweep` applies the --set to each case).
"$bin" sweep experiments/default/sweep.yaml --set switch.buffer=2MB --set workload.0.duration=2ms \
  --set workload.1.count=19 -j 1 --quiet -o "$runs/sweep" >/dev/null
"$bin" run bench/scenarios/fat320-ws30-dcqcn.yaml --set stop=2001ms --quiet --threads 1 -o "$runs/b1" >/dev/null
"$bin" run bench/scenarios/fat320-ws30-hpcc.yaml --set stop=2001ms --quiet --threads 1 -o "$runs/b2" >/dev/null
"$bin" run bench/scenarios/fattree-k16-ws30.yaml --set workload.0.duration=0.1ms --quiet --threads 1 \
  -o "$runs/b3" >/dev/null
"$bin" run bench/scenarios/incast64-star100g.yaml --quiet --threads 1 -o "$runs/b4" >/dev/null

echo "build-pgo: 3/3 optimised build" >&2
LOSSLESS_TARGET=lossless scripts/build.sh "$dir" \
  -DCMAKE_CXX_FLAGS="-fprofile-use -fprofile-partial-training -fprofile-dir=$profile -Wno-missing-profile" \
  -DCMAKE_EXE_LINKER_FLAGS=""
echo "build-pgo: $bin" >&2
