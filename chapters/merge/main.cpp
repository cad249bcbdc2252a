// merge: every stage of the chapter on one input, checked against stage 0, timed, reported.
//
//   merge                                   all stages, default size, the solution track
//   merge --stage 2,6 --m 1000 --n 37 --type int64 --dist duplicates --key-value
//   merge --a 1,3,5 --b 2,4 --print --trace  a tiny input: outputs and the book's picture
//   merge --a 1,3,5 --b 2,4 --trace --svg path.svg   ... and the merge path drawn as an SVG
//   merge --track exercise                  your stages;  --compare: yours beside the solution's
//   merge --sweep --csv sweep.csv           thread coarsening (§12.8): items per thread, tile
//                                           sizes and stage-6 shapes, with the co-rank cost
//
// GB/s counts every element read once and written once: 2 * (m + n) * sizeof(key), plus the
// same for the 4-byte values of a key-value merge.#include <fmt/format.h>

#include "merge_chapter.hpp"
#include "sweep.hpp"
#include "wb/chapter_app.hpp"

namespace {

template <class K>
int run(const options& opt) {
  wb::print_device_info_or_exit();
  std::vector<K> A, B;
  std::string source;
  if (opt.a_given || opt.b_given) {
    if (opt.m >= 0 || opt.n >= 0) throw wb::usage_error("--m/--n size generated inputs; they do not go with --a/--b");
    A = explicit_input<K>(opt.a_list, opt.a_file, opt.a_from_file, "A");
    B = explicit_input<K>(opt.b_list, opt.b_file, opt.b_from_file, "B");
    source = "given";
  } else {
    const auto d = merge::parse_distribution(opt.dist);
    if (!d) throw wb::usage_error("--dist: '" + opt.dist + "' is not a distribution");
    A = merge::sorted_keys<K>(wb::size_or(opt.m, default_side), *d, opt.common.seed, 0);
    B = merge::sorted_keys<K>(wb::size_or(opt.n, default_side), *d, opt.common.seed, 1);
    source = opt.dist;
  }
  const auto total = static_cast<std::int64_t>(A.size() + B.size());
  if (opt.common.print) wb::require_printable(static_cast<std::uint64_t>(total), "the merge of A and B");  // before any work
  // A configuration no kernel stage can run is bad input, refused before any work.
  std::string refused;
  for (int stage = 2; stage <= 6; ++stage) {
    if (!wb::stage_selected(opt.common.stages, stage, merge::stages[static_cast<std::size_t>(stage)].suite)) continue;
    try {
      merge::resolve(stage, opt.cfg, total, sizeof(K), opt.key_value);
      refused.clear();
      break;
    } catch (const std::invalid_argument& e) {
      if (refused.empty()) refused = e.what();
    }
  }
  if (!refused.empty()) throw wb::usage_error("no kernel stage can run with this configuration: " + refused);
  const wb::track track = wb::track_named(opt.common.track);
  if (opt.trace) {
    merge::trace_merge<K>(A, B, opt.cfg, WB_WITH_TRACK(merge, track, { return &tr::co_rank_host<K>; }),
                          wb::track_name(track), opt.svg);
  }
  merge_chapter<K> chapter(opt, std::move(A), std::move(B), source);
  if (opt.sweep) return merge::coarsening_sweep(chapter, opt.common, track, opt.key_value, merge::key_name<K>());
  return wb::run_chapter(chapter, merge::stages, opt.common);
}

}  // namespace

int main(int argc, char** argv) {
  options opt;
  wb::chapter_app app{"merge: PMPP chapter 12, from the sequential merge to a kernel at memory bandwidth. Every stage is "
                      "checked against stage 0 and timed; GB/s counts each element read once and written once.", opt.common};
  CLI::App& cli = app.cli();
  app.size("--m", opt.m, "elements of A", max_side, default_side);
  app.size("--n", opt.n, "elements of B", max_side, default_side);
  app.type_option<std::int32_t, std::int64_t, float>(opt.type, "key type");
  app.choice("--dist", opt.dist, {"uniform", "duplicates", "all-equal", "a-below-b", "b-below-a", "interleaved", "extremes"},
             "input distribution");
  wb::add_size_option(cli, "--block", opt.cfg.block, "threads per block (0: each stage's default)");
  wb::add_size_option(cli, "--tile", opt.cfg.tile, "tile_size of stages 3-4 (0: default 1024)");
  wb::add_size_option(cli, "--items-per-thread", opt.cfg.items_per_thread, "outputs per thread of stages 2, 5, 6 (0: default)");
  wb::add_size_option(cli, "--grid", opt.cfg.grid, "blocks of stages 2-4 (0: from the size)");
  cli.add_flag("--key-value", opt.key_value, "carry an int32 value with every key (stable merge)");
  cli.add_option("--a", opt.a_list, "input A given as a sorted list, e.g. 1,3,5")->excludes(
      cli.add_option("--a-file", opt.a_file, "input A from a file of whitespace-separated sorted numbers"));
  cli.add_option("--b", opt.b_list, "input B given as a sorted list")->excludes(
      cli.add_option("--b-file", opt.b_file, "input B from a file"));
  app.trace(opt.trace, &opt.svg, "print each thread's output range and co-ranks (a tiny input: m + n <= 64)",
            fmt::format("with --trace: also draw the merge path, each stage-2 thread's and stage-3 block's co-rank on "
                        "it, as an SVG picture (int32/int64 keys, at most {} elements in A and {} in B)",
                        merge::max_svg_side, merge::max_svg_side));
  cli.add_flag("--sweep", opt.sweep, "thread-coarsening sweep: items per thread, tile sizes, stage-6 shapes");
  cli.get_option("--print")->description(
      fmt::format("print each stage's output on one line (inputs of at most {} elements in all)", wb::max_print_elements));
  app.after_parse([&] {
    opt.a_from_file = app.given("--a-file");
    opt.b_from_file = app.given("--b-file");
    opt.a_given = app.given("--a") || opt.a_from_file;
    opt.b_given = app.given("--b") || opt.b_from_file;
    if (opt.sweep && opt.common.compare) throw wb::usage_error("--sweep and --compare do not go together");
    if (app.given("--svg") && opt.type == "float") throw wb::usage_error("--svg draws int32 or int64 keys, not float");
  });
  return app.run<std::int32_t, std::int64_t, float>(argc, argv, opt.type, merge::stages,
                                                    [&]<class K>() { return run<K>(opt); });
}
