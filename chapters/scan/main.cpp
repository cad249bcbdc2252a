// scan: runs the chapter's stages on one input, checks each against the sequential
// specification (stage 0), times them and prints the report table.
//
//   scan                                   2^28 int32 on a GPU (2^16 on the cpu backend), inclusive
//   scan --type float --exclusive          any type, the exclusive scan
//   scan --stage 4,6 --block 512 --n 2^24  some stages, another block size and size
//   scan --input 3,1,4,1,5 --print         explicit input, one "stage: v0 v1 ..." line each
//   scan --input 1,2,3,4,5,6,7,8 --trace   Kogge-Stone's and Brent-Kung's steps, thread by thread
//   scan --input 1,2,3 --trace --svg steps.svg   and their picture
//   scan --track exercise | --compare      the learner's stages, or both side by side
//
// GB/s counts the bytes a scan must move: n items read and n items written.#include <fmt/format.h>

#include "scan_chapter.hpp"
#include "wb/chapter_app.hpp"

namespace {

template <class T>
int run(const options& opt) {
  // The input. An explicit empty list is an empty input.
  if (!opt.input.given()) require_traceable(opt.trace, wb::size_or(opt.n, default_n));
  auto in = wb::vector_input<T>(
      opt.common, opt.input, opt.n, default_n, opt.dist, "a scan of",
      [&](std::size_t n) { return generate<T>(opt.dist, n, opt.common.seed); },
      [&](std::int64_t n) { return 2 * std::uint64_t(n) * sizeof(T) + workspace_bytes(n, sizeof(T), opt.cfg); },
      [](std::int64_t n) { return std::uint64_t(n) * sizeof(T) * (std::is_floating_point_v<T> ? 7 : 3); });
  require_traceable(opt.trace, std::ssize(in.data));
  if (opt.trace) return trace<T>(in.data, opt.type, opt.svg, wb::track_name(wb::track_named(opt.common.track)));
  wb::print_device_info_or_exit();
  scan_chapter<T> chapter(opt, std::move(in.data), in.source);
  return wb::run_chapter(chapter, stages, opt.common);
}

}  // namespace

int main(int argc, char** argv) {
  options opt;
  wb::chapter_app app{"scan: prefix sums, stage by stage (PMPP ch. 11, then a single pass at the memory ceiling)", opt.common};
  app.size("--n", opt.n, "items to scan", std::uint64_t{1} << 36, default_n);
  app.type_option<std::int32_t, std::int64_t, float>(opt.type, "item type (integers wrap: int32 modulo 2^32, int64 modulo 2^64)");
  app.choice("--dist", opt.dist, {"uniform", "zeros", "alternating", "extremes", "iota"},
             "generated data: uniform, zeros, alternating (+7, -7, ...), extremes (integers: INT_MIN/INT_MAX and neighbours), iota");
  wb::add_size_option(app.cli(), "--block", opt.cfg.block, "threads per block: a power of two from 32 to 1024")->capture_default_str();
  wb::add_size_option(app.cli(), "--items-per-thread", opt.cfg.items_per_thread,
                      "items per thread of stages 3-6: a power of two from 16/sizeof(item) to 32 (0: each stage's default)")
      ->capture_default_str();
  app.cli().add_flag("--exclusive", opt.cfg.exclusive, "the exclusive scan (out[i] = in[0] + ... + in[i-1]) instead of inclusive");
  app.trace(opt.trace, &opt.svg, "for at most 32 items: Kogge-Stone's and Brent-Kung's steps, thread by thread",
            "with --trace: also draw both scans' steps to this SVG file");
  app.input(opt.input, "explicit input, comma separated (instead of --n/--dist); empty: no items",
            "explicit input, whitespace-separated numbers in a file");
  app.validate([&] { validate(opt.cfg, opt.type == "int64" ? 8 : 4); }, "--block/--items-per-thread");
  return app.run<std::int32_t, std::int64_t, float>(argc, argv, opt.type, stages, [&]<class T>() { return run<T>(opt); });
}
