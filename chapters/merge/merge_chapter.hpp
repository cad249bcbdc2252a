// The merge chapter's traits for the driver (wb/chapter.hpp): one merge of A and B. What each row of
// the report runs, the output it brings back and how that output is checked; main.cpp reads the
// command line and hands the input to it.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "wb/bandwidth.hpp"
#include "wb/chapter_app.hpp"
#include "wb/device_buffer.hpp"
#include "wb/mismatch.hpp"
#include "wb/workspace.hpp"

#include "baseline_cub.hpp"
#include "data.hpp"
#include "merge.hpp"
#include "stages.hpp"
#include "trace.hpp"

namespace {

using merge::config;
using merge::problem;
using merge::value_t;

constexpr std::int64_t max_side = std::int64_t{1} << 40;  // per input: anything larger is a typo
constexpr wb::backend_default default_side{std::int64_t{1} << 27, std::int64_t{1} << 16};

struct options {
  wb::common_options common;
  std::int64_t m = -1;  // -1: the default for this backend
  std::int64_t n = -1;
  std::string type = "int32";
  std::string dist = "uniform";
  config cfg;
  bool key_value = false;
  std::string a_list, b_list, a_file, b_file;
  bool a_given = false, b_given = false;  // --a or --a-file: the user's input, even when empty
  bool a_from_file = false, b_from_file = false;
  bool trace = false;
  std::string svg;  // --svg FILE: the traced merge path as a picture
  bool sweep = false;
};

// An input the user gave: a list (--a '' is an empty list) or a file, checked sorted.
template <class K>
std::vector<K> explicit_input(const std::string& list, const std::string& file, bool from_file, const char* name) {
  std::vector<K> keys = from_file ? wb::read_numbers_file<K>(file) : wb::parse_list<K>(list, std::string("--") + name);
  if (const std::int64_t bad = merge::first_unsorted(keys); bad >= 0) {
    const auto at = static_cast<std::size_t>(bad);
    throw wb::usage_error(fmt::format("input {} is not sorted: {}[{}] = {} comes after {}[{}] = {} (a merge needs "
                                      "both inputs in non-decreasing order)",
                                      name, name, bad, keys[at], name, bad - 1, keys[at - 1]));
  }
  if (static_cast<std::int64_t>(keys.size()) > max_side) throw wb::usage_error(fmt::format("input {} is too large", name));
  return keys;
}

// The co-rank of every k in [0, m+n] against the stable split conditions, which pin it down
// uniquely: A[i-1] <= B[j] and B[j-1] < A[i], i + j = k.
template <class K>
std::string check_co_ranks(const std::vector<K>& A, const std::vector<K>& B, const std::vector<std::int64_t>& i_of_k) {
  const auto m = static_cast<std::int64_t>(A.size());
  const auto n = static_cast<std::int64_t>(B.size());
  for (std::int64_t k = 0; k <= m + n; ++k) {
    const std::int64_t i = i_of_k[static_cast<std::size_t>(k)];
    const std::int64_t j = k - i;
    const bool in_range = i >= 0 && i <= m && j >= 0 && j <= n;
    if (!in_range || (i > 0 && j < n && !(A[i - 1] <= B[j])) || (j > 0 && i < m && !(B[j - 1] < A[i]))) {
      return fmt::format("co_rank({}) = {} is not the stable split", k, i);
    }
  }
  return "";
}

// The chapter's traits for the driver (wb/chapter.hpp): one merge of A and B.
template <class K>
class merge_chapter {
 public:
  struct output {
    std::vector<K> C;
    std::vector<value_t> C_val;
    std::vector<std::int64_t> i_of_k;  // stage 1: the co-rank of every output rank
  };

