#!/usr/bin/env bash
# One command for an H100 (any sm_90 GPU): build the matmul chapter's targets (cuda backend),
# check them, measure them against cuBLAS. Each step has a time limit and the run stops starting
# steps near its deadline (MATMUL_GPU_BUDGET seconds, default 285: under 5 minutes in all), so
# the steps come in the order they matter:
#   1 build        matmul, matmul_tests, matmul_fp32_configs, matmul_tensor_configs
#   2 checks       matmul_tests (stages 5-6, the library rows and the [large] checks on the GPU),
#                  the command-line tests (a failing one's output in logs/ctest.log); SASS: HGMMA
#                  in stage 6's kernels, HMMA in stage 5's
#   3 table        every stage and variant at 4096^3 beside cuBLAS (both types)
#   4 sweep        stage 6's configurations (the tile by shape against every tile, ring depth,
#                  tile order) beside cublasGemmEx over squares 512-8192, M = 16 and 128 with
#                  N = K = 8192, K = 16384
#   5 experiments  two kernels that are not in the stage, each in a process of its own (a kernel
#                  that traps ends every later run of its process): clusters of 2 sharing B by
#                  TMA multicast; consumers on alternate tiles (ping-pong); over the sweep
#   6 sanitizers   memcheck and racecheck on every variant of stages 4 and 6 at 256 x 200 x 136
#   7 smoke        every stage and variant of 4-6 once at 333 x 301 x 77 (rows the TMA cannot
#                  read directly)
#   8 more         the default stages at 8192^3; stage 4's shapes (matmul_fp32_configs) at 4096
#                  and 8192; stage 5's tiles and depths over the sweep
# Results in $OUT (default gpu-out/), eight files: summary.txt (read this first: what passed,
# the tables, the experiments' lines), logs.tar.gz (every log), table-4096-fp32.csv,
# table-4096-bf16.csv, stage6_sweep.csv, experiments.csv (the lines of steps 5 and 8's
# experiments), table-8192-fp32.csv, table-8192-bf16.csv.
#
#   OUT=/some/folder bench/matmul/gpu_check.sh [--build DIR] [--fresh] [--deps DIR] [--quick]
#
#   --build DIR  the cuda build folder (default: build-cuda/, the cuda preset's); --fresh empties it
#   --deps DIR   folder whose include/ holds doctest/, CLI/ and fmt/ (default: .carry if present)
#   --quick      steps 1-4 only
set -uo pipefail
cd "$(dirname "$0")/../.."
source bench/common/lib.sh
gpu_check_args matmul "$@"
gpu_check_no_more_args
start=$(date +%s)
budget=${MATMUL_GPU_BUDGET:-285}
gpu_check_start
mkdir -p "$work/csv"

# left: seconds before the deadline; limit N: N, or what is left if less (at least 1)
left() { echo $((budget - ($(date +%s) - start))); }
limit() { local l; l=$(left); [ "$l" -lt "$1" ] && echo $((l > 1 ? l : 1)) || echo "$1"; }
# enough N: at least N seconds are left, else the step is noted as skipped
enough() { [ "$(left)" -ge "$1" ] || { note "skipped (time): $2"; return 1; }; }

finish() {
  cp "$work"/csv/table-*.csv "$work"/csv/stage6_sweep.csv "$out/" 2>/dev/null
  # the experiments' lines in one file, one header
  local first=1 f
  for f in cluster pingpong fp32_configs stage5_configs; do
    [ -s "$work/csv/$f.csv" ] || continue
    if [ $first -eq 1 ]; then cat "$work/csv/$f.csv"; first=0; else tail -n +2 "$work/csv/$f.csv"; fi
  done >"$out/experiments.csv"
  [ -s "$out/experiments.csv" ] || rm -f "$out/experiments.csv"
  note ""
  note "total: $(($(date +%s) - start)) s"
  gpu_check_pack
}
trap finish EXIT

gpu_check_build matmul matmul_tests matmul_fp32_configs matmul_tensor_configs
bin="$dir/matmul"
experiments="$build/bench/matmul"

# run NAME SECONDS ARGS...: the executable, its output to logs/NAME.log, its rows to the summary
run() {
  local name=$1 seconds=$2 rc
  shift 2
  stamp "$name: matmul $*"
  timeout "$(limit "$seconds")" "$bin" "$@" >"$work/logs/$name.log" 2>&1
  rc=$?
  note ""
  note "---- $name (matmul $*): exit $rc$([ $rc -eq 124 ] && echo ', TIMED OUT')"
  grep -E "^([0-6] |cublas|target:|error)|WRONG|refused" "$work/logs/$name.log" | tee -a "$summary"
  grep -E "^matmul: C = A B" "$work/logs/$name.log" | head -2 >>"$summary"
}
# experiment NAME SECONDS PROGRAM ARGS...: an experiment's lines to the summary and csv/NAME.csv
experiment() {
  local name=$1 seconds=$2 program=$3 rc
  shift 3
  stamp "$name: $program $*"
  timeout "$(limit "$seconds")" "$experiments/$program" --csv "$work/csv/$name.csv" "$@" >"$work/logs/$name.log" 2>&1
  rc=$?
  note ""
  note "---- $name ($program $*): exit $rc$([ $rc -eq 124 ] && echo ', TIMED OUT'); M,N,K,stage,configuration,median_ms,TFLOP/s,vs library,verified"
  grep -E "^[0-9]|error" "$work/logs/$name.log" | tee -a "$summary"
}

