// The sort chapter's traits for the driver (wb/chapter.hpp): one sort of n keys (and values). What each row of
// the report runs, the output it brings back and how that output is checked; main.cpp reads the
// command line and hands the input to it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "data.hpp"
#include "sort.hpp"
#include "stages.hpp"
#include "wb/bandwidth.hpp"
#include "wb/chapter_app.hpp"
#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#if defined(WB_HAVE_BASELINE)
#include "baseline_cub.hpp"
#endif

namespace {

using namespace sort;

inline constexpr wb::backend_default default_n{std::int64_t{1} << 28, std::int64_t{1} << 16};

struct options {
  wb::common_options common;
  std::int64_t n = -1;  // -1: the default for this backend
  std::string type = "uint32";
  std::string dist = "uniform";
  bool pairs = false;
  config cfg;
  wb::input_options input;
};

template <class K>
std::string key_text(K k) {
  if constexpr (std::is_floating_point_v<K>) return fmt::format("{:g}", k);
  else return fmt::format("{}", k);
}

template <class K>
bool same_bits(K a, K b) {
  return std::memcmp(&a, &b, sizeof(K)) == 0;
}

// The chapter's traits for the driver (wb/chapter.hpp): one sort of n keys (and values).
template <class K>
class sort_chapter {
 public:
  struct output {
    std::vector<K> keys;
    std::vector<std::uint32_t> values;
  };

  sort_chapter(const options& opt, std::vector<K> keys, std::string source)
      : opt_(opt), in_{std::move(keys), {}}, n_(std::ssize(in_.keys)), source_(std::move(source)) {
    if (opt_.pairs) {  // each key carries its input position, so an unstable sort shows in the values
      in_.values.resize(in_.keys.size());
      for (std::size_t i = 0; i < in_.values.size(); ++i) in_.values[i] = static_cast<std::uint32_t>(i);
    }
    want_ = in_;
    solution::sort_sequential<K>(std::span<K>(want_.keys), std::span<std::uint32_t>(want_.values));
    d_keys_ = wb::device_buffer<K>(in_.keys);
    d_keys_out_ = wb::device_buffer<K>(in_.keys.size());
    d_values_ = wb::device_buffer<std::uint32_t>(in_.values);
    d_values_out_ = wb::device_buffer<std::uint32_t>(in_.values.size());
    ws_ = std::make_unique<workspace_buffer<K>>(n_, opt_.cfg);
  }

  std::string title() const {
    return fmt::format("sort: {} {} keys{} ({}), block {}, items per thread {}, bits {}", n_, opt_.type,
                       opt_.pairs ? " with 32-bit values" : "", source_, opt_.cfg.block,
                       opt_.cfg.items_per_thread > 0 ? std::to_string(opt_.cfg.items_per_thread) : "stage default",
                       opt_.cfg.bits > 0 ? std::to_string(opt_.cfg.bits) : "stage default");
  }
  wb::report_layout layout() const { return wb::report_layout::bandwidth(wb::copy_bandwidth_gbs()); }

  wb::stage_job<output> job(const wb::stage& s, wb::track t) {
    if (s.number == 0) {
      auto out = std::make_shared<output>();
      return wb::host_job<output>(
          [this, t, out] {
            *out = in_;
            WB_WITH_TRACK(sort, t, { tr::sort_sequential<K>(std::span<K>(out->keys), std::span<std::uint32_t>(out->values)); });
          },
          [out] { return *out; }, 3);
    }
    auto job = wb::device_job<output>(
        [this, t, number = s.number] {
          const workspace ws = ws_->view();
          const config& cfg = opt_.cfg;
          const K* in = d_keys_.data();
          K* out = d_keys_out_.data();
          const std::uint32_t* values_in = opt_.pairs ? d_values_.data() : nullptr;
          std::uint32_t* values_out = opt_.pairs ? d_values_out_.data() : nullptr;
          WB_WITH_TRACK(sort, t, {
            switch (number) {
              case 1: return tr::sort_one_bit<K>(in, out, values_in, values_out, n_, ws, cfg);
              case 2: return tr::sort_coalesced<K>(in, out, values_in, values_out, n_, ws, cfg);
              case 3: return tr::sort_larger_radix<K>(in, out, values_in, values_out, n_, ws, cfg);
              case 4: return tr::sort_coarsened<K>(in, out, values_in, values_out, n_, ws, cfg);
              case 5: return tr::sort_onesweep<K>(in, out, values_in, values_out, n_, ws, cfg);
              default: return tr::sort_merge<K>(in, out, values_in, values_out, n_, ws, cfg);
            }
          });
        },
        [this] { return device_output(); }, d_keys_out_, d_values_out_);
    job.work = bytes();
    job.items = static_cast<double>(n_);
    if (s.number <= 2 && n_ > (std::int64_t{1} << 24)) {  // 32 or 64 passes: fewer runs
      job.warmup = 1;
      job.max_reps = 3;
    }
    if (s.number == 3 || s.number == 4) job.note = fmt::format("{}-bit digits", bits_for(s.number, opt_.cfg));
    return job;
  }

