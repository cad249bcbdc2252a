#!/usr/bin/env bash
# One command for the two-GPU machine (nvidia-h100-x2): the allreduce chapter's checks and
# measurements. About 8 minutes with the build; every step is bounded, and the optional ones are
# skipped when the deadline (DEADLINE seconds, default 510) comes near.
#
#   OUT=/some/dir bench/allreduce/gpu_check.sh [--build DIR] [--fresh] [--deps DIR]
#
# Steps: the machine (GPUs, NVLink topology, NCCL_NVLS_ENABLE=0 checked); the cuda build of the
# chapters allreduce needs (scan, sort, counting, allreduce; only the allreduce targets); the
# checks (allreduce_tests, the command-line tests); every stage at small sizes (int32, int64,
# float, 3 ranks on 2 GPUs, 2 ranks on 1 GPU) and at 2^26 int32; compute-sanitizer memcheck and
# racecheck on every stage at a small size; the sweep (8 B to 1 GiB per GPU, every stage and
# NCCL); 8-byte and 64 KiB latency; stage 6 (histogram of 2^32 int8 items, distinct counts of
# 2^27 int64 keys with 2^20 distinct, each against one GPU); the figure. Leaves in $OUT
# (default gpu-out/):
#   summary.txt       what passed, the goals against the measurements (printed last, too)
#   results.tar.gz    every log, CSV and report
#   sweep_int32.csv   the sweep of stages 2-5 and NCCL; sweep_host.csv stage 1's (to 64 MiB)
#   busbw.svg         bus bandwidth and time against size (plot_busbw.py)
#   reports.txt       the default report, the latency runs and stage 6's reports
set -uo pipefail
cd "$(dirname "$0")/../.."
source bench/common/lib.sh
gpu_check_args allreduce "$@"
gpu_check_no_more_args
gpu_check_start
deadline=${DEADLINE:-510}
left() { echo $((deadline - SECONDS)); }
# cap SECONDS: a step's time limit, cut to what is left before the deadline (at least 5 s)
cap() { local l=$(left); [ "$l" -lt "$1" ] && echo $((l > 5 ? l : 5)) || echo "$1"; }
finish() {
  cp "$work"/logs/sweep_*.csv "$out"/ 2>/dev/null
  tar -czf "$out/results.tar.gz" -C "$work" logs 2>/dev/null
  echo
  echo "==== summary ===="
  cat "$summary"
}
trap finish EXIT

# --- the machine ----------------------------------------------------------------------------------
# NVLink multicast stays off (a fault there can take the host's GPUs out of service): the machine
# sets NCCL_NVLS_ENABLE=0, the script sets it where it is missing and refuses any other value;
# nothing here asks for multicast.
if [ -n "${NCCL_NVLS_ENABLE+x}" ] && [ "$NCCL_NVLS_ENABLE" != "0" ]; then
  note "NCCL_NVLS_ENABLE is '$NCCL_NVLS_ENABLE', not 0: refusing to run NCCL here"
  exit 1
fi
export NCCL_NVLS_ENABLE=0
note "NCCL_NVLS_ENABLE=$NCCL_NVLS_ENABLE"
nvidia-smi topo -m >"$work/logs/topo.txt" 2>&1
note "topology (GPU0 to GPU1): $(awk '$1 == "GPU0" {print $3}' "$work/logs/topo.txt")  (NV#: # NVLinks; SYS/PHB/PIX: PCIe)"
note "GPUs: $(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)"
# NCCL: the system's, else the Python wheel's (its folder works as NCCL_ROOT).
if ! ls /usr/include/nccl.h /usr/local/include/nccl.h /usr/local/cuda/include/nccl.h >/dev/null 2>&1; then
  wheel=$(python3 -c 'import nvidia.nccl, os; print(list(nvidia.nccl.__path__)[0])' 2>/dev/null)
  [ -n "$wheel" ] && export NCCL_ROOT="$wheel" && note "NCCL from the wheel: $wheel"
fi

# --- build and checks -----------------------------------------------------------------------------
gpu_check_build allreduce allreduce_tests
grep -E "NCCL" "$work/logs/build.log" | head -2 | tee -a "$summary"
exe="$dir/allreduce"
t0=$SECONDS
timeout "$(cap 150)" "$dir/allreduce_tests" >"$work/logs/tests.log" 2>&1
note "allreduce_tests (rc $?, $((SECONDS - t0)) s): $(tail -1 "$work/logs/tests.log")"
grep -E "ERROR|skipped" "$work/logs/tests.log" | head -10 | tee -a "$summary"
(cd "$build" && timeout "$(cap 120)" ctest -L allreduce -LE "selfcheck|exercises" -E "allreduce_tests" >"$work/logs/cli_tests.log" 2>&1)
note "command-line tests: $(grep -E 'tests passed' "$work/logs/cli_tests.log")"

