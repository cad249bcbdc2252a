#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages the workbook builds with, if any is missing:
# cmake, ninja, g++, doctest, CLI11, fmt, Boost.Context, and rsvg-convert (librsvg2-bin: the
# tests render the SVG pictures with it). Uses sudo when not root.
# The CUDA toolkit is not installed here (see README: Prerequisites); without it the
# workbook builds the cpu backend.
set -euo pipefail

packages=(cmake ninja-build g++ doctest-dev libcli11-dev libfmt-dev libboost-context-dev librsvg2-bin)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present (${packages[*]})"
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "install-deps: missing ${missing[*]}, and this is not a Debian/Ubuntu machine: install them by hand" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then sudo="sudo"; else
    echo "install-deps: missing ${missing[*]}; run as root or install sudo" >&2
    exit 1
  fi
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
