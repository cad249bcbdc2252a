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
// GB/s counts the bytes a scan must move: n items read and n items written.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "data.hpp"
#include "scan.hpp"
#include "stages.hpp"
#include "trace.hpp"
#include "wb/bandwidth.hpp"
#include "wb/chapter_app.hpp"
#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#if defined(WB_HAVE_BASELINE)
#include "baseline_cub.hpp"
#endif

namespace {

using namespace scan;

inline constexpr wb::backend_default default_n{std::int64_t{1} << 28, std::int64_t{1} << 16};

struct options {
  wb::common_options common;
  std::int64_t n = -1;  // -1: the default for this backend
  std::string type = "int32";
  std::string dist = "uniform";
  config cfg;
  bool trace = false;
  std::string svg;
  wb::input_options input;
};

template <class T>
std::string value_text(T v) {
  if constexpr (std::is_integral_v<T>) return fmt::format("{}", v);
  else return fmt::format("{:.9g}", v);
}

// The chapter's traits for the driver (wb/chapter.hpp): the prefix sums of one input.
template <class T>
class scan_chapter {
 public:
  using output = std::vector<T>;

  scan_chapter(const options& opt, std::vector<T> data, std::string source)
      : opt_(opt), data_(std::move(data)), n_(std::ssize(data_)), source_(std::move(source)), d_in_(data_),
        d_out_(data_.size()), ws_(n_, opt.cfg) {
    // The specification: the solution's stage 0; for floats, prefix sums in double and of |x|.
    if constexpr (std::is_integral_v<T>) {
      exact_.resize(data_.size());
      solution::scan_sequential<T>(std::span<const T>(data_), std::span<T>(exact_), opt_.cfg.exclusive);
    } else {
      value_.resize(data_.size());
      prefix_abs_.resize(data_.size());
      double running = 0, running_abs = 0;
      for (std::size_t i = 0; i < data_.size(); ++i) {
        if (opt_.cfg.exclusive) value_[i] = running;
        running += data_[i];
        running_abs += std::fabs(static_cast<double>(data_[i]));
        if (!opt_.cfg.exclusive) value_[i] = running;
        prefix_abs_[i] = running_abs;
      }
      depth_ = std::max<std::int64_t>(rounding_depth(n_), 1);
    }
  }

  std::string title() const {
    return fmt::format("scan: {} of {} {} ({}), block {}, items per thread {}",
                       opt_.cfg.exclusive ? "exclusive scan" : "inclusive scan", n_, opt_.type, source_, opt_.cfg.block,
                       opt_.cfg.items_per_thread > 0 ? std::to_string(opt_.cfg.items_per_thread) : "stage default");
  }
  wb::report_layout layout() const { return wb::report_layout::bandwidth(wb::copy_bandwidth_gbs()); }

  wb::stage_job<output> job(const wb::stage& s, wb::track t) {
    if (s.number == 0) {
      auto out = std::make_shared<output>(data_.size());
      return wb::host_job<output>(
          [this, t, out] {
            std::fill(out->begin(), out->end(), T(-1));
            WB_WITH_TRACK(scan, t, { tr::scan_sequential<T>(std::span<const T>(data_), std::span<T>(*out), opt_.cfg.exclusive); });
          },
          [out] { return *out; });
    }
    auto job = wb::device_job<output>(
        [this, t, number = s.number] {
          const workspace ws = ws_.view();
          const config& cfg = opt_.cfg;
          WB_WITH_TRACK(scan, t, {
            switch (number) {
              case 1: return tr::scan_kogge_stone<T>(d_in_.data(), d_out_.data(), n_, ws, cfg);
              case 2: return tr::scan_brent_kung<T>(d_in_.data(), d_out_.data(), n_, ws, cfg);
              case 3: return tr::scan_coarsened<T>(d_in_.data(), d_out_.data(), n_, ws, cfg);
              case 4: return tr::scan_hierarchical<T>(d_in_.data(), d_out_.data(), n_, ws, cfg);
              case 5: return tr::scan_domino<T>(d_in_.data(), d_out_.data(), n_, ws, cfg);
              default: return tr::scan_single_pass<T>(d_in_.data(), d_out_.data(), n_, ws, cfg);
            }
          });
        },
        [this] { return d_out_.to_host(); }, d_out_);
    job.work = 2.0 * static_cast<double>(n_) * sizeof(T);
    job.items = static_cast<double>(n_);
    // Stages 1-3 run on one block, hundreds of times slower: fewer runs past 2^22 items.
    if (s.number <= 3 && n_ > (std::int64_t{1} << 22)) {
      job.warmup = 1;
      job.max_reps = 3;
      job.note = "one block";
    }
    return job;
  }

  std::vector<wb::stage_job<output>> library() {
    std::vector<wb::stage_job<output>> rows;
#if defined(WB_HAVE_BASELINE)
    const std::size_t temp_bytes = baseline::cub_scan_temp_bytes<T>(n_, opt_.cfg.exclusive);
    auto temp = std::make_shared<wb::device_buffer<unsigned char>>(std::max<std::size_t>(temp_bytes, 1));
    auto cub = wb::device_job<output>(
        [this, temp, temp_bytes] {
          baseline::cub_scan<T>(d_in_.data(), d_out_.data(), n_, opt_.cfg.exclusive, temp->data(), temp_bytes);
        },
        [this] { return d_out_.to_host(); }, d_out_);
    cub.name = opt_.cfg.exclusive ? "cub::DeviceScan::ExclusiveSum" : "cub::DeviceScan::InclusiveSum";
    cub.is_baseline = true;
    cub.work = 2.0 * static_cast<double>(n_) * sizeof(T);
    cub.items = static_cast<double>(n_);
    rows.push_back(std::move(cub));
#endif
    return rows;
  }

  // Integers: exact (modulo 2^bits). Floats: within the tolerance of their prefix's |x| sum.
  std::string check(const output& got) const {
    if (got.size() != data_.size()) return fmt::format("{} items instead of {}", got.size(), data_.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      if constexpr (std::is_integral_v<T>) {
        if (got[i] != exact_[i]) return fmt::format("at index {}: expected {}, got {}", i, exact_[i], got[i]);
      } else {
        const double tol = tolerance<T>(prefix_abs_[i], depth_);
        const double error = std::fabs(static_cast<double>(got[i]) - value_[i]);
        if (!(error <= tol)) {
          return fmt::format("at index {}: expected {:.9g}, got {:.9g} (error {:.3g}, tolerance {:.3g})", i, value_[i],
                             got[i], error, tol);
        }
      }
    }
    return "";
  }
  std::string show(const output& out) const { return wb::joined(out, value_text<T>); }
  std::string difference(const output& solution, const output& exercise) const {
    return wb::first_difference(solution, exercise, value_text<T>);
  }

 private:
  const options& opt_;
  std::vector<T> data_;
  std::int64_t n_;
  std::string source_;
  std::vector<T> exact_;           // integers: the scan
  std::vector<double> value_;      // floats: the scan in double
  std::vector<double> prefix_abs_; // floats: |x_0| + ... + |x_i|
  std::int64_t depth_ = 0;
  wb::device_buffer<T> d_in_, d_out_;
  workspace_buffer<T> ws_;
};

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
