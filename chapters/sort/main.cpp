// sort: runs the chapter's stages on one input, checks each against the specification
// (stage 0, std::stable_sort), times them and prints the report table.
//
//   sort                                  2^28 uint32 keys on a GPU (2^16 on the cpu backend)
//   sort --pairs --n 2^26                 key-value: each key carries its input position
//   sort --type float --dist few          any key type, many duplicates
//   sort --stage 3 --bits 8               stage 3 with 8-bit digits
//   sort --input 3,1,2 --print            explicit input, one "stage: k0 k1 ..." line each
//   sort --track exercise | --compare     the learner's stages, or both side by side
//
// GB/s counts the bytes a sort must move at least: every key (and value) read once and
// written once, like a copy. Radix sorts move them once per pass, so they stay below that.#include <fmt/format.h>

#include "sort_chapter.hpp"
#include "wb/chapter_app.hpp"

namespace {

template <class K>
int run(const options& opt) {
  auto in = wb::vector_input<K>(
      opt.common, opt.input, opt.n, default_n, opt.dist, "a sort of",
      [&](std::size_t n) { return generate<K>(opt.dist, n, opt.common.seed); },
      [&](std::int64_t n) { return 2 * std::uint64_t(n) * (sizeof(K) + (opt.pairs ? 4 : 0)) + workspace_bytes(n, sizeof(K), opt.cfg); },
      [&](std::int64_t n) { return 5 * std::uint64_t(n) * (sizeof(K) + (opt.pairs ? 4 : 0)); });
  if (in.data.size() > 0xffffffffULL && opt.pairs) throw wb::usage_error("--pairs: the values are 32-bit positions, so n < 2^32");
  wb::print_device_info_or_exit();
  sort_chapter<K> chapter(opt, std::move(in.data), in.source);
  return wb::run_chapter(chapter, stages, opt.common);
}

}  // namespace

int main(int argc, char** argv) {
  options opt;
  wb::chapter_app app{"sort: radix sort and merge sort, stage by stage (PMPP ch. 13, then onesweep at the memory ceiling)", opt.common};
  app.size("--n", opt.n, "keys to sort", std::uint64_t{1} << 36, default_n);
  app.type_option<std::uint32_t, std::int32_t, float, std::int64_t>(
      opt.type, "key type (float: -0.0 before +0.0, NaNs at the end their sign bit names)");
  app.choice("--dist", opt.dist, {"uniform", "few", "equal", "sorted", "reversed", "extremes"},
             "generated keys: uniform (the whole range), few (16 distinct values), equal, sorted, reversed, extremes "
             "(the type's extremes and neighbours)");
  app.cli().add_flag("--pairs", opt.pairs, "key-value: each key carries a 32-bit value (its input position)");
  wb::add_size_option(app.cli(), "--block", opt.cfg.block,
                      "threads per block: a power of two from 32 to 1024 (stage 6: 32, 64, 256 or 512, each a "
                      "compiled shape, see the README)")
      ->capture_default_str();
  wb::add_size_option(app.cli(), "--items-per-thread", opt.cfg.items_per_thread,
                      "keys per thread of stage 4: a power of two from 1 to 16 (0: its default; stages 5 and 6 run "
                      "their own tile shapes)")
      ->capture_default_str();
  app.cli().add_option("--bits", opt.cfg.bits, "digit width of stages 3 and 4: 1, 2, 4 or 8 (0: 4)")->capture_default_str();
  app.input(opt.input, "explicit keys, comma separated (instead of --n/--dist); empty: no keys",
            "explicit keys, whitespace-separated numbers in a file");
  app.validate([&] { validate(opt.cfg); }, "--block/--items-per-thread/--bits");
  app.after_parse([&] {  // stage 6 runs compiled shapes only
    if (!wb::stage_selected(opt.common.stages, 6, stages[6].suite)) return;
    try {
      merge_tiles_for(opt.cfg, opt.type == "int64" ? 8 : 4, opt.pairs);
    } catch (const std::invalid_argument&) {
      throw wb::usage_error(fmt::format("--block {}: stage 6 is compiled for blocks 32, 64, 256 and 512 only", opt.cfg.block));
    }
  });
  return app.run<std::uint32_t, std::int32_t, float, std::int64_t>(argc, argv, opt.type, stages,
                                                                  [&]<class K>() { return run<K>(opt); });
}
