#!/usr/bin/env bash
# The profile view: why each stage is as fast as it is. Runs Nsight Compute (ncu) on every
# stage of every chapter and writes one table per chapter, each kernel of a stage on its row.
#
#   common/scripts/profile.sh [--build DIR] [--out DIR] [--chapters LIST] [--stages LIST]
#                             [--track solution|exercise]
#
#   --build DIR     a cuda-backend build (default: build-cuda/, the cuda preset's)
#   --out DIR       where the tables go (default: profile/)
#   --chapters L    comma list, e.g. merge,reduction,counting,scan (default: every chapter
#                   executable found in the build)
#   --stages L      comma list of stage numbers, e.g. 3 or 2,3 (default: every stage)
#   --track T       whose kernels: the solution (default) or the exercise track, your own
#                   (wb profile merge/3 runs both and shows them side by side)
#
# Writes OUT/<chapter>-profile.md (GPU, ncu version, date, command, the table) and
# OUT/<chapter>-profile.csv; OUT/raw/ keeps each stage's ncu report (open it with ncu-ui),
# its CSV export and the program's output. Needs a GPU and ncu (run as root, or with the
# profiling counters opened to users); refuses with exit status 2 otherwise.
#
# The metrics (names for sm_90, Nsight Compute 2025.3; listed in profile_table.py):
#   duration                 gpu__time_duration.sum
#   DRAM % of peak, GB/s     dram__throughput.avg.pct_of_peak_sustained_elapsed, dram__bytes.sum.per_second
#   L2 hit rate              lts__t_sector_hit_rate.pct
#   bank conflicts/request   l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum / smsp__sass_inst_executed_op_shared.sum
#   achieved occupancy       sm__warps_active.avg.pct_of_peak_sustained_active
#   threads per warp         smsp__thread_inst_executed.sum / smsp__inst_executed.sum (32: no divergence)
#   issue slots busy         smsp__issue_active.avg.pct_of_peak_sustained_active
#   top stall                the largest smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio
#                            ("selected" left out), with its share of all stall cycles
#
# Which launches: each stage runs alone (--stage N --reps 1) under ncu, which profiles only
# kernels in the chapter's namespace (<chapter>::, so not the CUB baseline); the stage's
# verification, warm-up and timed runs repeat the same launches, and the table keeps the last
# run. Sizes (per chapter, below) are past the 50 MB L2 of an H100 where the stage streams
# memory, so the counters show the DRAM regime, yet small enough that ncu's replays (about 40
# per kernel) take seconds; the O(N^2) counting stages run on 2^16 items.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
here="$root/common/scripts"

build="$root/build-cuda"
out="$root/profile"
chapters=""
stages=""
track=solution
command_line="common/scripts/profile.sh $*"
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="${2:?--build needs a folder}"; shift 2 ;;
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --chapters) chapters="${2:?--chapters needs a list}"; shift 2 ;;
    --stages) stages="${2:?--stages needs a list}"; shift 2 ;;
    --track) track="${2:?--track needs solution or exercise}"; shift 2 ;;
    -h|--help) sed -n '2,37p' "$0"; exit 0 ;;
    *) echo "profile: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

