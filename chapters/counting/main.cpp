// counting: runs the stages of the distribution counting chapter on one input, checks each
// against the specification (stage 0 when N is small, else stage 2), and prints the report.
//
//   counting                                   10^9 uniform int8 items on a GPU (2^18 on the cpu backend)
//   counting --type int64 --n 2^26 --dist few --distinct 2^20
//   counting --input 3,1,6,2,1,3,6 --print     the article's example, every stage's table
//   counting --stage 6 --compare               your stage 6 against the solution's
//   counting --stage 6 --tune                  stage 6's counter layouts and blocks per SM
//   counting --type int64 --stage 7 --path two-level --phases   stage 7's two-level count, step by step
//   counting --type int64 --dist mixture --hot-share 0.5 --stage 7   hot keys and a long tail
//
// The O(N^2) stages (0, 1, 3, 4) are timed on a small sample first (estimate.hpp); when the
// estimate for the whole input is too long, the row says "refused" with that estimate.#include <fmt/format.h>

#include "counting_chapter.hpp"
#include "wb/chapter_app.hpp"

namespace {

template <class T>
int run(options& o) {
  constexpr bool int8 = std::is_same_v<T, std::int8_t>;
  // Every check of the command line comes before the input is made (10^9 items by default).
  const bool explicit_input = o.input.given();
  std::int64_t n = o.n >= 0 || explicit_input ? std::max<std::int64_t>(o.n, 0)
                   : wb::backend_is_cuda     ? (int8 ? 1'000'000'000 : std::int64_t{1} << 26)
                                             : std::int64_t{1} << 18;
  if (!explicit_input) counting::require_generable<T>(o.gen, n);
  if (o.gen.sorted && explicit_input) throw wb::usage_error("--sorted sorts generated input, not --input or --input-file");
  // --print shows every stage's table: refused before any work for an input too long to read.
  if (o.common.print && !explicit_input) wb::require_printable(static_cast<std::uint64_t>(n), "the input");
  const std::uint64_t bytes = wb::bytes_for(static_cast<std::uint64_t>(n), sizeof(T) * 3, "the input");
  wb::require_memory(bytes, bytes, "counting");

  std::vector<T> data = explicit_input ? wb::read_input<T>(o.input, o.n >= 0)
                                       : counting::generate<T>(o.gen, static_cast<std::size_t>(n), o.common.seed);
  n = std::ssize(data);
  if (o.common.print) wb::require_printable(static_cast<std::uint64_t>(n), "the input");
  // A chunk longer than the input would only allocate staging buffers nobody fills.
  if (o.chunk > 0) o.cfg.chunk_items = std::min<std::int64_t>(o.chunk, std::max<std::int64_t>(n, 1));
  counting_chapter<T> chapter(o, std::move(data));
  return wb::run_chapter(chapter, counting::stages, o.common);
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  wb::chapter_app app{"Distribution counting: the article's algorithm, fixed, and what a GPU should do instead", o.common};
  CLI::App& cli = app.cli();
  app.size("--n", o.n, "items (e.g. 1000000, 1e9, 2^30); default 10^9 int8 / 2^26 int64 on a GPU, 2^18 on the cpu backend",
           1'000'000'000'000);
  app.type_option<std::int8_t, std::int64_t>(o.type, "item type");
  app.choice("--dist", o.gen.dist, {"uniform", "one-hot", "few", "all-distinct", "zipf", "mixture"},
             "generated data: uniform, one-hot (every item the same), few, all-distinct (int64), zipf, mixture (int64: "
             "hot keys and a tail)");
  wb::add_size_option(cli, "--distinct", o.gen.distinct, "distinct values for --dist few and zipf, e.g. 2^20");
  const std::vector<CLI::Option*> mixture_only = {
      cli.add_option("--hot-share", o.gen.hot_share, "--dist mixture: the share of the items on the hot keys")
          ->check(CLI::Range(0.0, 1.0))
          ->capture_default_str(),
      wb::add_size_option(cli, "--hot-keys", o.gen.hot_keys, "--dist mixture: the hot keys, e.g. 16")->capture_default_str(),
      wb::add_size_option(cli, "--tail-values", o.gen.tail_values,
                          "--dist mixture: the values the tail draws from, e.g. 2^16 (default: every tail item distinct)")};
  cli.add_flag("--sorted", o.gen.sorted, "sort the generated input ascending");
  app.input(o.input, "the items themselves, comma separated (e.g. 3,1,6,2,1,3,6)",
            "read the items from a file (whitespace separated, # comments)");
  cli.add_option("--variant", o.cfg.variant, "stage 6's counter layout: 0 16-bit atomics, 1 16-bit plain, 2 8-bit plain, 3 per-warp")
      ->check(CLI::Range(0, 3));
  cli.add_option("--blocks-per-sm", o.cfg.blocks_per_sm, "stage 6's resident blocks per SM (0: as many as fit)")
      ->check(CLI::Range(0, 32));
  wb::add_size_option(cli, "--chunk", o.chunk, "stage 8's items per transfer (default 2^24)", std::uint64_t{1} << 31)
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 31));
  cli.add_option("--streams", o.cfg.streams, "stage 8's streams")->check(CLI::Range(1, 16))->capture_default_str();
  counting::add_stage7_options(cli, o.stage7);
  cli.add_flag("--tune", o.tune, "stage 6: every counter layout and blocks per SM; stage 7: the automatic choice and every path; stage 8: chunk sizes and streams");
  cli.add_flag("--targets", o.targets, "after the report, the chapter's goals (set for an H100) against this run's times");
  cli.get_option("--print")->description(fmt::format(
      "print every stage's table (inputs of at most {} items)", wb::max_print_elements));
  cli.add_option("--budget", o.budget_s, "seconds an O(N^2) stage may take before it is refused (default 20 on a GPU, 5 on the cpu backend)")
      ->check(CLI::Range(0.0, 1e6));
  app.after_parse([&] {
    for (const CLI::Option* option : mixture_only)
      if (option->count() > 0 && o.gen.dist != "mixture") throw wb::usage_error(option->get_name() + " goes with --dist mixture");
    // Stage 7 estimates the distinct keys itself (cfg.hash.expected_distinct stays 0): --distinct
    // only shapes the generated input.
    o.cfg.hash = o.stage7.resolved();
  });
  app.validate([&] { counting::validate(o.cfg); }, "");  // its messages name their flags
  return app.run<std::int8_t, std::int64_t>(argc, argv, o.type, counting::stages, [&]<class T>() {
    wb::print_device_info_or_exit();
    return run<T>(o);
  });
}
