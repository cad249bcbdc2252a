#!/usr/bin/env bash
# The headline rows of every chapter in one GPU call: after a change that touches several
# chapters (a shared primitive, the driver), this shows in a few minutes whether any chapter's
# best stage moved against its library. Each chapter's own gpu_check.sh and benchmarks.sh
# remain the runs of record; this is their first table only, at the README's sizes.
#
#   OUT=/some/dir bench/common/headline.sh [--build DIR] [--fresh] [--deps DIR] [--quick] [CHAPTER...]
#
#   CHAPTER...   the chapters to run (default: every chapter this script knows and the build has)
#   --quick      one table a chapter (the default type); else every type of the README's table
#
# $OUT/summary.txt   GPU, build, then each chapter's table (stage, time, rate, vs library)
# $OUT/logs.tar.gz   every run's output and CSV
set -uo pipefail
cd "$(dirname "$0")/../.."
source bench/common/lib.sh
gpu_check_args headline "$@"
chapters=("${rest[@]}")
[ ${#chapters[@]} -gt 0 ] || chapters=(merge reduction scan sort counting matmul)
present=()
for c in "${chapters[@]}"; do [ -d "chapters/$c" ] && present+=("$c"); done
gpu_check_start
gpu_check_build "${present[@]}"
mkdir -p "$work/logs" "$work/csv"

# run CHAPTER NAME ARGS...: one table, its CSV kept, the table appended to the summary.
run() {
  local c=$1 name=$2
  shift 2
  stamp "$c $name"
  local log="$work/logs/${c}_$name.log"
  if "$build/chapters/$c/$c" "$@" --csv "$work/csv/${c}_$name.csv" >"$log" 2>&1; then
    note "--- $c $name ($*)"
  else
    note "--- $c $name ($*) FAILED (exit $?)"
  fi
  cat "$log" >>"$summary"
}

for c in "${present[@]}"; do
  case $c in
    merge)
      run merge int32 --stage 5,6
      [ "$quick" = 1 ] || run merge int64 --type int64 --stage 5,6 ;;
    reduction)
      run reduction int32 --stage 4,5
      [ "$quick" = 1 ] || run reduction float --type float --stage 4,5 ;;
    scan)
      run scan int32 --stage 5,6
      [ "$quick" = 1 ] || run scan int32_2p16 --n 2^16 --stage 6 --reps 200 ;;
    sort)
      run sort uint32 --stage 5
      [ "$quick" = 1 ] || run sort few_2p26 --n 2^26 --dist few --stage 5 ;;
    counting)
      run counting int8_1e9 --stage 6
      [ "$quick" = 1 ] || run counting int64_2p26_few --type int64 --n 2^26 --dist few --distinct 2^20 --stage 7
      [ "$quick" = 1 ] || run counting int64_mixture_2p24 --type int64 --n 2^24 --dist mixture --hot-share 0.5 --hot-keys 16 --stage 7 ;;
    matmul)
      run matmul fp32_4096 --type fp32 --stage 3,4
      run matmul bf16_4096 --type bf16 --stage 5,6 ;;
  esac
done
gpu_check_pack
