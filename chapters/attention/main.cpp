// attention: O = softmax(Q K^T / sqrt(d) + mask) V, every stage of the chapter on one problem,
// checked against a double-precision reference within the error bound, timed.
//
//   attention                                  b 4, h 16, seq 4096, d 128 on a GPU (1, 2, 64, 32 on
//                                              the cpu backend): stages 0-3 (TFLOP/s), stage 6 (GB/s)
//   attention --causal --seq 8192 --stage 2,3
//   attention --stage 6 --batch 8 --kv-seq 131072 --type bf16    decoding one token
//   attention --seq 2 --dim 1 --q 0,0 --k 0,0 --v 1,3 --causal --print      the user's Q, K, V
//   attention --seq 40 --kv-seq 70 --dim 4 --causal --trace       who owns which queries and tiles
//   attention --track exercise | --compare     your stages, or yours beside the solution's
//
// The options are read here; everything else is chapter.hpp (the traits of the two tables) and
// trace.cpp.
#include <fmt/format.h>

#include "wb/device_info.hpp"

#include "chapter.hpp"
#include "options.hpp"
#include "stages.hpp"
#include "trace.hpp"

int main(int argc, char** argv) {
  using namespace attention;
  CLI::App app{
      "attention: softmax(Q K^T / sqrt(d)) V from three kernels to FlashAttention-2's tiling and "
      "Flash-Decoding, stage by stage, checked against a double-precision reference and timed"};
  options opt;
  wb::add_common_options(app, opt.common);
  wb::add_size_option(app, "--batch", opt.batch, "sequences (default 4 on a GPU, 1 on the cpu backend)",
                      std::uint64_t{1} << 20);
  wb::add_size_option(app, "--heads", opt.heads, "heads per sequence (default 16; 2 on the cpu backend)",
                      std::uint64_t{1} << 20);
  wb::add_size_option(app, "--seq", opt.seq,
                      "queries per (batch, head) (default 4096; 64 on the cpu backend; 1 when stage 6 runs alone)",
                      std::uint64_t{1} << 31);
  wb::add_size_option(app, "--kv-seq", opt.kv_seq,
                      "keys and values per (batch, head) (default: --seq; 32768 when stage 6 runs alone)",
                      std::uint64_t{1} << 31);
  wb::add_size_option(app, "--dim", opt.dim, "d, the length of each row: 1 to 256 (default 128; 32 on the cpu backend)",
                      static_cast<std::uint64_t>(max_dim));
  app.add_flag("--causal", opt.causal, "the causal mask, bottom-right aligned: query i sees keys j <= i + kv_seq - seq");
  app.add_option("--type", opt.type, "K and V: fp32 (stages 0-3 and 6) or bf16 (stage 6); default: each stage's own")
      ->check(CLI::IsMember({"fp32", "bf16"}));
  app.add_option("--q", opt.q_list, "Q as a list, [batch][head][position][dim] (with --seq and --dim)");
  app.add_option("--k", opt.k_list, "K as a list");
  app.add_option("--v", opt.v_list, "V as a list");
  app.add_option("--q-file", opt.q_file, "Q from a file of whitespace-separated numbers");
  app.add_option("--k-file", opt.k_file, "K from a file");
  app.add_option("--v-file", opt.v_file, "V from a file");
  wb::add_size_option(app, "--chunk", opt.chunk, "stage 6: keys per split (default: enough splits to fill the GPU)",
                      std::uint64_t{1} << 31);
  app.add_option("--peak-fp32", opt.peak_fp32, "the GPU's fp32 peak in TFLOP/s, for '% of peak'")->capture_default_str();
  app.add_flag("--trace", opt.trace,
               fmt::format("for at most {} query and {} key rows, {} heads: which block and warp of stages 2, 3 and "
                           "6 owns which queries, which K/V tiles each streams, the running max and sum per tile",
                           max_trace_seq, max_trace_seq, max_trace_heads));
  app.get_option("--print")->description(
      fmt::format("print each stage's O row-major on one line (O of at most {} values)", wb::max_print_elements));
  for (const char* name : {"q", "k", "v"}) {
    app.get_option(fmt::format("--{}", name))->excludes(fmt::format("--{}-file", name));
  }

  return wb::run_main(app, argc, argv, [&]() -> int {
    opt.q_from_file = app.count("--q-file") > 0;
    opt.k_from_file = app.count("--k-file") > 0;
    opt.v_from_file = app.count("--v-file") > 0;
    opt.q_given = app.count("--q") > 0 || opt.q_from_file;
    opt.k_given = app.count("--k") > 0 || opt.k_from_file;
    opt.v_given = app.count("--v") > 0 || opt.v_from_file;
    wb::require_known_stages(opt.common.stages, stages);
    const stage_selection selected = select_stages(opt);
    const problem_input in = make_input(opt, selected);  // sizes, --print and memory checked before any work
    if (opt.trace) check_trace_size(in.d);
    wb::print_device_info_or_exit();
    if (opt.trace) return trace(opt, in);
    return run(opt, in, selected);
  });
}