  merge_chapter(const options& opt, std::vector<K> A, std::vector<K> B, std::string source)
      : opt_(opt), A_(std::move(A)), B_(std::move(B)), m_(std::ssize(A_)), n_(std::ssize(B_)), source_(std::move(source)) {
    if (opt_.key_value) {
      A_val_ = merge::tag_values(m_, 0);
      B_val_ = merge::tag_values(n_, m_);
    }
    const std::string what = fmt::format("a merge of {} + {} {} keys{}", m_, n_, merge::key_name<K>(), opt_.key_value ? " with values" : "");
    // inputs and output on the device, plus the co-ranks of stage 1; inputs, reference and one output on the host
    wb::require_memory(wb::bytes_for(total(), 2 * item_bytes(), what) + wb::bytes_for(total() + 1, 8, what) + (std::uint64_t{64} << 20),
                       wb::bytes_for(total(), 3 * item_bytes(), what), what);
    d_A_ = wb::device_buffer<K>(A_);
    d_B_ = wb::device_buffer<K>(B_);
    d_C_ = wb::device_buffer<K>(total());
    dev_ = problem<K>{d_A_.data(), m_, d_B_.data(), n_, d_C_.data()};
    if (opt_.key_value) {
      d_A_val_ = wb::device_buffer<value_t>(A_val_);
      d_B_val_ = wb::device_buffer<value_t>(B_val_);
      d_C_val_ = wb::device_buffer<value_t>(total());
      dev_.A_val = d_A_val_.data();
      dev_.B_val = d_B_val_.data();
      dev_.C_val = d_C_val_.data();
    }
    // The reference: stage 0 of the solution (itself checked against std::merge in its row).
    ref_.C.resize(total());
    ref_.C_val.resize(opt_.key_value ? total() : 0);
    merge::solution::merge_sequential_host(host_problem(ref_));
  }

  std::string title() const {
    return fmt::format("merge of m = {} and n = {} {} keys{} ({}), {}", m_, n_, merge::key_name<K>(),
                       opt_.key_value ? " with int32 values" : "", source_,
                       opt_.common.compare ? "exercise and solution tracks" : opt_.common.track + " track");
  }
  wb::report_layout layout() const { return wb::report_layout::bandwidth(wb::copy_bandwidth_gbs()); }
  wb::stage_job<output> job(const wb::stage& s, wb::track t) { return job(s, t, opt_.cfg); }

  wb::stage_job<output> job(const wb::stage& s, wb::track t, const config& cfg) {
    wb::stage_job<output> job;
    if (s.number == 0) {  // on the host; the specification is checked against std::merge too
      auto out = std::make_shared<output>();
      job = wb::host_job<output>(
          [this, t, out] {
            out->C.assign(total(), K{});
            out->C_val.assign(opt_.key_value ? total() : 0, 0);
            WB_WITH_TRACK(merge, t, { tr::merge_sequential_host(host_problem(*out)); });
          },
          [out] { return *out; });
      job.check = [this](const output& got) { return check_sequential(got); };
      job.long_stage.single_run_above_s = 1;
    } else if (s.number == 1) {  // every co-rank at once: m + n + 1 binary searches
      if (total() + 1 > (std::uint64_t{1} << 29)) throw wb::stage_refused("more than 2^29 ranks");
      auto i_of_k = std::make_shared<wb::device_buffer<std::int64_t>>(total() + 1);
      job.prepare = [i_of_k] { i_of_k->fill_bytes(0xA5); };
      job.run = [this, t, i_of_k] { WB_WITH_TRACK(merge, t, { tr::co_rank_device(dev_.A, m_, dev_.B, n_, i_of_k->data()); }); };
      job.output = [i_of_k] { return output{{}, {}, i_of_k->to_host()}; };
      job.items = static_cast<double>(total() + 1);
      job.note = "co_rank of every output rank: one binary search per element";
      job.printed = false;
    } else {
      auto temp = std::make_shared<wb::workspace_buffer>(
          s.number == 6 ? WB_WITH_TRACK(merge, t, { return tr::merge_at_bandwidth_temp_bytes<K>(m_, n_, cfg, opt_.key_value); }) : 0);
      job = wb::device_job<output>(
          [this, t, number = s.number, cfg, temp] {
            const wb::workspace ws = temp->view();
            WB_WITH_TRACK(merge, t, {
              switch (number) {
                case 2: return tr::merge_basic(dev_, cfg);
                case 3: return tr::merge_tiled(dev_, cfg);
                case 4: return tr::merge_circular(dev_, cfg);
                case 5: return tr::merge_coarsened(dev_, cfg);
                default: return tr::merge_at_bandwidth(dev_, ws.bytes, ws.size, cfg);
              }
            });
          },
          [this] { return device_output(); }, d_C_, d_C_val_);
    }
    if (s.number != 1) {
      job.work = 2.0 * static_cast<double>(total()) * static_cast<double>(item_bytes());
      job.items = static_cast<double>(total());
    }
    return job;
  }

