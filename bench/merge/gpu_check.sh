#!/usr/bin/env bash
# One command for a GPU machine: build the merge chapter (cuda backend), run its checks on the
# GPU, run its benchmarks, optionally compute-sanitizer; logs go to gpu-work/, and a few files
# to $OUT (default gpu-out/): summary.txt (last lines: the tables), logs.tar.gz (every log, CSV
# and JSON).
#
#   OUT=/some/folder bench/merge/gpu_check.sh [--build DIR] [--fresh] [--deps DIR] [--quick] [--large]
#                                             [--sanitize "memcheck racecheck ..."]
#
#   --build DIR    the cuda build folder (default: build-cuda/, the cuda preset's); --fresh empties it first
#   --deps DIR     folder whose include/ holds doctest/, CLI/ and fmt/ (default: .carry if present)
#   --quick        tests and the default benchmark only (no other types, no sweep)
#   --large        also benchmark m + n > 2^31 (benchmarks.sh --large)
#   --sanitize L   run these compute-sanitizer tools over merge_tests (test cases [large] left out)
#   TEST_TIMEOUT, BENCH_TIMEOUT (seconds, default 900 and 600) bound the tests and the benchmarks.
set -uo pipefail
cd "$(dirname "$0")/../.."
source bench/common/lib.sh
gpu_check_args merge "$@"
large=""
tools=""
set -- "${rest[@]}"
rest=()
while [ $# -gt 0 ]; do
  case "$1" in
    --large) large=--large; shift ;;
    --sanitize) tools=${2:?--sanitize needs a list of tools}; shift 2 ;;
    *) rest+=("$1"); shift ;;
  esac
done
gpu_check_no_more_args
gpu_check_start
gpu_check_build merge merge_tests
gpu_check_tests

stamp benchmarks
if [ $quick -eq 0 ]; then
  timeout "${BENCH_TIMEOUT:-600}" bench/merge/benchmarks.sh "$dir/merge" "$work/bench" $large >"$work/logs/bench.log" 2>&1
  note "benchmarks: rc $?"
else
  "$dir/merge" >"$work/logs/bench.log" 2>&1
  note "benchmark: rc $?"
fi

specs=()
for tool in $tools; do specs+=("$tool:300"); done
[ ${#specs[@]} -gt 0 ] && gpu_check_sanitize '*[large]*' "${specs[@]}"

gpu_check_pack
stamp summary
cat "$summary"
echo
grep -E "^(stage|[0-6] |cub::|copy bandwidth|merge of)|WRONG|error" "$work/logs/bench.log" | grep -v "^stage  " | head -80 |
  tee -a "$summary"
