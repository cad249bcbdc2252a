#!/usr/bin/env bash
# One command for a GPU machine: build the counting chapter (cuda backend), run its checks,
# the stage 6 and stage 8 sweeps, the benchmarks of the chapter's goals and the scaling
# runs. Logs and CSVs go to gpu-work/; a few files to $OUT (default gpu-out/):
#   summary.txt     what passed, the goals against the measured times, the tuning winners
#   logs.tar.gz     every log and CSV
#   counting.svg    GB/s per stage against the copy ceiling and CUB (plot_gbs.py)
#   scaling.md      the scaling table against the article's Table 1 (scaling_table.py)
#
#   OUT=/some/dir bench/counting/gpu_check.sh [--build DIR] [--fresh] [--deps DIR] [--phase all|tune|final]
#                                             [--quick] [--sanitize]
#
#   --build DIR  the cuda build folder (default: build-cuda/, the cuda preset's); --fresh empties it first
#   --deps DIR   folder whose include/ holds doctest/, CLI/ and fmt/ (default: .carry if present)
#   --phase      tune: checks, sweeps and the goals' benchmarks; final: checks, the goals'
#                benchmarks and the scaling runs; all (default): everything
#   --quick      checks and the goals' benchmarks only (no sweeps, no scaling runs)
#   --sanitize   also run the GPU checks (counting_tests) under compute-sanitizer's racecheck,
#                memcheck, synccheck and initcheck
# Takes about 5 minutes on an H100 with --phase all (build 1, checks 1, sweeps 1, goals 1,
# scaling 1.5), more with --sanitize (four tools, each limited to SANITIZE_LIMIT seconds, default 300).
set -uo pipefail
cd "$(dirname "$0")/../.."
source bench/common/lib.sh
gpu_check_args counting "$@"
phase=all
sanitize=0
set -- "${rest[@]}"
rest=()
while [ $# -gt 0 ]; do
  case "$1" in
    --phase) phase=${2:?--phase needs all, tune or final}; shift 2 ;;
    --sanitize) sanitize=1; shift ;;
    *) rest+=("$1"); shift ;;
  esac
done
gpu_check_no_more_args
case "$phase" in all|tune|final) ;; *) echo "gpu_check: --phase all|tune|final" >&2; exit 2 ;; esac
sweeps=1
scaling=1
[ "$phase" = final ] && sweeps=0
[ "$phase" = tune ] && scaling=0
[ $quick -eq 1 ] && sweeps=0 && scaling=0
gpu_check_start
mkdir -p "$work/csv"
finish() {
  gpu_check_pack 2>/dev/null
  echo
  echo "==== summary ===="
  cat "$summary"
}
trap finish EXIT

gpu_check_build counting counting_tests counting_exercise_tests
bin="$dir/counting"

stamp checks
WB_LARGE=1 "$dir/counting_tests" >"$work/logs/tests.log" 2>&1
note "counting_tests (WB_LARGE=1): $(tail -1 "$work/logs/tests.log")"
grep -E "ERROR|skipped|MESSAGE|bare copy" "$work/logs/tests.log" | head -20 | tee -a "$summary"
(cd "$build" && ctest -R "counting_(D5|cli|selfcheck)" --output-on-failure) >"$work/logs/ctest.log" 2>&1
note "ctest (D5 compile checks, CLI, exercise self-check): $(grep -E 'tests passed|tests failed' "$work/logs/ctest.log" | tail -1)"