# ---- 2 checks
stamp checks
timeout "$(limit 150)" "$dir/matmul_tests" >"$work/logs/tests.log" 2>&1
rc=$?
note ""
note "matmul_tests: exit $rc$([ $rc -eq 124 ] && echo ', TIMED OUT') — $(tail -1 "$work/logs/tests.log")"
grep -E "ERROR|FAILED|failed|skipped|sm_90" "$work/logs/tests.log" | head -20 | tee -a "$summary"
(cd "$build" && timeout "$(limit 90)" ctest -L matmul -LE "selfcheck|exercises" -E "^matmul_tests$" --output-on-failure) \
  >"$work/logs/ctest.log" 2>&1
note "command-line tests: $(grep -E 'tests passed|tests failed' "$work/logs/ctest.log" | tail -1)"
grep -E "^\s+[0-9]+ - " "$work/logs/ctest.log" | tee -a "$summary"
if command -v cuobjdump >/dev/null; then
  cuobjdump -sass "$bin" >"$work/logs/matmul.sass" 2>&1
  awk '/Function :/ { name = $3 } /HGMMA/ { hg[name]++ } /HMMA/ { hm[name]++ }
       END { for (n in hg) printf "HGMMA %6d  %s\n", hg[n], n; for (n in hm) printf "HMMA  %6d  %s\n", hm[n], n }' \
    "$work/logs/matmul.sass" | sort >"$work/logs/sass-counts.txt"
  note "SASS: stage 6 kernels with HGMMA: $(grep -c 'HGMMA.*solution.*hopper' "$work/logs/sass-counts.txt"); stage 5 kernels with HMMA: $(grep -c 'HMMA .*solution.*wmma' "$work/logs/sass-counts.txt")"
  rm -f "$work/logs/matmul.sass"
fi

# ---- 3 the table at 4096^3, every stage and variant, both types, cuBLAS rows
enough 20 "table-4096" && run table-4096 60 --m 4096 --n 4096 --k 4096 --all-variants --csv "$work/csv/table-4096.csv"

# ---- 4 stage 6 over the sweep (the experiments' kernels that are not in the stage come later,
# in processes of their own)
sweep=(4096 8192 512 1024 2048 16,8192,8192 128,8192,8192 4096,4096,16384 8192,8192,16384)
enough 20 "stage6_sweep" && experiment stage6_sweep 70 matmul_tensor_configs --only "6 " --skip pingpong,cluster "${sweep[@]}"

if [ "$quick" -eq 0 ]; then
  # ---- 5 the kernels that are not in the stage, each in a process of its own
  enough 20 "cluster" && experiment cluster 30 matmul_tensor_configs --only cluster "${sweep[@]}"
  enough 20 "pingpong" && experiment pingpong 30 matmul_tensor_configs --only pingpong "${sweep[@]}"

  # ---- 6 compute-sanitizer: every variant of stages 4 and 6, small (no cuBLAS rows: not ours)
  if command -v compute-sanitizer >/dev/null; then
    for tool in memcheck racecheck; do
      enough 15 "$tool" || continue
      stamp "compute-sanitizer $tool"
      extra=()
      [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
      timeout "$(limit 60)" compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 \
        "$bin" --stage 4,6 --all-variants --m 256 --n 200 --k 136 --reps 1 --no-library \
        >"$work/logs/sanitize-$tool.log" 2>&1
      rc=$?
      note "$tool (stages 4 and 6, every variant, 256 x 200 x 136): exit $rc$([ $rc -eq 124 ] && echo ' (timed out)') — $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$work/logs/sanitize-$tool.log" | tail -1)"
    done
  fi

  # ---- 7 smoke: stages 4-6, every variant, sizes no tile divides
  enough 10 "smoke-odd" && run smoke-odd 20 --m 333 --n 301 --k 77 --stage 4,5,6 --all-variants --reps 2

  # ---- 8 more: the default stages at 8192^3; stage 4's shapes; stage 5's tiles over the sweep
  enough 50 "table-8192" && run table-8192 75 --m 8192 --n 8192 --k 8192 --csv "$work/csv/table-8192.csv"
  enough 30 "fp32_configs" && experiment fp32_configs 40 matmul_fp32_configs 4096 8192
  enough 25 "stage5_configs" && experiment stage5_configs 40 matmul_tensor_configs --only "5 " --skip "6 " "${sweep[@]}"
fi
stamp summary
cat "$summary"
exit 0