  // CUB's radix sort for stages 1-5 (the baseline), its stable merge sort for stage 6.
  std::vector<wb::stage_job<output>> library() {
    std::vector<wb::stage_job<output>> rows;
#if defined(WB_HAVE_BASELINE)
    using baseline_fn = std::size_t (*)(const K*, K*, const std::uint32_t*, std::uint32_t*, std::int64_t, void*, std::size_t);
    const auto row = [&](const char* name, baseline_fn fn, bool zeros_equal) {
      const std::uint32_t* values_in = opt_.pairs ? d_values_.data() : nullptr;
      std::uint32_t* values_out = opt_.pairs ? d_values_out_.data() : nullptr;
      const std::size_t temp_bytes = fn(d_keys_.data(), d_keys_out_.data(), values_in, values_out, n_, nullptr, 0);
      auto temp = std::make_shared<wb::device_buffer<unsigned char>>(std::max<std::size_t>(temp_bytes, 1));
      auto job = wb::device_job<output>(
          [this, fn, temp, temp_bytes, values_in, values_out] {
            fn(d_keys_.data(), d_keys_out_.data(), values_in, values_out, n_, temp->data(), temp_bytes);
          },
          [this] { return device_output(); }, d_keys_out_, d_values_out_);
      job.name = name;
      job.is_baseline = true;
      job.work = bytes();
      job.items = static_cast<double>(n_);
      // CUB's radix sort takes -0.0 and +0.0 for one key: their order may differ from the chapter's.
      job.check = [this, zeros_equal](const output& got) { return first_error(want_, got, zeros_equal); };
      rows.push_back(std::move(job));
    };
    row(opt_.pairs ? "cub::DeviceRadixSort::SortPairs" : "cub::DeviceRadixSort::SortKeys", &baseline::cub_radix_sort<K>, true);
    row(opt_.pairs ? "cub::DeviceMergeSort::StableSortPairs" : "cub::DeviceMergeSort::StableSortKeys",
        &baseline::cub_merge_sort<K>, false);
#endif
    return rows;
  }

  // Stage 6 is a merge sort: besides the table's ratio to the radix sort, its ratio to CUB's merge sort.
  void after_report(const wb::report& report) {
    const wb::report_row* stage6 = nullptr;
    for (const auto& row : report.rows()) {
      if (row.stage.rfind("6 merge", 0) == 0 && row.time && stage6 == nullptr) stage6 = &row;
      if (row.stage.find("DeviceMergeSort") != std::string::npos && row.time && stage6 != nullptr &&
          stage6->time->median_ms > 0) {
        fmt::print("6 merge against {}: {:.2f}x\n", row.stage, row.time->median_ms / stage6->time->median_ms);
      }
    }
  }

  std::string check(const output& got) const { return first_error(want_, got, false); }
  std::string show(const output& out) const { return wb::joined(out.keys, key_text<K>); }
  std::string difference(const output& solution, const output& exercise) const {
    return wb::first_difference(solution.keys, exercise.keys, key_text<K>, same_bits<K>);
  }

 private:
  double bytes() const { return 2.0 * static_cast<double>(n_) * static_cast<double>(sizeof(K) + (opt_.pairs ? 4 : 0)); }
  output device_output() const { return {d_keys_out_.to_host(), opt_.pairs ? d_values_out_.to_host() : std::vector<std::uint32_t>{}}; }

  // Empty when `got` is `want`, else the first difference. zeros_equal: -0.0 and +0.0 are one key.
  static std::string first_error(const output& want, const output& got, bool zeros_equal) {
    if (got.keys.size() != want.keys.size()) return fmt::format("{} keys instead of {}", got.keys.size(), want.keys.size());
    for (std::size_t i = 0; i < got.keys.size(); ++i) {
      bool zero = false;
      if constexpr (std::is_floating_point_v<K>) zero = zeros_equal && got.keys[i] == 0 && want.keys[i] == 0;
      if (!same_bits(got.keys[i], want.keys[i]) && !zero) {
        return fmt::format("key at index {}: expected {}, got {}", i, key_text(want.keys[i]), key_text(got.keys[i]));
      }
      if (!want.values.empty() && !zero && got.values[i] != want.values[i]) {
        return fmt::format("value at index {}: expected {}, got {} (unstable?)", i, want.values[i], got.values[i]);
      }
    }
    return "";
  }

  const options& opt_;
  output in_, want_;
  std::int64_t n_;
  std::string source_;
  wb::device_buffer<K> d_keys_, d_keys_out_;
  wb::device_buffer<std::uint32_t> d_values_, d_values_out_;
  std::unique_ptr<workspace_buffer<K>> ws_;
};

}  // namespace
