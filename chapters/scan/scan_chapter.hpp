// The scan chapter's traits for the driver (wb/chapter.hpp): the prefix sums of one input. What each row of
// the report runs, the output it brings back and how that output is checked; main.cpp reads the
// command line and hands the input to it.
#pragma once

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

}  // namespace
