// reduction: runs the chapter's stages on one input, checks each against the sequential
// specification (stage 0), times them and prints the report table.
//
//   reduction                                  2^28 int32 on a GPU (2^22 on the cpu backend)
//   reduction --type float --dist equal        any type and distribution
//   reduction --stage 4,5 --block 512          some stages, another block size
//   reduction --sweep-block                    every block size 32..1024, the best per stage
//   reduction --input 1,2,3 --print            explicit input, one "stage: sum" line each
//   reduction --track exercise | --compare     the learner's stages, or both side by side
//   reduction --input 3,1,4,1,5 --trace --svg tree.svg
//                                              one block's tree, thread by thread, and its picture
//
// GB/s counts the bytes a sum must read: n * sizeof(T).#include <fmt/format.h>

#include "reduction_chapter.hpp"
#include "sweep.hpp"
#include "trace.hpp"
#include "wb/chapter_app.hpp"

namespace {

template <class T>
int run(const options& opt) {
  // --trace draws every thread: refused before any work when the picture would be too large.
  const std::string too_large = fmt::format(
      "--trace draws every thread: give at most {} items and --block at most {}", max_trace_items, max_trace_block);
  if (opt.trace && opt.sweep_block) throw wb::usage_error("--trace and --sweep-block: give one");
  if (opt.trace && (opt.cfg.block > max_trace_block || (!opt.input.given() && (opt.n < 0 || opt.n > std::int64_t(max_trace_items))))) {
    throw wb::usage_error(too_large);
  }
  // The input: the one given (an empty list or file is an empty input, whose sum is 0), or generated data.
  auto in = wb::vector_input<T>(
      opt.common, opt.input, opt.n, default_n, opt.dist, "a sum of",
      [&](std::size_t n) { return generate<T>(opt.dist, n, opt.common.seed); },
      [](std::int64_t n) { return std::uint64_t(n) * sizeof(T) + (max_blocks + 16) * sizeof(sum_t<T>); },
      [](std::int64_t n) { return std::uint64_t(n) * sizeof(T); });
  if (opt.trace && in.data.size() > max_trace_items) throw wb::usage_error(too_large);
  wb::print_device_info_or_exit();
  reduction_chapter<T> chapter(opt, std::move(in.data), in.source);
  if (opt.trace) return trace(chapter, opt);
  if (opt.sweep_block) return sweep_block(chapter, opt);
  return wb::run_chapter(chapter, stages, opt.common);
}

}  // namespace

int main(int argc, char** argv) {
  options opt;
  wb::chapter_app app{"reduction: the sum of n items, stage by stage (The CUDA Handbook §12.2, then past it)", opt.common};
  app.size("--n", opt.n, "items to sum", std::uint64_t{1} << 40, default_n);
  app.type_option<std::int32_t, std::int64_t, float, double>(opt.type, "item type (int32 sums in 64 bits)");
  app.choice("--dist", opt.dist, {"uniform", "few", "equal", "extremes", "zipf", "iota"},
             "generated data: uniform, few (16 distinct), equal (int32: INT_MAX), extremes (integers), zipf, iota (shuffled)");
  wb::add_size_option(app.cli(), "--block", opt.cfg.block, "threads per block: a power of two from 32 to 1024")->capture_default_str();
  wb::add_size_option(app.cli(), "--blocks", opt.cfg.blocks, "blocks of the first pass (default 0: enough to fill the GPU once)")
      ->capture_default_str();
  app.cli().add_flag("--sweep-block", opt.sweep_block, "time every block size 32..1024 for each stage, print the best");
  app.input(opt.input, "explicit input, comma separated (instead of --n/--dist); '' is the empty input",
            "explicit input, whitespace-separated numbers in a file ('#' starts a comment; an empty file is the empty input)");
  app.trace(opt.trace, &opt.svg,
            fmt::format("for at most {} items: the tree of stages 1 and 2 in one block (--block {} unless given, at most {}), "
                        "thread by thread, and the device's sums for that block",
                        max_trace_items, default_trace_block, max_trace_block),
            "with --trace: also draw the tree to this SVG file");
  app.cli().get_option("--print")->description(
      fmt::format("print each stage's sum on one line (inputs of at most {} items)", wb::max_print_elements));
  app.after_parse([&] {
    if (opt.trace && !app.given("--block")) opt.cfg.block = default_trace_block;
  });
  app.validate([&] { validate(opt.cfg); }, "--block/--blocks");
  return app.run<std::int32_t, std::int64_t, float, double>(argc, argv, opt.type, stages,
                                                            [&]<class T>() { return run<T>(opt); });
}