# run NAME SECONDS ARGS...: the executable, its output to logs/NAME.log (and reports.txt)
run() {
  local name=$1 limit=$2
  shift 2
  local t0=$SECONDS
  if [ "$(left)" -lt 20 ]; then note "---- $name: skipped (deadline)"; return; fi
  timeout "$(cap "$limit")" "$exe" "$@" >"$work/logs/$name.log" 2>&1
  local rc=$?
  note "---- $name (rc $rc, $((SECONDS - t0)) s): allreduce $*"
  { echo "==== allreduce $*"; cat "$work/logs/$name.log"; echo; } >>"$out/reports.txt"
  grep -E " NO |error|WRONG" "$work/logs/$name.log" | head -5 | tee -a "$summary"
}
: >"$out/reports.txt"

# --- every stage, small first ---------------------------------------------------------------------
run small_int32 60 --n 4099 --reps 3
run small_int64 60 --n 1001 --type int64 --reps 3
run small_float 60 --n 70001 --type float --reps 3
run small_3ranks 60 --gpus 3 --n 5000 --reps 3
run small_logical 60 --gpus 2 --devices 1 --n 5000 --reps 3
run default 90   # 2^26 int32 per GPU (256 MiB)
sed -n '/^stage /,$p' "$work/logs/default.log" | grep -vE "^-+$" | tee -a "$summary"

# --- compute-sanitizer on every stage at a small size ----------------------------------------------
for tool in memcheck racecheck; do
  if [ "$(left)" -lt 200 ]; then note "$tool: skipped (deadline)"; continue; fi
  t0=$SECONDS
  # Every CUDA call of the chapter is checked by the program itself; NCCL's own tries (enabling
  # peer access that is already on) are not errors of ours.
  extra=(--report-api-errors no)
  [ "$tool" = racecheck ] && extra+=(--racecheck-report hazard)
  timeout "$(cap 60)" compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 "$exe" --n 4099 --reps 1 \
    >"$work/logs/sanitize_$tool.log" 2>&1
  rc=$?
  timeout "$(cap 40)" compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 "$exe" --app histogram --items 2^20 --reps 1 \
    >"$work/logs/sanitize_${tool}_app.log" 2>&1
  rc_app=$?
  note "compute-sanitizer $tool (stages 1-5 rc $rc, stage 6 rc $rc_app, $((SECONDS - t0)) s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$work/logs/sanitize_$tool.log" | tail -1)"
done


# --- the sweep, latency, stage 6 ------------------------------------------------------------------
t0=$SECONDS
timeout "$(cap 150)" "$exe" --sweep --stage 2,3,4,5 --csv "$work/logs/sweep_int32.csv" >"$work/logs/sweep.log" 2>&1
note "---- sweep, stages 2-5 and NCCL, 8 B to 1 GiB (rc $?, $((SECONDS - t0)) s)"
grep -E "^goal|^crossover|^link" "$work/logs/sweep.log" | tee -a "$summary"
grep -E "^(4 one-shot|4 two-shot|ncclAllReduce|3 ring) +8 " "$work/logs/sweep.log" | sed 's/^/  8 B: /' | tee -a "$summary"
if [ "$(left)" -gt 120 ]; then
  timeout "$(cap 60)" "$exe" --sweep --stage 1 --sweep-max 2^26 --csv "$work/logs/sweep_host.csv" >"$work/logs/sweep_host.log" 2>&1
  note "sweep, stage 1 to 64 MiB (rc $?)"
fi
[ "$(left)" -gt 90 ] && run latency_8B 60 --n 2 --stage 4,5 --reps 200
[ "$(left)" -gt 90 ] && run latency_64KiB 60 --n 16384 --stage 4,5 --reps 100
for app in histogram distinct; do
  if [ "$(left)" -lt 45 ]; then note "--app $app: skipped (deadline)"; continue; fi
  if [ "$app" = histogram ]; then
    run app_histogram 120 --app histogram --items 2^32 --reps 10
  else
    run app_distinct 120 --app distinct --items 2^27 --distinct 2^20 --reps 10
  fi
  sed -n '/^stage /,$p' "$work/logs/app_$app.log" | grep -vE "^-+$" | tee -a "$summary"
done
python3 bench/allreduce/plot_busbw.py "$work/logs/sweep_int32.csv" "$out/busbw.svg" $( [ -f "$work/logs/sweep_host.csv" ] && echo "$work/logs/sweep_host.csv") \
  >"$work/logs/plot.log" 2>&1 && note "figure: busbw.svg" || note "figure: failed (logs/plot.log)"
note "total: $SECONDS s"
