#!/usr/bin/env bash
# One command for a GPU machine: build the sort chapter (cuda backend, with the scan chapter
# it scans its counts with), run its checks on the GPU, run compute-sanitizer (memcheck,
# racecheck, synccheck, initcheck) over the fixed stages' checks, run the benchmarks; logs go
# to gpu-work/, results to $OUT (default gpu-out/): summary.txt (last lines: the tables),
# logs.tar.gz (every log, CSV and JSON), sort.svg, uint32_2p28.csv, pairs_2p26.csv,
# bits_sweep.csv.
#
#   OUT=/some/dir chapters/sort/gpu_check.sh [--deps DIR] [--quick]
#
#   --deps DIR  folder whose include/ holds doctest/, CLI/ and fmt/ (default: .carry if present)
#   --quick     tests and the default benchmark only (no sanitizers, no sweep)
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
out=${OUT:-$root/gpu-out}
deps=""
[ -d "$root/.carry/include" ] && deps="$root/.carry"
quick=0
while [ $# -gt 0 ]; do
  case "$1" in
    --deps) deps=$(cd "$2" && pwd); shift 2 ;;
    --quick) quick=1; shift ;;
    *) echo "gpu_check: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
work="$root/gpu-work"
rm -rf "$work"
mkdir -p "$out" "$work/logs"
build="$root/build-gpu"
summary="$out/summary.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
stamp() { echo "== [$(date +%H:%M:%S)] $*"; }

note "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>/dev/null)"
note "nvcc: $(nvcc --version | tail -1); cmake: $(cmake --version | head -1)"
note "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' (uncommitted changes)')"

stamp build
args=(-S "$root" -B "$build" -G Ninja -DWB_BACKEND=cuda -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90
      "-DWB_CHAPTER_LIST=scan;sort")
[ -n "$deps" ] && args+=(-DWB_DEPS_DIR="$deps")
if ! { cmake "${args[@]}" && cmake --build "$build" -j "$(nproc)" --target sort sort_tests; } \
    >"$work/logs/build.log" 2>&1; then
  tail -30 "$work/logs/build.log"
  note "build: FAILED"
  tar -czf "$out/logs.tar.gz" -C "$work" logs
  exit 1
fi
note "build: ok"
dir="$build/chapters/sort"

stamp tests
"$dir/sort_tests" >"$work/logs/tests.log" 2>&1
note "tests: $(tail -1 "$work/logs/tests.log")"
grep -E "ERROR|skipped" "$work/logs/tests.log" | head -20
(cd "$build" && ctest -L sort -LE "selfcheck|exercises" -E "sort_tests" >"$work/logs/cli_tests.log" 2>&1)
note "command-line tests: $(grep -E 'tests passed' "$work/logs/cli_tests.log")"

stamp benchmarks
if [ $quick -eq 0 ]; then
  chapters/sort/benchmarks.sh "$dir/sort" "$work/bench" >"$work/logs/bench.log" 2>&1
  note "benchmarks: rc $?"
  cp "$work/bench/sort.svg" "$work/bench/uint32_2p28.csv" "$work/bench/pairs_2p26.csv" "$work/bench/bits/bits_sweep.csv" "$out/" 2>/dev/null
else
  "$dir/sort" >"$work/logs/bench.log" 2>&1
  note "benchmark: rc $?"
fi

if [ $quick -eq 0 ]; then
  # The fixed stages under every tool ([large] and the defect tests left out).
  for spec in memcheck:300 racecheck:400 synccheck:300 initcheck:300; do
    tool=${spec%%:*}
    limit=${spec##*:}
    stamp "$tool: the fixed stages"
    extra=()
    [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
    timeout "$limit" compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 \
      "$dir/sort_tests" --test-case-exclude='*[large]*,SO1*,SO2*,SO3*' >"$work/logs/${tool}_fixed.log" 2>&1
    rc=$?
    note "$tool, fixed stages (rc $rc$([ $rc -eq 124 ] && echo ', timed out')): $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$work/logs/${tool}_fixed.log" | tail -1) $(tail -1 "$work/logs/${tool}_fixed.log" | grep -E 'passed')"
  done
fi

tar -czf "$out/logs.tar.gz" -C "$work" logs $( [ -d "$work/bench" ] && echo bench )
stamp summary
{
  echo
  for title in "268435456 uint32 keys (" "67108864 uint32 keys with" "268435456 int32" "268435456 float" "134217728 int64"; do
    grep -F -A16 "sort: $title" "$work/logs/bench.log" | grep -E "^(sort:|copy|[0-9] |cub)"
    echo
  done
  grep -E "^6 merge against" "$work/logs/bench.log"
  echo "stage 3 and 4 by digit width (uint32, 2^28):"
  cat "$work/bench/bits/bits_sweep.csv" 2>/dev/null
} | tee -a "$summary"
