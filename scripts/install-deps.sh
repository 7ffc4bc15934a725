#!/usr/bin/env bash
# Installs the Debian 12 packages lossless needs to build and test (skipped when already present).
set -euo pipefail
pkgs=(cmake ninja-build g++ libyaml-cpp-dev libgtest-dev clang-format python3)
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