# run NAME ARGS...: one benchmark, its report to logs/NAME.log and csv/NAME.csv
run() {
  local name=$1; shift
  stamp "$name: counting $*"
  local t0=$SECONDS
  "$bin" "$@" --targets --csv "$work/csv/$name.csv" >"$work/logs/$name.log" 2>&1
  local rc=$?
  note "---- $name ($((SECONDS - t0)) s): counting $*"
  [ $rc -ne 0 ] && note "exit status $rc (see logs/$name.log)"
  # the report's rows and the goals
  sed -n '/^stage /,$p' "$work/logs/$name.log" | grep -vE "^-+$|^$" | tee -a "$summary" >/dev/null
  gpu_check_pack 2>/dev/null  # as we go: a cut-off run keeps what it has
  return 0
}
best_of() {  # the fastest verified row of a CSV whose stage starts with $2
  python3 - "$1" "$2" <<'EOF'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["stage"].startswith(sys.argv[2]) and r["median_ms"] and r["verified"] == "yes"]
rows.sort(key=lambda r: float(r["median_ms"]))
for r in rows[:4]:
    vs = f', {float(r["vs_baseline"]):.3f}x the baseline' if r["vs_baseline"] else ''
    print(f'{r["stage"]}: {float(r["median_ms"]):.4f} ms, {float(r["gb_per_s"]):.0f} GB/s{vs}')
EOF
}

if [ $sweeps -eq 1 ]; then
  run tune6_uniform --stage 6 --tune --n 2^30
  note "stage 6 sweep, 2^30 uniform, fastest:"; best_of "$work/csv/tune6_uniform.csv" "6 " | sed 's/^/  /' | tee -a "$summary"
  run tune6_onehot --stage 6 --tune --n 2^30 --dist one-hot
  note "stage 6 sweep, 2^30 one-hot, fastest:"; best_of "$work/csv/tune6_onehot.csv" "6 " | sed 's/^/  /' | tee -a "$summary"
  run tune8 --stage 8 --tune --n 2^28 --reps 5
  note "stage 8 sweep, 10^9, fastest:"; best_of "$work/csv/tune8.csv" "8 " | sed 's/^/  /' | tee -a "$summary"
fi

# The chapter's goals, each in one run with its baseline.
run int8_2p30_uniform --stage 6 --n 2^30
run int8_2p30_onehot --stage 5,6 --n 2^30 --dist one-hot --reps 5
run int8_1e9 --n 1e9
run int64_2p26_few --type int64 --n 2^26 --dist few --distinct 2^20 --stage 2,3,4,7 --tune
run int64_2p26_distinct --type int64 --n 2^26 --dist all-distinct --distinct 2^26 --stage 7 --reps 3
run int64_2p26_zipf --type int64 --n 2^26 --dist zipf --distinct 2^20 --stage 7 --reps 3
[ $sweeps -eq 1 ] && run int8_3e9 --stage 5,6 --n 3e9 --reps 3

if [ $scaling -eq 1 ]; then
  # Scaling, 10^3 .. 10^9: int8 (the article's CUDA data) for every stage, and int64 with
  # (nearly) all keys distinct like the article's Table 1 (k ~ N), up to 10^8.
  for e in 3 4 5 6 7 8; do
    run scaling_int8_1e$e --n 1e$e --stage 0,1,2,3,4,5,6 --reps 3 --budget 15
  done
  cp "$work/csv/int8_1e9.csv" "$work/csv/scaling_int8_1e9.csv"  # 10^9: the full run above
  for e in 3 4 5 6 7 8; do
    run scaling_int64_1e$e --type int64 --n 1e$e --dist uniform --stage 0,1,2,3,4,7 --reps 3 --budget 15
  done
  python3 bench/counting/scaling_table.py "$work/csv" >"$out/scaling.md" 2>"$work/logs/scaling_table.log" \
    && note "scaling table: scaling.md" || note "scaling table: failed (logs/scaling_table.log)"
fi
python3 bench/counting/plot_gbs.py "$work/csv/int8_1e9.csv" "$out/counting.svg" >"$work/logs/plot.log" 2>&1 \
  && note "plot: counting.svg" || note "plot: failed (logs/plot.log)"

if [ $sanitize -eq 1 ]; then
  limit=${SANITIZE_LIMIT:-300}
  gpu_check_sanitize '' racecheck:$limit memcheck:$limit synccheck:$limit initcheck:$limit
fi