refuse() { echo "profile: $*" >&2; exit 2; }
case "$track" in solution|exercise) ;; *) refuse "--track '$track': give solution or exercise" ;; esac
[[ -z "$stages" || "$stages" =~ ^[0-9]+(,[0-9]+)*$ ]] || refuse "--stages '$stages': give stage numbers, e.g. 3 or 2,3"
command -v python3 >/dev/null || refuse "python3 is needed to make the tables"
command -v ncu >/dev/null || refuse "ncu (Nsight Compute) is not on PATH: profiling needs it and a GPU (it comes with the CUDA toolkit, e.g. /usr/local/cuda/bin)"
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  refuse "no NVIDIA GPU found (nvidia-smi -L lists none): profiling needs a GPU; on the cpu backend there are no hardware counters"
fi
[ -d "$build" ] || refuse "build folder '$build' does not exist (build the cuda backend first: cmake --preset cuda && cmake --build --preset cuda)"
backend=$(sed -n 's/^WB_BACKEND:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null)
[ "$backend" = cuda ] || refuse "'$build' is a ${backend:-unknown} backend build: profiling needs the cuda backend"

if [ -z "$chapters" ]; then
  for exe in "$build"/chapters/*/*; do
    name=$(basename "$(dirname "$exe")")
    [ -x "$exe" ] && [ -f "$exe" ] && [ "$(basename "$exe")" = "$name" ] && chapters="$chapters${chapters:+,}$name"
  done
  [ -n "$chapters" ] || refuse "no chapter executable in $build/chapters/"
fi
IFS=, read -r -a chapter_list <<<"$chapters"
for ch in "${chapter_list[@]}"; do
  [ -x "$build/chapters/$ch/$ch" ] || refuse "no executable $build/chapters/$ch/$ch (is '$ch' a chapter, and built?)"
done

# The size of each stage's run: the stage's regime at a size ncu replays quickly.
stage_args() {  # stage_args CHAPTER STAGE
  case "$1" in
    merge) echo "--m 16777216 --n 16777216" ;;          # 2 x 64 MB in, 128 MB out (int32)
    reduction) echo "--n 67108864" ;;                   # 256 MB of int32
    counting)
      case "$2" in
        0|1|2|3|4) echo "--n 65536" ;;                  # O(N^2) stages: 2^16 int8
        7) echo "--type int64 --n 16777216 --dist few --distinct 1048576" ;;  # wide keys, 2^20 distinct
        *) echo "--n 268435456" ;;                      # 2^28 int8 = 256 MB
      esac ;;
    scan) echo "--n 67108864" ;;                        # 256 MB of int32
    sort) echo "--n 16777216" ;;                        # 64 MB of uint32; stage 1 alone launches ~100 kernels
    *) echo "" ;;                                       # the chapter's own default size
  esac
}

metrics=$(python3 "$here/profile_table.py" --metrics)
mkdir -p "$out/raw"
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)
ncu_version=$(ncu --version | sed -n 's/^Version \([^ ]*\).*/\1/p' | head -1)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo "${WB_COMMIT:-unknown}")
failed=()
max_stages=32  # without --stages, stages are probed 0, 1, 2, ... until the executable refuses the number
if [ -n "$stages" ]; then
  IFS=, read -r -a stage_list <<<"$stages"
else
  stage_list=($(seq 0 $((max_stages - 1))))
fi

for ch in "${chapter_list[@]}"; do
  exe="$build/chapters/$ch/$ch"
  rm -f "$out/raw/$ch"-stage*
  echo "== profile $ch"
  sizes=""
  for s in "${stage_list[@]}"; do
    base="$out/raw/$ch-stage$s"
    args=$(stage_args "$ch" "$s")
    # shellcheck disable=SC2086  # args is a list of words
    ncu --kernel-name-base demangled --kernel-name "regex:^(void )?$ch::" --metrics "$metrics" \
      -f -o "$base" "$exe" --stage "$s" --track "$track" --reps 1 $args --csv "$base.report.csv" >"$base.log" 2>&1
    rc=$?
    if [ ! -s "$base.report.csv" ]; then
      rm -f "$base.ncu-rep" "$base.report.csv"
      # a number past the last stage is refused with status 2 and "names no stage": done,
      # unless --stages asked for it
      if [ $rc -eq 2 ] && grep -q 'names no stage' "$base.log"; then
        if [ -z "$stages" ]; then rm -f "$base.log"; break; fi
        echo "   stage $s: $ch has no stage $s" >&2
        failed+=("$ch/$s")
        continue
      fi
      echo "   stage $s: the program wrote no report (exit $rc); see $base.log" >&2
      failed+=("$ch/$s")
      [ -n "$stages" ] && continue
      break
    fi
    sizes="$sizes${sizes:+; }$s: \`${args:-(default)}\`"
    [ $rc -eq 0 ] || { echo "   stage $s: exit $rc (see $base.log)" >&2; failed+=("$ch/$s"); }
    if [ -f "$base.ncu-rep" ]; then
      ncu -i "$base.ncu-rep" --csv --page raw --print-units base >"$base.ncu.csv" 2>>"$base.log" || failed+=("$ch/$s:export")
    fi
    echo "   stage $s: $(grep -c . "$base.ncu.csv" 2>/dev/null || echo 0) lines of counters"
  done
  python3 "$here/profile_table.py" --chapter "$ch" --work "$out/raw" \
    --md "$out/$ch-profile.md" --csv "$out/$ch-profile.csv" --title "$ch: what the hardware counters say" \
    --meta "GPU: $gpu" --meta "Nsight Compute $ncu_version" \
    --meta "date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit" \
    --meta "command: \`$command_line\`; each stage runs alone: \`ncu ... $ch --stage N --track $track --reps 1 SIZE\`" \
    --meta "SIZE per stage: $sizes" \
    --meta "one run of each stage; time is ncu's (clocks locked to base), not the timed median of the chapter's report" ||
    failed+=("$ch:table")
  echo "   -> $out/$ch-profile.md"
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "profile: failed: ${failed[*]}" >&2
  exit 1
fi
