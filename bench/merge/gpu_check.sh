#!/usr/bin/env bash
# One GPU call for the merge chapter: build the cuda backend (this chapter only), run its
# tests on the GPU, run its benchmarks, optionally compute-sanitizer; logs under $OUT.
#
#   OUT=/some/folder chapters/merge/gpu_check.sh [--deps DIR] [--large] [--sanitize "memcheck racecheck ..."]
#
#   --deps DIR     folder whose include/ holds doctest, CLI11 and fmt (e.g. .carry)
#   --large        also benchmark m + n > 2^31 (benchmarks.sh --large)
#   --sanitize L   run these compute-sanitizer tools over merge_tests (test cases [large] left out)
#   TEST_TIMEOUT, BENCH_TIMEOUT (seconds, default 300 and 600) bound the tests and the benchmarks.
#
# Leaves $OUT/merge-gpu.tar.gz (every log, CSV and JSON) and prints a short summary last.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-out}
deps=""
large=""
tools=""
while [ $# -gt 0 ]; do
  case "$1" in
    --deps) deps=$(cd "$2" && pwd); shift 2 ;;
    --large) large=--large; shift ;;
    --sanitize) tools=$2; shift 2 ;;
    *) echo "gpu_check: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
logs="$OUT/merge-logs"
mkdir -p "$logs"
build=build-merge-gpu
stamp() { echo "== [$(date +%H:%M:%S)] $*"; }

stamp "device"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv | tee "$logs/device.txt"
nvcc --version | tail -2 >>"$logs/device.txt"

stamp "build"
args=(-S . -B "$build" -G Ninja -DWB_BACKEND=cuda -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90
      -DWB_CHAPTER_LIST=merge)
[ -n "$deps" ] && args+=(-DWB_DEPS_DIR="$deps")
if ! { cmake "${args[@]}" && cmake --build "$build" -j "$(nproc)" --target merge merge_tests; } >"$logs/build.log" 2>&1; then
  tail -40 "$logs/build.log"
  tar -czf "$OUT/merge-gpu.tar.gz" -C "$OUT" merge-logs
  exit 1
fi
exe="$build/chapters/merge/merge"
tests="$build/chapters/merge/merge_tests"

stamp "tests"
timeout "${TEST_TIMEOUT:-300}" "$tests" >"$logs/tests.log" 2>&1
echo "tests rc=$?" >>"$logs/tests.log"

stamp "benchmarks"
timeout "${BENCH_TIMEOUT:-600}" chapters/merge/benchmarks.sh "$exe" "$logs/bench" $large >"$logs/bench.log" 2>&1
echo "benchmarks rc=$?" >>"$logs/bench.log"

for tool in $tools; do
  stamp "compute-sanitizer $tool"
  extra=()
  [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
  timeout 300 compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 "$tests" \
    --test-case-exclude='*[large]*' >"$logs/sanitize-$tool.log" 2>&1
  echo "compute-sanitizer $tool rc=$?" >>"$logs/sanitize-$tool.log"
done

tar -czf "$OUT/merge-gpu.tar.gz" -C "$OUT" merge-logs
stamp "summary"
cat "$logs/device.txt"
grep -E "passed, [0-9]+ failed|tests rc=|ERROR:" "$logs/tests.log" | head -20
for tool in $tools; do grep -E "ERROR SUMMARY|RACECHECK SUMMARY|rc=" "$logs/sanitize-$tool.log" | tail -2; done
grep -E "^(stage|[0-6] |cub::|copy bandwidth|merge of)|WRONG|error|rc=" "$logs/bench.log" | grep -v "^stage  " | head -80
