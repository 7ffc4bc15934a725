#!/usr/bin/env bash
# The main job: install what is missing, build build/lossless, run the default experiment (every scheme on a
# 64-host leaf-spine with WebSearch + incast), print the comparison table and draw it (slowdown by flow size per
# scheme, out/default/slowdown-by-size.png).
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
LOSSLESS_TARGET=lossless scripts/build.sh build
./build/lossless sweep experiments/default/sweep.yaml -j "$(nproc)"
./build/lossless plot out/default
