#!/usr/bin/env bash
# One GPU session for the stage-6 work: build the merge targets and the stage-6 experiment,
# run the checks (the [large] case left out), the experiment and the chapter executable on the
# README's inputs. Logs and CSVs under $OUT; a short summary last.
#
#   OUT=folder chapters/merge/experiments/gpu_stage6.sh [deps folder, default .carry]
# With MODE=run4 only the experiment runs, and only its run-4 part (copy, CUB, stage 6 and the
# coarse-then-fine partition passes). With MODE=chapter only the chapter executable and the
# tests run.
set -uo pipefail
cd "$(dirname "$0")/../../.."
OUT=${OUT:-$PWD/gpu-out}
deps=$(cd "${1:-.carry}" && pwd)
mkdir -p "$OUT"
build=build-gpu
stamp() { echo "== [$(date +%H:%M:%S)] $*"; }
stamp device
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$OUT/device.txt"
stamp build
targets="merge merge_tests merge_stage6_variants"
[ "${MODE:-}" = run4 ] && targets=merge_stage6_variants
[ "${MODE:-}" = chapter ] && targets="merge merge_tests"
if ! { cmake -S . -B "$build" -G Ninja -DWB_BACKEND=cuda -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
         -DWB_CHAPTER_LIST=merge -DWB_DEPS_DIR="$deps" &&
       cmake --build "$build" -j16 --target $targets; } >"$OUT/build.log" 2>&1; then
  tail -30 "$OUT/build.log"
  exit 1
fi
dir=$build/chapters/merge
stamp experiment
if [ "${MODE:-}" = run4 ]; then
  timeout 200 "$dir/merge_stage6_variants" 27 run4 2>&1 | tee "$OUT/stage6_variants_run4.txt"
  exit 0
fi
[ "${MODE:-}" = chapter ] || timeout 200 "$dir/merge_stage6_variants" 2>&1 | tee "$OUT/stage6_variants.txt"
stamp "chapter executable"
for run in "default" "int64 --type int64" "duplicates --dist duplicates" "key-value --key-value"; do
  set -- $run
  name=$1
  shift
  echo "### merge $*" >>"$OUT/bench.log"
  timeout 60 "$dir/merge" "$@" --csv "$OUT/$name.csv" >>"$OUT/bench.log" 2>&1
  echo "rc=$?" >>"$OUT/bench.log"
done
stamp tests
timeout 100 "$dir/merge_tests" --test-case-exclude='*[large]*' >"$OUT/tests.log" 2>&1
echo "tests rc=$?" >>"$OUT/tests.log"
stamp summary
grep -E "^== |cub|committed|group|fused|shape|copy" "$OUT/stage6_variants.txt" | cut -c1-100
grep -E "###|at bandwidth|cub::|rc=" "$OUT/bench.log" | cut -c1-110
tail -3 "$OUT/tests.log"
