#!/usr/bin/env bash
# Installs the Debian 12 packages lossless needs (skipped when already present): to build, to draw figures
# (python3-matplotlib, for Debian's /usr/bin/python3), and with --test also what only the test suite uses:
# Open MPI (mpirun and libopenmpi-dev: the MPI sweep test, and one fabric over MPI ranks, which a build links
# only when it finds MPI), Chromium and Firefox ESR (the headless-browser checks of the reports and of
# `lossless view`'s page) and clang with its runtime
# libraries (libFuzzer and the sanitizers of the fuzz build, tests/fuzz).
set -euo pipefail
pkgs=(cmake ninja-build g++ libyaml-cpp-dev libgtest-dev clang-format python3 python3-matplotlib)
if [ "${1:-}" = "--test" ]; then
  pkgs+=(openmpi-bin libopenmpi-dev chromium firefox-esr clang-14 libclang-rt-14-dev)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
