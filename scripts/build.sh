#!/usr/bin/env bash
# build.sh [BUILD_DIR] [extra cmake args...]: configures and builds with CMake + Ninja (LOSSLESS_TARGET=NAME: that
# target only).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
# ccache, where a developer has it, makes rebuilds in other checkouts cheap; CI has none and builds from scratch.
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" >/dev/null
# LOSSLESS_TARGET=lossless builds the simulator alone (./run.sh: the tests are not needed for the main job).
cmake --build "$dir" -j "$(nproc)" ${LOSSLESS_TARGET:+--target "$LOSSLESS_TARGET"}
