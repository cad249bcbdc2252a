#!/usr/bin/env bash
# Stage 7's measurement run (one GPU call): build the counting targets, run the checks, then
# every stage 7 variant against CUB sort + run-length encode in the same process, and the
# phase times of the default (two-level) and the previous default (variant 2).
#   OUT=<folder> chapters/counting/stage7_gpu.sh
set -uo pipefail
out=${OUT:?set OUT}
b=/tmp/build-counting-s7
cmake -S . -B $b -DWB_CHAPTER_LIST=counting -DWB_DEPS_DIR=$PWD/.carry -DWB_BACKEND=cuda \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release >$out/build.log 2>&1 &&
  cmake --build $b --target counting counting_tests -j16 >>$out/build.log 2>&1 || { tail -40 $out/build.log; exit 1; }
exe=$b/chapters/counting/counting
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee $out/log.txt
{
  echo "### counting_tests"; $b/chapters/counting/counting_tests 2>&1 | tail -4
  echo "### WB_LARGE=1 counting_tests -ts=counting/7*"; WB_LARGE=1 $b/chapters/counting/counting_tests -ts="counting/7*" 2>&1 | tail -3
  f="--type int64 --n 2^26"
  echo "### counting $f --dist few --distinct 2^20 --stage 7 --tune"
  $exe $f --dist few --distinct 2^20 --stage 7 --tune --csv $out/stage7_few.csv
  echo "### phases"
  COUNTING_STAGE7_PHASES=1 $exe $f --dist few --distinct 2^20 --stage 7 --reps 5 2>&1 | grep "phases" | tail -3
  COUNTING_STAGE7_PHASES=1 $exe $f --dist few --distinct 2^20 --stage 7 --variant 2 --reps 5 2>&1 | grep "phases" | tail -3
  echo "### counting $f --dist zipf --distinct 2^20 --stage 7 --tune --reps 5"
  $exe $f --dist zipf --distinct 2^20 --stage 7 --tune --reps 5 --csv $out/stage7_zipf.csv
  echo "### counting $f --dist all-distinct --distinct 2^26 --stage 7 --reps 3"
  $exe $f --dist all-distinct --distinct 2^26 --stage 7 --reps 3 --csv $out/stage7_distinct.csv
} 2>&1 | tee -a $out/log.txt
echo "=== summary"; grep -E "^(7 hash|CUB sort|  stage 7 vs|stage 7 phases|\[doctest\] test cases|### counting)" $out/log.txt
