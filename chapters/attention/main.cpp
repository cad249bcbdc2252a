// attention: O = softmax(Q K^T / sqrt(d) + mask) V, every stage of the chapter on one problem,
// checked against a double-precision reference within the error bound, timed.
//
//   attention                                  b 4, h 16, seq 4096, d 128 on a GPU (1, 2, 64, 32 on
//                                              the cpu backend): stages 0-5 (TFLOP/s), stage 6 (GB/s)
//   attention --causal --seq 8192 --stage 2,3
//   attention --stage 6 --batch 8 --kv-seq 131072 --type bf16    decoding one token
//   attention --seq 2 --dim 1 --q 0,0 --k 0,0 --v 1,3 --causal --print      the user's Q, K, V
//   attention --seq 40 --kv-seq 70 --dim 4 --causal --trace       who owns which queries and tiles
//   attention --causal --trace --svg tiling.svg                    the same, drawn
//   attention --track exercise | --compare     your stages, or yours beside the solution's
//
// The options are read here; everything else is attention_chapter.hpp (the traits of the two tables) and
// trace.cpp, trace_svg.cpp.
#include <fmt/format.h>

#include "attention_chapter.hpp"
#include "options.hpp"
#include "stages.hpp"
#include "trace.hpp"
#include "wb/chapter_app.hpp"

int main(int argc, char** argv) {
  using namespace attention;
  options opt;
  wb::chapter_app app{
      "attention: softmax(Q K^T / sqrt(d)) V from three kernels to FlashAttention-2's tiling, the tensor "
      "cores and Flash-Decoding, stage by stage, checked against a double-precision reference and timed",
      opt.common};
  CLI::App& cli = app.cli();
  app.size("--batch", opt.batch, "sequences (default 4 on a GPU, 1 on the cpu backend)", std::uint64_t{1} << 20);
  app.size("--heads", opt.heads, "heads per sequence (default 16; 2 on the cpu backend)", std::uint64_t{1} << 20);
  app.size("--seq", opt.seq, "queries per (batch, head) (default 4096; 64 on the cpu backend; 1 when stage 6 runs alone)",
           std::uint64_t{1} << 31);
  app.size("--kv-seq", opt.kv_seq, "keys and values per (batch, head) (default: --seq; 32768 when stage 6 runs alone)",
           std::uint64_t{1} << 31);
  app.size("--dim", opt.dim, "d, the length of each row: 1 to 256 (default 128; 32 on the cpu backend)",
           static_cast<std::uint64_t>(max_dim));
  cli.add_flag("--causal", opt.causal, "the causal mask, bottom-right aligned: query i sees keys j <= i + kv_seq - seq");
  cli.add_option("--type", opt.type, "K and V: fp32 (stages 0-3 and 6) or bf16 (stages 4, 5 and 6); default: each stage's own")
      ->check(CLI::IsMember({"fp32", "bf16"}));
  for (auto [name, list, file] : {std::tuple{"q", &opt.q_list, &opt.q_file}, std::tuple{"k", &opt.k_list, &opt.k_file},
                                  std::tuple{"v", &opt.v_list, &opt.v_file}}) {
    const std::string upper(1, static_cast<char>(name[0] - 'a' + 'A'));
    cli.add_option(fmt::format("--{}", name), *list, upper + " as a list, [batch][head][position][dim] (with --seq and --dim)")
        ->excludes(cli.add_option(fmt::format("--{}-file", name), *file, upper + " from a file of whitespace-separated numbers"));
  }
  app.size("--chunk", opt.chunk, "stage 6: keys per split (default: enough splits to fill the GPU)", std::uint64_t{1} << 31);
  cli.add_option("--peak-fp32", opt.peak_fp32, "the GPU's fp32 peak in TFLOP/s, for '% of peak'")->capture_default_str();
  app.trace(opt.trace, &opt.svg,
            fmt::format("for at most {} query and {} key rows, {} heads: which block and warp of stages 2, 3 and 6 owns "
                        "which queries, which K/V tiles each streams, the running max and sum per tile",
                        max_trace_seq, max_trace_seq, max_trace_heads),
            "with --trace: draw stage 3's tiling and query 0's online softmax as an SVG file");
  cli.get_option("--print")->description(
      fmt::format("print each stage's O row-major on one line (O of at most {} values)", wb::max_print_elements));
  app.after_parse([&] {
    opt.q_from_file = app.given("--q-file");
    opt.k_from_file = app.given("--k-file");
    opt.v_from_file = app.given("--v-file");
    opt.q_given = app.given("--q") || opt.q_from_file;
    opt.k_given = app.given("--k") || opt.k_from_file;
    opt.v_given = app.given("--v") || opt.v_from_file;
  });
  return app.run(argc, argv, stages, [&]() -> int {
    const stage_selection selected = select_stages(opt);
    const problem_input in = make_input(opt, selected);  // sizes, --print and memory checked before any work
    if (opt.trace) check_trace_size(in.d);
    wb::print_device_info_or_exit();
    if (opt.trace) return trace(opt, in);
    return run(opt, in, selected);
  });
}