  std::vector<wb::stage_job<output>> library() {
    std::vector<wb::stage_job<output>> rows;
#if defined(WB_HAVE_BASELINE)
    auto temp = std::make_shared<wb::device_buffer<unsigned char>>(merge::baseline::cub_temp_bytes(dev_));
    auto cub = wb::device_job<output>([this, temp] { merge::baseline::cub_merge(dev_, temp->data(), temp->size()); },
                                      [this] { return device_output(); }, d_C_, d_C_val_);
    cub.name = opt_.key_value ? "cub::DeviceMerge::MergePairs" : "cub::DeviceMerge::MergeKeys";
    cub.is_baseline = true;
    cub.work = 2.0 * static_cast<double>(total()) * static_cast<double>(item_bytes());
    cub.items = static_cast<double>(total());
    // CUB documents its merge as unstable: the keys must match; the values are told apart.
    cub.check = [this](const output& got) { return wb::first_mismatch(ref_.C, got.C).value_or(""); };
    cub.remark = [this](const output& got) { return opt_.key_value && got.C_val == ref_.C_val ? "values stable too" : ""; };
    rows.push_back(std::move(cub));
#endif
    return rows;
  }

  std::string check(const output& got) const {
    if (!got.i_of_k.empty()) return check_co_ranks(A_, B_, got.i_of_k);
    return difference(ref_, got);
  }
  std::string show(const output& out) const {
    if (!opt_.key_value) return fmt::format("{}", fmt::join(out.C, " "));
    return fmt::format("{} | values: {}", fmt::join(out.C, " "), fmt::join(out.C_val, " "));
  }
  std::string difference(const output& expected, const output& got) const {
    if (auto keys = wb::first_mismatch(expected.C, got.C)) return *keys;
    if (auto values = wb::first_mismatch(expected.C_val, got.C_val)) return "values " + *values;
    return wb::first_mismatch(expected.i_of_k, got.i_of_k).value_or("");
  }

  // For the coarsening sweep (sweep.hpp).
  const problem<K>& device_problem() const { return dev_; }
  std::int64_t m() const { return m_; }
  std::int64_t n() const { return n_; }
  const std::string& source() const { return source_; }

 private:
  std::uint64_t total() const { return static_cast<std::uint64_t>(m_ + n_); }
  std::uint64_t item_bytes() const { return sizeof(K) + (opt_.key_value ? sizeof(value_t) : 0); }

  problem<K> host_problem(output& out) const {
    problem<K> p{A_.data(), m_, B_.data(), n_, out.C.data()};
    if (opt_.key_value) {
      p.A_val = A_val_.data();
      p.B_val = B_val_.data();
      p.C_val = out.C_val.data();
    }
    return p;
  }
  std::string check_sequential(const output& got) const {
    std::vector<K> keys(total());
    std::merge(A_.begin(), A_.end(), B_.begin(), B_.end(), keys.begin());
    if (auto wrong = wb::first_mismatch(keys, got.C)) return "vs std::merge " + *wrong;
    return difference(ref_, got);
  }
  output device_output() const { return output{d_C_.to_host(), d_C_val_.to_host(), {}}; }

  const options& opt_;
  std::vector<K> A_, B_;
  std::vector<value_t> A_val_, B_val_;
  std::int64_t m_, n_;
  std::string source_;
  output ref_;
  wb::device_buffer<K> d_A_, d_B_, d_C_;
  wb::device_buffer<value_t> d_A_val_, d_B_val_, d_C_val_;
  problem<K> dev_;
};

}  // namespace
