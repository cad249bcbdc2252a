#!/usr/bin/env bash
# Stage 7's measurement run (one GPU call): build the counting chapter (with the scan and sort
# chapters it needs), run stage 7's checks (WB_LARGE=1: the 2^22-key ones too), the headline
# rows against CUB sort + run-length encode (2^26 keys with 2^10, 2^14, 2^20, 2^24 distinct and
# all distinct, evenly spread and zipf-like; every path forced beside the automatic choice:
# stage7_sweep.sh), the sweep over mixtures of hot keys and a long tail
# (stage7_mixture_sweep.sh), and compute-sanitizer's memcheck on small inputs of every path.
#
#   OUT=<folder> chapters/counting/stage7_gpu.sh
#
# QUICK=1: the mixture sweep at 2^24 and 2^26 only. SANITIZE=1: racecheck, synccheck and
# initcheck too. About 13 minutes on an H100 (build 3, checks 1, headline rows 2, mixtures 6,
# memcheck 1); QUICK=1 about 8. Results: $OUT/log.txt (everything), stage7_sweep.csv,
# stage7_mixture.csv, the points' CSVs and logs, sanitizers.txt.
set -uo pipefail
out=${OUT:?set OUT}
mkdir -p "$out"
b=/tmp/build-counting-s7
rm -rf $b  # a warm machine keeps it: stale objects when a file's time stamp goes back
deps=()
[ -d "$PWD/.carry/include" ] && deps=(-DWB_DEPS_DIR="$PWD/.carry")
cmake -S . -B $b -DWB_CHAPTER_LIST="scan;sort;counting" "${deps[@]}" -DWB_BACKEND=cuda \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release >$out/build.log 2>&1 &&
  cmake --build $b --target counting counting_tests -j"$(nproc)" >>$out/build.log 2>&1 || { tail -40 $out/build.log; exit 1; }
exe=$b/chapters/counting/counting
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee $out/log.txt
echo "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' (uncommitted changes)')" | tee -a $out/log.txt
rc=0
{
  echo "### WB_LARGE=1 counting_tests -ts=counting/7*"
  WB_LARGE=1 $b/chapters/counting/counting_tests -ts="counting/7*" 2>&1 | tail -3
  echo "### headline rows: stage7_sweep.sh (2^26 keys, every path forced)"
  chapters/counting/stage7_sweep.sh $exe $out "10 14 20 24 26" "few zipf"
  echo "### mixtures: stage7_mixture_sweep.sh"
  if [ "${QUICK:-0}" = 1 ]; then
    SIZES="24 26" chapters/counting/stage7_mixture_sweep.sh $exe $out
  else
    chapters/counting/stage7_mixture_sweep.sh $exe $out
  fi
} 2>&1 | tee -a $out/log.txt
[ "${PIPESTATUS[0]}" = 0 ] || rc=1
# compute-sanitizer on each path forced, and the automatic choice on mixtures, shuffled and sorted
tools=(memcheck)
[ "${SANITIZE:-0}" = 1 ] && tools=(memcheck racecheck synccheck initcheck)
inputs=("--dist few --distinct 1024 --path shared-tables" "--dist few --distinct 16384 --path two-level"
        "--dist zipf --distinct 16384 --path two-level" "--dist all-distinct --path sort"
        "--dist few --distinct 4096 --path global-table" "--dist mixture --hot-share 0.5"
        "--dist mixture --hot-share 0.9 --tail-values 2^14 --sorted" "--dist mixture --hot-share 0.9 --sorted")
: >$out/sanitizers.txt
if command -v compute-sanitizer >/dev/null; then
  for tool in "${tools[@]}"; do
    for input in "${inputs[@]}"; do
      extra=()
      [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
      # shellcheck disable=SC2086
      line=$(compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 9 $exe --type int64 --n 100003 $input \
               --stage 7 --reps 1 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|hazard" | tail -1)
      echo "$tool | $input | ${line:-no summary}" | tee -a $out/sanitizers.txt
    done
  done
else
  echo "compute-sanitizer not found" | tee -a $out/sanitizers.txt
fi
exit $rc
