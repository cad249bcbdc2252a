# The shared preamble of the lab's scripts (sourced, not run): every chapter's gpu_check.sh and
# benchmarks.sh, the stage scripts beside them, and bench/common/gpu-report.sh.
#
# A check script (one command for a GPU machine: build, checks, sanitizers, benchmarks) runs
# from the repository root and calls, in order:
#
#   gpu_check_args NAME "$@"      the options every check script takes:
#                                   --build DIR  the cuda build folder (default: build-cuda/, the
#                                                folder of `cmake --preset cuda`)
#                                   --fresh      remove the build folder first (a machine that keeps
#                                                build outputs between runs may hold objects newer
#                                                than the sources copied onto it)
#                                   --deps DIR   folder whose include/ holds doctest/, CLI/ and fmt/,
#                                                for a machine without the packages (default: .carry/
#                                                when it has an include/)
#                                   --quick      the script's short run (its header says what it leaves out)
#                                   -h, --help   the script's header
#                                 sets chapter, root, build, deps, quick, out ($OUT, default gpu-out/),
#                                 work (gpu-work/, emptied), summary ($out/summary.txt); leaves the
#                                 chapter's own options in the array rest (gpu_check_no_more_args
#                                 refuses any)
#   gpu_check_start               prints the GPU, nvcc, cmake and commit, the summary's first lines
#   gpu_check_build TARGET...     configures the build folder with the cuda preset (cuda_configure)
#                                 and builds the targets; on failure prints the log's tail and exits
#                                 1; sets dir (the chapter's build folder, $build/chapters/NAME)
#   gpu_check_tests               the chapter's doctest binary (bounded by TEST_TIMEOUT seconds,
#                                 default 900), then its command-line ctests
#   gpu_check_sanitize EXCLUDE TOOL:SECONDS...  each compute-sanitizer tool over the doctest binary,
#                                 the test cases matching EXCLUDE (doctest's --test-case-exclude;
#                                 empty: none) left out, each bounded by its seconds
#   gpu_check_pack                $out/logs.tar.gz: every folder of $work (logs/, bench/, csv/)
#
# note TEXT prints TEXT and appends it to the summary; stamp TEXT prints a timestamped step.
#
# A benchmark script (the chapter's runs of record: BENCH.sh EXE OUT_DIR) calls
#
#   bench_init CHAPTER EXE OUT_DIR [ARGS...]   ARGS go on every run (counting: --targets)
#   bench_run NAME [ARGS...]                   writes OUT_DIR/NAME.csv and OUT_DIR/NAME.json
#
# and exits with bench_status: a failing run does not stop the others, it sets bench_status to 1.

note() { echo "$*" | tee -a "$summary"; }
stamp() { echo "== [$(date +%H:%M:%S)] $*"; }

# cuda_configure BUILD [CMAKE_ARGS...]: the cuda preset in BUILD (from the repository root),
# with WB_DEPS_DIR=$deps when deps is set.
cuda_configure() {
  local dir=$1
  shift
  local args=(--preset cuda -B "$dir" "$@")
  [ -n "${deps:-}" ] && args+=("-DWB_DEPS_DIR=$deps")
  cmake "${args[@]}"
}

gpu_check_args() {
  chapter=$1
  shift
  root=$(pwd)
  out=${OUT:-$root/gpu-out}
  build="$root/build-cuda"
  deps=""
  [ -d "$root/.carry/include" ] && deps="$root/.carry"
  quick=0
  fresh=0
  rest=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --build) build=$(realpath -m "${2:?--build needs a folder}"); shift 2 ;;
      --fresh) fresh=1; shift ;;
      --deps) deps=$(cd "${2:?--deps needs a folder}" && pwd) || exit 2; shift 2 ;;
      --quick) quick=1; shift ;;
      -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
      *) rest+=("$1"); shift ;;
    esac
  done
  work="$root/gpu-work"
  summary="$out/summary.txt"
}

gpu_check_no_more_args() {
  if [ ${#rest[@]} -gt 0 ]; then
    echo "$(basename "$0"): unknown argument '${rest[0]}' (see --help)" >&2
    exit 2
  fi
}

gpu_check_start() {
  rm -rf "$work"
  mkdir -p "$out" "$work/logs"
  : >"$summary"
  note "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>/dev/null)"
  note "nvcc: $(nvcc --version | tail -1); cmake: $(cmake --version | head -1)"
  note "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' (uncommitted changes)')"
  note "build folder: $build"
}

gpu_check_build() {
  stamp build
  [ $fresh -eq 1 ] && rm -rf "$build"
  if ! { cuda_configure "$build" && cmake --build "$build" -j "$(nproc)" --target "$@"; } >"$work/logs/build.log" 2>&1; then
    tail -30 "$work/logs/build.log"
    note "build: FAILED"
    gpu_check_pack
    exit 1
  fi
  note "build: ok"
  dir="$build/chapters/$chapter"
}

gpu_check_tests() {
  stamp tests
  timeout "${TEST_TIMEOUT:-900}" "$dir/${chapter}_tests" >"$work/logs/tests.log" 2>&1
  note "tests: $(tail -1 "$work/logs/tests.log")"
  grep -E "ERROR|skipped" "$work/logs/tests.log" | head -20
  (cd "$build" && ctest -L "$chapter" -LE "selfcheck|exercises" -E "${chapter}_tests" >"$work/logs/cli_tests.log" 2>&1)
  note "command-line tests: $(grep -E 'tests passed' "$work/logs/cli_tests.log")"
}

gpu_check_sanitize() {
  local exclude=$1 spec tool limit rc extra
  shift
  for spec in "$@"; do
    tool=${spec%%:*}
    limit=${spec##*:}
    stamp "$tool: the fixed stages"
    extra=()
    [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
    local filter=()
    [ -n "$exclude" ] && filter=("--test-case-exclude=$exclude")
    timeout "$limit" compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 \
      "$dir/${chapter}_tests" "${filter[@]}" >"$work/logs/${tool}_fixed.log" 2>&1
    rc=$?
    note "$tool, fixed stages (rc $rc$([ $rc -eq 124 ] && echo ', timed out')): $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$work/logs/${tool}_fixed.log" | tail -1) $(tail -1 "$work/logs/${tool}_fixed.log" | grep -E 'passed')"
  done
}

gpu_check_pack() {
  local folders=()
  for f in logs bench csv; do [ -d "$work/$f" ] && folders+=("$f"); done
  tar -czf "$out/logs.tar.gz" -C "$work" "${folders[@]}"
}

bench_status=0

bench_init() {
  bench_chapter=${1:?bench_init CHAPTER EXE OUT_DIR}
  bench_exe=${2:?bench_init CHAPTER EXE OUT_DIR}
  bench_out=${3:?bench_init CHAPTER EXE OUT_DIR}
  shift 3
  bench_common=("$@")
  mkdir -p "$bench_out"
}

bench_run() {
  local name=${1:?bench_run NAME [ARGS...]}
  shift
  echo "== $bench_chapter $*"
  mkdir -p "$(dirname "$bench_out/$name")"
  "$bench_exe" "$@" "${bench_common[@]}" --csv "$bench_out/$name.csv" --json "$bench_out/$name.json" || bench_status=1
  echo
}
