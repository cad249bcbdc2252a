#!/usr/bin/env bash
# Quick start: install what is missing, configure (cuda backend if a GPU answers, else cpu),
# build, run the merge chapter, and list the exercises. Run from anywhere inside the repository.
#
# How long: the build is most of it, about 200 files; on an idle 2-core machine the whole
# quick start takes 4 to 5 minutes (roughly twice that with other work running). Each step
# prints its number and the time so far; the build counts its files ([n/N]).
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null || (cd "$(dirname "$0")/../.." && pwd))"

started=$SECONDS
step() {
  local elapsed=$((SECONDS - started))
  printf '\n== [%s/4, %dm%02ds] %s\n' "$1" $((elapsed / 60)) $((elapsed % 60)) "$2"
}

step 1 "packages: installing what is missing (common/scripts/install-deps.sh)"
common/scripts/install-deps.sh
step 2 "configure: cmake --preset default (it says which backend, and why)"
cmake --preset default
step 3 "build: cmake --build --preset default (about 200 files; the longest step)"
cmake --build --preset default
step 4 "the merge chapter: every stage verified, timed (emulated on the cpu backend)"
./build/chapters/merge/merge
echo
echo "== the exercises (./wb hint <stage>, ./wb check <stage>, ./wb --help for the rest)"
./wb list
elapsed=$((SECONDS - started))
printf '\nquick start done in %dm%02ds\n' $((elapsed / 60)) $((elapsed % 60))
