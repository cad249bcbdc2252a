# Sourced by each chapter's benchmarks.sh: one run of the chapter's executable per table.
#
#   source common/scripts/bench_lib.sh
#   bench_init CHAPTER EXE OUT_DIR [ARGS...]   ARGS go on every run (counting: --targets)
#   bench_run NAME [ARGS...]                   writes OUT_DIR/NAME.csv and OUT_DIR/NAME.json
#
# A failing run does not stop the others; it sets bench_status to 1, which the script exits
# with.
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
