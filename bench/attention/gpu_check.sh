#!/usr/bin/env bash
# One command for a GPU machine (an H100 or H200): build the attention chapter's targets (cuda
# backend), check them, put each stage under compute-sanitizer, measure them, and time PyTorch's
# scaled_dot_product_attention on the same shapes. Each step has a time limit and the run stops
# starting steps near its deadline (ATTENTION_GPU_BUDGET seconds, default 480), so the steps
# come in the order they matter:
#   1 build        attention, attention_tests
#   2 checks       attention_tests (the GPU-size and [large] cases too), the command-line tests
#   3 sanitizers   memcheck, racecheck, synccheck on a small run of each stage (stages 1-5 at
#                  seq 100, kv_seq 130, d 64, causal, stages 4 and 5 on bf16 K and V; stage 6 at
#                  seq 3 against 1000 keys, both types)
#   4 table        the default prefill (b 4, h 16, seq 4096, d 128), causal and not; d 64
#                  (stages 1-3 fp32, stages 4 and 5 bf16 K and V)
#   5 decode       stage 6, b 1 and 8 x kv_seq 8K, 32K, 128K, h 16, d 128, fp32 and bf16
#   6 baseline     bench/attention/baseline.py (PyTorch: cuDNN, FlashAttention, memory-efficient)
# Results in $OUT (default gpu-out/): summary.txt (read this first), logs.tar.gz (every log),
# prefill.csv, decode.csv, baseline.csv.
#
#   OUT=/some/folder bench/attention/gpu_check.sh [--build DIR] [--fresh] [--deps DIR] [--quick]
#
#   --build DIR  the cuda build folder (default: build-cuda/, the cuda preset's); --fresh empties it
#   --deps DIR   folder whose include/ holds doctest/, CLI/ and fmt/ (default: .carry if present)
#   --quick      steps 1-4 only
set -uo pipefail
cd "$(dirname "$0")/../.."
source bench/common/lib.sh
gpu_check_args attention "$@"
gpu_check_no_more_args
start=$(date +%s)
budget=${ATTENTION_GPU_BUDGET:-480}
gpu_check_start
mkdir -p "$work/csv"

left() { echo $((budget - ($(date +%s) - start))); }
limit() { local l; l=$(left); [ "$l" -lt "$1" ] && echo $((l > 1 ? l : 1)) || echo "$1"; }
enough() { [ "$(left)" -ge "$1" ] || { note "skipped (time): $2"; return 1; }; }

finish() {
  for f in prefill decode baseline; do
    [ -s "$work/csv/$f.csv" ] && cp "$work/csv/$f.csv" "$out/"
  done
  note ""
  note "total: $(($(date +%s) - start)) s"
  gpu_check_pack
}
trap finish EXIT

gpu_check_build attention attention_tests
bin="$dir/attention"

# run NAME SECONDS ARGS...: the executable, its output to logs/NAME.log, its rows to the summary
run() {
  local name=$1 seconds=$2 rc
  shift 2
  stamp "$name: attention $*"
  timeout "$(limit "$seconds")" "$bin" "$@" >"$work/logs/$name.log" 2>&1
  rc=$?
  note ""
  note "---- $name (attention $*): exit $rc$([ $rc -eq 124 ] && echo ', TIMED OUT')"
  grep -E "^(attention,|[0-9] |error)|NO |refused" "$work/logs/$name.log" | tee -a "$summary"
}

# ---- 2 checks
stamp checks
timeout "$(limit 240)" "$dir/attention_tests" >"$work/logs/tests.log" 2>&1
rc=$?
note "attention_tests: exit $rc$([ $rc -eq 124 ] && echo ', TIMED OUT') — $(tail -1 "$work/logs/tests.log")"
grep -E "ERROR|FAILED|failed|skipped" "$work/logs/tests.log" | head -20 | tee -a "$summary"
(cd "$build" && timeout "$(limit 90)" ctest -L attention -LE "selfcheck|exercises" -E "^attention_tests$" --output-on-failure) \
  >"$work/logs/ctest.log" 2>&1
note "command-line tests: $(grep -E 'tests passed|tests failed' "$work/logs/ctest.log" | tail -1)"
grep -E "^\s+[0-9]+ - " "$work/logs/ctest.log" | tee -a "$summary"

# ---- 3 compute-sanitizer: a small run of every stage
if command -v compute-sanitizer >/dev/null; then
  for tool in memcheck racecheck synccheck; do
    for what in prefill decode; do
      enough 15 "$tool $what" || continue
      args=(--seq 100 --kv-seq 130 --dim 64 --causal --stage 1,2,3,4,5)
      [ "$what" = decode ] && args=(--seq 3 --kv-seq 1000 --dim 64 --causal --stage 6 --chunk 100)
      extra=()
      [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
      stamp "compute-sanitizer $tool, $what"
      timeout "$(limit 90)" compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 \
        "$bin" "${args[@]}" --reps 1 >"$work/logs/sanitize-$tool-$what.log" 2>&1
      rc=$?
      note "$tool ($what: ${args[*]}): exit $rc$([ $rc -eq 124 ] && echo ' (timed out)') — $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$work/logs/sanitize-$tool-$what.log" | tail -1)"
    done
  done
fi

# ---- 4 the prefill table: the default problem, causal and not, d 64
enough 30 "prefill" && run prefill-d128 120 --stage 1,2,3,4,5 --csv "$work/csv/prefill.csv"
enough 30 "prefill causal" && run prefill-d128-causal 120 --stage 1,2,3,4,5 --causal
enough 30 "prefill d 64" && run prefill-d64 90 --stage 2,3,4,5 --dim 64 --causal

if [ "$quick" -eq 0 ]; then
  # ---- 5 decoding: one token against caches of 8K to 128K
  : >"$work/csv/decode.csv"
  for b in 1 8; do
    for kv in 8192 32768 131072; do
      enough 20 "decode b $b kv $kv" || continue
      run "decode-b$b-kv$kv" 120 --stage 6 --batch "$b" --heads 16 --dim 128 --seq 1 --kv-seq "$kv" --reps 50 \
        --csv "$work/csv/decode-b$b-kv$kv.csv"
      [ -s "$work/csv/decode-b$b-kv$kv.csv" ] && { [ -s "$work/csv/decode.csv" ] || head -1 "$work/csv/decode-b$b-kv$kv.csv"; tail -n +2 "$work/csv/decode-b$b-kv$kv.csv"; } >>"$work/csv/decode.csv"
    done
  done

  # ---- 6 PyTorch on the same shapes
  if enough 60 "baseline" && python3 -c "import torch" 2>/dev/null; then
    stamp "baseline: PyTorch scaled_dot_product_attention"
    timeout "$(limit 150)" python3 bench/attention/baseline.py >"$work/csv/baseline.csv" 2>"$work/logs/baseline.err"
    note ""
    note "---- PyTorch scaled_dot_product_attention (baseline.py): exit $?"
    tee -a "$summary" <"$work/csv/baseline.csv"
  fi
fi
stamp summary
cat "$summary"
exit 0
