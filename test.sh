#!/usr/bin/env bash
# The test suite: install what is missing, build, run every test; then again under AddressSanitizer +
# UndefinedBehaviorSanitizer; then a short fixed-seed run of every libFuzzer target (tests/fuzz, clang build).
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh --test
scripts/build.sh build
(cd build && ctest --output-on-failure -j "$(nproc)")
scripts/build.sh build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOSSLESS_SANITIZE=ON
(cd build-asan && ctest --output-on-failure -j "$(nproc)")
scripts/build.sh build-fuzz -DCMAKE_CXX_COMPILER=clang++-14 -DLOSSLESS_FUZZ=ON -DLOSSLESS_TESTS=OFF
(cd build-fuzz && ctest --output-on-failure)
