#!/usr/bin/env bash
# Quick start: install what is missing, configure (cuda backend if a GPU answers, else cpu),
# build, run the merge chapter, and list the exercises. Run from anywhere inside the repository.
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null || (cd "$(dirname "$0")/../.." && pwd))"

common/scripts/install-deps.sh
cmake --preset default
cmake --build --preset default
echo
echo "== merge chapter =="
./build/chapters/merge/merge
echo
echo "== the exercises (build/wb hint <stage> and build/wb check <stage> from here) =="
./build/wb list
