// matmul: C = A B, every stage of the chapter on one problem, checked against the exact
// product within the error bound, timed, reported beside cuBLAS.
//
//   matmul                                  4096^3 on a GPU (256^3 on the cpu backend): stages
//                                           0-4 in fp32 beside cublasSgemm, 5-6 in bf16 beside
//                                           cublasGemmEx, two tables
//   matmul --m 8192 --n 8192 --k 8192 --stage 4,6
//   matmul --stage 4 --all-variants         every variant of stage 4 (padded, conflicts, ...)
//   matmul --m 2 --n 2 --k 2 --a 1,2,3,4 --b 5,6,7,8 --print     the user's matrices
//   matmul --m 20 --n 20 --k 8 --trace --stage 4 --svg tiles.svg  who computes and loads what
//   matmul --track exercise | --compare     your stages, or yours beside the solution's
//
// TFLOP/s counts 2 M N K floating-point operations per product.#include <fmt/format.h>

#include "matmul_chapter.hpp"
#include "wb/chapter_app.hpp"

namespace {

// --csv/--json name one file: with both tables the fp32 and bf16 ones get their type in the name.
std::string typed_path(const std::string& path, const char* type, bool both) {
  if (path.empty() || !both) return path;
  const auto dot = path.find_last_of('.');
  const auto slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path + "-" + type;
  return path.substr(0, dot) + "-" + type + path.substr(dot);
}

template <class T>
int run_table(const options& opt, const problem_input& in, std::span<const wb::stage> table, bool both) {
  wb::common_options common = opt.common;
  const char* type = std::is_same_v<T, bf16> ? "bf16" : "fp32";
  common.csv = typed_path(common.csv, type, both);
  common.json = typed_path(common.json, type, both);
  matmul_chapter<T> chapter(opt, in.A, in.B, in.M, in.N, in.K, in.source);
  return wb::run_chapter(chapter, table, common);
}

}  // namespace

int main(int argc, char** argv) {
  options opt;
  wb::chapter_app app{
      "matmul: C = A B from PMPP's first kernel to Hopper's tensor cores, stage by stage, checked against "
      "the exact product and timed beside cuBLAS",
      opt.common};
  CLI::App& cli = app.cli();
  const std::uint64_t max_side = std::uint64_t{1} << 31;
  const wb::backend_default default_side{4096, 256};
  app.size("--m", opt.m, "rows of A and C", max_side, default_side);
  app.size("--n", opt.n, "columns of B and C", max_side, default_side);
  app.size("--k", opt.k, "columns of A, rows of B", max_side, default_side);
  cli.add_option("--type", opt.type, "fp32 (stages 0-4) or bf16 (stages 5-6); default: each stage's own")
      ->check(CLI::IsMember({"fp32", "bf16"}));
  app.choice("--fill", opt.fill, {"uniform", "small-integers", "extremes", "zeros", "identity"},
             "generated A and B: uniform in [-1, 1), small-integers (exact sums), extremes (+-2^-60 .. 2^60), zeros, "
             "identity");
  cli.add_option("--variant", opt.variant, "run this variant of the selected stages (names: variants.hpp, --all-variants)");
  cli.add_flag("--all-variants", opt.all_variants, "one row per variant of each selected stage");
  cli.add_option("--a", opt.a_list, "A given row-major as a list, e.g. 1,2,3,4 (with --m --n --k)")
      ->excludes(cli.add_option("--a-file", opt.a_file, "A from a file of whitespace-separated numbers, row-major"));
  cli.add_option("--b", opt.b_list, "B given row-major as a list")
      ->excludes(cli.add_option("--b-file", opt.b_file, "B from a file"));
  cli.add_flag("--no-library", opt.no_library, "leave out the cuBLAS rows (e.g. under compute-sanitizer)");
  cli.add_option("--peak-fp32", opt.peak_fp32, "the GPU's fp32 peak in TFLOP/s, for '% of peak'")->capture_default_str();
  cli.add_option("--peak-bf16", opt.peak_bf16, "the GPU's dense bf16 tensor-core peak in TFLOP/s")->capture_default_str();
  // --svg's rules depend on the stage and the size (trace.cpp: check_trace_options), so it is declared here.
  app.trace(opt.trace, nullptr,
            fmt::format("for C of at most {} x {}: which block, warp and thread of each selected stage computes which "
                        "outputs and loads which tiles",
                        max_trace_side, max_trace_side));
  cli.add_option("--svg", opt.svg,
                 fmt::format("with --trace: draw the tiling of the first selected stage (grid, block, warp and thread "
                             "tiles) for C of at most {} x {}",
                             max_svg_side, max_svg_side))
      ->type_name("FILE");
  cli.get_option("--print")->description(
      fmt::format("print each stage's C row-major on one line (C of at most {} elements)", wb::max_print_elements));
  app.after_parse([&] {
    opt.a_from_file = app.given("--a-file");
    opt.b_from_file = app.given("--b-file");
    opt.a_given = app.given("--a") || opt.a_from_file;
    opt.b_given = app.given("--b") || opt.b_from_file;
    if (opt.all_variants && !opt.variant.empty()) throw wb::usage_error("--variant and --all-variants: give one");
  });
  return app.run(argc, argv, stages, [&]() -> int {
    const stage_selection selected = select_stages(opt, app.given("--type"));
    if (opt.trace || app.given("--svg")) check_trace_options(opt, app.given("--svg"));
    problem_input in = make_input(opt);  // sizes, --print and memory checked before any work
    wb::print_device_info_or_exit();
    if (opt.trace) return trace(opt, in, selected);
    const bool both = selected.fp32 && selected.bf16;
    int status = 0;
    if (selected.fp32) status = std::max(status, run_table<float>(opt, in, std::span(stages).first(5), both));
    if (selected.bf16) status = std::max(status, run_table<bf16>(opt, in, std::span(stages).subspan(5), both));
    return status;
  });
}
