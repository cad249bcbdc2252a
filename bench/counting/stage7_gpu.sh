#!/usr/bin/env bash
# Stage 7's measurement run (one GPU call): build the counting chapter (with the scan and sort
# chapters it needs), run stage 7's checks (WB_LARGE=1: the 2^22-key ones too), then the sweep
# over the number of distinct keys against CUB sort + run-length encode (stage7_sweep.sh) and
# its figure.
#   OUT=<folder> chapters/counting/stage7_gpu.sh
set -uo pipefail
out=${OUT:?set OUT}
b=/tmp/build-counting-s7
rm -rf $b  # a warm machine keeps it: stale objects when a file's time stamp goes back
cmake -S . -B $b -DWB_CHAPTER_LIST="scan;sort;counting" -DWB_DEPS_DIR=$PWD/.carry -DWB_BACKEND=cuda \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release >$out/build.log 2>&1 &&
  cmake --build $b --target counting counting_tests -j16 >>$out/build.log 2>&1 || { tail -40 $out/build.log; exit 1; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee $out/log.txt
{
  echo "### WB_LARGE=1 counting_tests -ts=counting/7*"
  WB_LARGE=1 $b/chapters/counting/counting_tests -ts="counting/7*" 2>&1 | tail -3
  echo "### stage7_sweep.sh"
  chapters/counting/stage7_sweep.sh $b/chapters/counting/counting $out
  python3 chapters/counting/plot_stage7.py $out/stage7_sweep.csv $out/stage7_sweep.svg
} 2>&1 | tee -a $out/log.txt
