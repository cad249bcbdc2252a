#!/usr/bin/env bash
# Stage 7's measurement run (one GPU call): build the counting targets, run stage 7's checks,
# then every stage 7 variant against CUB sort + run-length encode in the same process, the
# phase times of variants 0 (two-level) and 3 (one-level), and the sort experiment (own radix
# sort of the distinct pairs against CUB's SortPairs).
#   OUT=<folder> chapters/counting/stage7_gpu.sh
set -uo pipefail
out=${OUT:?set OUT}
b=/tmp/build-counting-s7
rm -rf $b  # a warm machine keeps it: stale objects when a file's time stamp goes back
cmake -S . -B $b -DWB_CHAPTER_LIST=counting -DWB_DEPS_DIR=$PWD/.carry -DWB_BACKEND=cuda \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release >$out/build.log 2>&1 &&
  cmake --build $b --target counting counting_tests counting_sort_distinct -j16 >>$out/build.log 2>&1 || { tail -40 $out/build.log; exit 1; }
exe=$b/chapters/counting/counting
cuobjdump --dump-resource-usage $(find $b -name "stage7_hash_count.cu.o" | grep solution) 2>&1 | grep -E "Function|REG" | grep -A1 -E "bucket|insert" | cut -c1-200 >$out/resources.txt
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee $out/log.txt
{
  echo "### WB_LARGE=1 counting_tests -ts=counting/7*"; WB_LARGE=1 $b/chapters/counting/counting_tests -ts="counting/7*" 2>&1 | tail -3
  f="--type int64 --n 2^26"
  echo "### counting $f --dist few --distinct 2^20 --stage 7 --tune"
  $exe $f --dist few --distinct 2^20 --stage 7 --tune --targets --csv $out/stage7_few.csv
  echo "### phases"
  for v in ${PHASE_VARIANTS:-0 3}; do
    COUNTING_STAGE7_PHASES=1 $exe $f --dist few --distinct 2^20 --stage 7 --variant $v --reps 5 2>&1 | grep "phases" | tail -2
  done
  if [ -n "${NCU:-}" ]; then  # where the insert's table accesses go (L2 hit rate, DRAM bytes)
    for v in $NCU; do
      echo "### ncu, variant $v"
      timeout 120 ncu --metrics gpu__time_duration.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum \
        -k regex:insert --launch-count 4 $exe $f --dist few --distinct 2^20 --stage 7 --variant $v --reps 1 2>&1 |
        grep -E "insert|duration|hit_rate|dram__bytes|ERR|rror" | head -40
    done
  fi
  if [ -n "${DISTINCT_SWEEP:-}" ]; then  # does the insert slow down as the table outgrows L2?
    for d in $DISTINCT_SWEEP; do
      echo "### phases, variant 4, 2^$d distinct"
      COUNTING_STAGE7_PHASES=1 $exe $f --dist few --distinct 2^$d --stage 7 --variant 4 --reps 3 2>&1 | grep "phases" | tail -1
    done
  fi
  echo "### sort experiment"
  timeout 120 $b/chapters/counting/counting_sort_distinct
  echo "### phases, zipf, variant 0"
  COUNTING_STAGE7_PHASES=1 $exe $f --dist zipf --distinct 2^20 --stage 7 --reps 5 2>&1 | grep "phases" | tail -1
  echo "### counting $f --dist zipf --distinct 2^20 --stage 7 --tune --reps 5"
  $exe $f --dist zipf --distinct 2^20 --stage 7 --tune --reps 5 --csv $out/stage7_zipf.csv
  if [ -z "${SKIP_DISTINCT:-}" ]; then
    echo "### counting $f --dist all-distinct --distinct 2^26 --stage 7 --reps 3"
    $exe $f --dist all-distinct --distinct 2^26 --stage 7 --reps 3 --csv $out/stage7_distinct.csv
  fi
} 2>&1 | tee -a $out/log.txt
echo "=== summary"; grep -E "^(7 hash|CUB sort|  stage 7 at least|stage 7 phases|\[doctest\] test cases|### counting|  2\^)" $out/log.txt
