// The reduction chapter's traits for the driver (wb/chapter.hpp): the sum of one input. What each row of
// the report runs, the output it brings back and how that output is checked; main.cpp reads the
// command line and hands the input to it.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "data.hpp"
#include "reduction.hpp"
#include "stages.hpp"
#include "wb/bandwidth.hpp"
#include "wb/chapter_app.hpp"
#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#if defined(WB_HAVE_BASELINE)
#include "baseline_cub.hpp"
#endif

namespace {

using namespace reduction;

inline constexpr wb::backend_default default_n{std::int64_t{1} << 28, std::int64_t{1} << 22};

struct options {
  wb::common_options common;
  std::int64_t n = -1;  // -1: the default for this backend
  std::string type = "int32";
  std::string dist = "uniform";
  config cfg;
  bool sweep_block = false;
  wb::input_options input;
  bool trace = false;
  std::string svg;
};

template <class T>
std::string value_text(sum_t<T> v) {
  if constexpr (std::is_integral_v<T>) return fmt::format("{}", v);
  else return fmt::format("{:.17g}", v);
}

// The chapter's traits for the driver (wb/chapter.hpp): the sum of one input.
template <class T>
class reduction_chapter {
 public:
  struct output {
    sum_t<T> value{};
    bool written = true;  // false: the device's sum still holds the poison bytes
  };

  reduction_chapter(const options& opt, std::vector<T> data, std::string source)
      : opt_(opt), data_(std::move(data)), n_(std::ssize(data_)), source_(std::move(source)),
        d_in_(data_), d_out_(1), ws_(n_, opt.sweep_block ? config{min_block, opt.cfg.blocks} : opt.cfg) {
    // The specification: the solution's stage 0, and sum|x| for the float tolerance.
    expected_ = solution::sum_sequential<T>(std::span<const T>(data_));
    if constexpr (std::is_floating_point_v<T>) {
      for (const T x : data_) sum_abs_ += std::fabs(static_cast<double>(x));
    }
  }

  std::string title() const {
    return fmt::format("reduction: sum of {} {} ({}), block {}, blocks {}", n_, opt_.type, source_, opt_.cfg.block,
                       opt_.cfg.blocks > 0 ? std::to_string(opt_.cfg.blocks) : "auto");
  }
  wb::report_layout layout() const { return wb::report_layout::bandwidth(wb::copy_bandwidth_gbs()); }
  wb::stage_job<output> job(const wb::stage& s, wb::track t) { return job(s, t, opt_.cfg); }

  wb::stage_job<output> job(const wb::stage& s, wb::track t, const config& cfg) {
    wb::stage_job<output> job;
    if (s.number == 0) {
      auto sum = std::make_shared<sum_t<T>>();
      job = wb::host_job<output>(
          [this, t, sum] { *sum = WB_WITH_TRACK(reduction, t, { return tr::sum_sequential<T>(std::span<const T>(data_)); }); },
          [sum] { return output{*sum, true}; });
      // The specification against itself (or the learner's against the solution's): within
      // one rounding of the correctly rounded sum.
      job.check = [this](const output& got) { return check(got, 2); };
      return job;
    }
    job = wb::device_job<output>(
        [this, t, number = s.number, cfg] {
          const workspace<T> ws = ws_.view();
          WB_WITH_TRACK(reduction, t, {
            switch (number) {
              case 1: return tr::sum_two_pass<T>(d_in_.data(), n_, d_out_.data(), ws, cfg);
              case 2: return tr::sum_warp_synchronous<T>(d_in_.data(), n_, d_out_.data(), ws, cfg);
              case 3: return tr::sum_unrolled<T>(d_in_.data(), n_, d_out_.data(), ws, cfg);
              case 4: return tr::sum_shuffle<T>(d_in_.data(), n_, d_out_.data(), ws, cfg);
              default: return tr::sum_at_bandwidth<T>(d_in_.data(), n_, d_out_.data(), ws, cfg);
            }
          });
        },
        [this] { return device_sum(); }, d_out_);
    job.work = static_cast<double>(n_) * sizeof(T);
    job.items = static_cast<double>(n_);
    job.check = [this, cfg](const output& got) { return check(got, rounding_depth(n_, cfg)); };
    return job;
  }

  std::vector<wb::stage_job<output>> library() {
    std::vector<wb::stage_job<output>> rows;
#if defined(WB_HAVE_BASELINE)
    const std::size_t temp_bytes = baseline::cub_sum_temp_bytes<T>(n_);
    auto temp = std::make_shared<wb::device_buffer<unsigned char>>(temp_bytes);
    auto cub = wb::device_job<output>(
        [this, temp, temp_bytes] { baseline::cub_sum<T>(d_in_.data(), n_, d_out_.data(), temp->data(), temp_bytes); },
        [this] { return device_sum(); }, d_out_);
    cub.name = "cub::DeviceReduce::Sum";
    cub.is_baseline = true;
    cub.work = static_cast<double>(n_) * sizeof(T);
    cub.items = static_cast<double>(n_);
    cub.check = [this](const output& got) { return check(got, std::max<std::int64_t>(n_, 1)); };
    rows.push_back(std::move(cub));
#endif
    return rows;
  }

  // Within the float tolerance for sums whose items each meet at most `depth` roundings.
  std::string check(const output& got, std::int64_t depth = 1) const {
    if (!got.written) return "the sum was never written";
    if constexpr (std::is_integral_v<T>) {
      return got.value == expected_ ? "" : fmt::format("expected {}, got {}", expected_, got.value);
    } else {
      const double tol = tolerance<T>(sum_abs_, depth);
      const double error = std::fabs(static_cast<double>(got.value) - static_cast<double>(expected_));
      if (std::isfinite(static_cast<double>(got.value)) && error <= tol) return "";
      return fmt::format("expected {:.9g}, got {:.9g}: error {:.3g} above the tolerance {:.3g}", expected_, got.value,
                         error, tol);
    }
  }
  std::string show(const output& out) const {
    return out.written ? value_text<T>(out.value) : "nothing (the sum was never written)";
  }
  std::string difference(const output& solution, const output& exercise) const {
    return show(solution) == show(exercise) ? "" : fmt::format("solution {}, exercise {}", show(solution), show(exercise));
  }
  const std::vector<T>& data() const { return data_; }

 private:
  output device_sum() const {
    output out{d_out_.to_host()[0], true};
    sum_t<T> poison;
    std::memset(&poison, 0xA5, sizeof poison);
    out.written = std::memcmp(&out.value, &poison, sizeof poison) != 0;
    return out;
  }

  const options& opt_;
  std::vector<T> data_;
  std::int64_t n_;
  std::string source_;
  sum_t<T> expected_{};
  double sum_abs_ = 0;  // floating point: sum of |x|, for the tolerance
  wb::device_buffer<T> d_in_;
  wb::device_buffer<sum_t<T>> d_out_;
  workspace_buffer<T> ws_;  // for every block size of a sweep when --sweep-block (32 threads: the most blocks)
};

}  // namespace
