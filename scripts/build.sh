#!/usr/bin/env bash
# build.sh [BUILD_DIR] [extra cmake args...]: configures and builds with CMake + Ninja.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
# ccache, where a developer has it, makes rebuilds in other checkouts cheap; CI has none and builds from scratch.
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" >/dev/null
cmake --build "$dir" -j "$(nproc)"
