#!/usr/bin/env bash
# The merge chapter's benchmark runs on a GPU: the tables of the README.
#
#   chapters/merge/benchmarks.sh <merge executable> <output folder> [--large]
#
# Writes <folder>/<run>.csv and .json (wb::report rows) for each run and the coarsening sweep
# as <folder>/sweep/sweep.csv (other columns). --large adds a run past 2^31 elements (about
# 19 GB of device memory and 40 GB of host memory, a minute or two). Used by
# common/scripts/gpu-report.sh and chapters/merge/gpu_check.sh.
set -uo pipefail
exe=${1:?usage: benchmarks.sh <merge executable> <output folder> [--large]}
out=${2:?usage: benchmarks.sh <merge executable> <output folder> [--large]}
large=${3:-}
mkdir -p "$out/sweep"
rc=0
run() {
  local name=$1
  shift
  echo "### merge $*"
  "$exe" "$@" --csv "$out/$name.csv" --json "$out/$name.json" || rc=1
}
run default                                  # m = n = 2^27 int32, uniform
run int64 --type int64
run key-value --key-value
run float --type float
run duplicates --dist duplicates
echo "### merge --sweep"
"$exe" --sweep --csv "$out/sweep/sweep.csv" || rc=1
if [ "$large" = "--large" ]; then
  # m + n = 2.36e9 > 2^31: the kernels' 64-bit indexing at full size
  run large --m 1181116006 --n 1181116006 --stage 2,3,4,5,6 --reps 5
fi
exit $rc
