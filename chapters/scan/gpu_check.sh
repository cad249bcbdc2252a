#!/usr/bin/env bash
# One command for a GPU machine: build the scan chapter (cuda backend), run its checks on the
# GPU, run compute-sanitizer (memcheck, racecheck, synccheck, initcheck) over the fixed
# stages' checks, run the benchmarks; logs go to gpu-work/, results to $OUT (default gpu-out/):
# summary.txt (last lines: the tables), logs.tar.gz (every log, CSV and JSON), scan.svg,
# int32_2p28.csv, size_sweep.csv.
#
#   OUT=/some/dir chapters/scan/gpu_check.sh [--deps DIR] [--quick]
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
      -DWB_CHAPTER_LIST=scan)
[ -n "$deps" ] && args+=(-DWB_DEPS_DIR="$deps")
if ! { cmake "${args[@]}" && cmake --build "$build" -j "$(nproc)" --target scan scan_tests; } \
    >"$work/logs/build.log" 2>&1; then
  tail -30 "$work/logs/build.log"
  note "build: FAILED"
  tar -czf "$out/logs.tar.gz" -C "$work" logs
  exit 1
fi
note "build: ok"
dir="$build/chapters/scan"

stamp tests
"$dir/scan_tests" >"$work/logs/tests.log" 2>&1
note "tests: $(tail -1 "$work/logs/tests.log")"
grep -E "ERROR|skipped" "$work/logs/tests.log" | head -20
(cd "$build" && ctest -L scan -LE "selfcheck|exercises" -E "scan_tests" >"$work/logs/cli_tests.log" 2>&1)
note "command-line tests: $(grep -E 'tests passed' "$work/logs/cli_tests.log")"

stamp benchmarks
if [ $quick -eq 0 ]; then
  chapters/scan/benchmarks.sh "$dir/scan" "$work/bench" >"$work/logs/bench.log" 2>&1
  note "benchmarks: rc $?"
  cp "$work/bench/scan.svg" "$work/bench/int32_2p28.csv" "$work/bench/sweep/size_sweep.csv" "$out/" 2>/dev/null
else
  "$dir/scan" >"$work/logs/bench.log" 2>&1
  note "benchmark: rc $?"
fi

if [ $quick -eq 0 ]; then
  # racecheck on the in-place Kogge-Stone (S1) and the missing phase barrier (S3): hazards expected.
  stamp "racecheck: the defective variants S1, S3"
  timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard \
    "$dir/scan_tests" --test-case='S1*,S3*' >"$work/logs/racecheck_defects.log" 2>&1
  note "racecheck, defective variants S1 and S3 (hazards expected): $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$work/logs/racecheck_defects.log" | tail -1)"
  # The fixed stages under every tool ([large] and the defect tests left out).
  for spec in memcheck:300 racecheck:400 synccheck:300 initcheck:300; do
    tool=${spec%%:*}
    limit=${spec##*:}
    stamp "$tool: the fixed stages"
    extra=()
    [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
    timeout "$limit" compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 \
      "$dir/scan_tests" --test-case-exclude='*[large]*,S1*,S2*,S3*,S4*' >"$work/logs/${tool}_fixed.log" 2>&1
    rc=$?
    note "$tool, fixed stages (rc $rc$([ $rc -eq 124 ] && echo ', timed out')): $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$work/logs/${tool}_fixed.log" | tail -1) $(tail -1 "$work/logs/${tool}_fixed.log" | grep -E 'passed')"
  done
fi

tar -czf "$out/logs.tar.gz" -C "$work" logs $( [ -d "$work/bench" ] && echo bench )
stamp summary
{
  echo
  for title in "inclusive scan of 268435456 int32" "inclusive scan of 268435456 int64" "inclusive scan of 268435456 float" "exclusive scan of 268435456 int32"; do
    grep -A14 "^scan: $title" "$work/logs/bench.log" | grep -E "^(scan:|copy|[0-9] |cub)"
    echo
  done
  echo "stage 6 and CUB by size (int32, GB/s):"
  grep -E "^scan: inclusive scan of|^6 single|^cub" "$work/logs/bench.log" | grep -A2 -E "of (65536|262144|1048576|4194304|16777216|67108864|268435456|1073741824) int32 \(uniform, seed 42\), block 256, items per thread stage default" | grep -vE "^--"
} | tee -a "$summary"
