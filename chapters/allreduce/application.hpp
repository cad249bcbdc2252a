// allreduce --app histogram | distinct: stage 6, the counting chapter on data split across the
// team's GPUs, against the same counting stage on one GPU with all the data (the baseline
// row: "vs one GPU" is the speed-up). Timed on the host clock: each run waits for every GPU.
// Included by main.cpp.
#pragma once

#include "allreduce_chapter.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wb/chapter.hpp"
#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"

#include "allreduce.hpp"
#include "app.hpp"
#include "options.hpp"
#include "stages.hpp"
#include "team.hpp"

namespace allreduce {

class application_chapter {
 public:
  using output = std::vector<key_count>;  // (value, count), ascending; the histogram's values are -128..127

  application_chapter(team& t, const options& opt) : team_(t), opt_(opt), ws_(t.size()) {
    histogram_ = opt.app == "histogram";
    const std::uint64_t fallback = wb::backend_is_cuda ? (histogram_ ? std::uint64_t{1} << 32 : std::uint64_t{1} << 27)
                                                       : std::uint64_t{1} << 16;
    total_ = static_cast<std::int64_t>(opt.items > 0 ? opt.items : fallback);
    distinct_ = static_cast<std::int64_t>(opt.distinct > 0 ? opt.distinct : std::uint64_t{1} << 20);
    ws_.phases = opt.phases && !histogram_;
    const std::size_t item_bytes = histogram_ ? 1 : 8;
    wb::require_memory(static_cast<std::uint64_t>(total_) * item_bytes * 4, static_cast<std::uint64_t>(total_) * item_bytes * 2,
                       fmt::format("--app {} of {} items", opt.app, total_));
    // Part r: [offset[r], offset[r + 1]) of the items. Rank 0's part is the start of the one-GPU
    // copy of all items (on rank 0's GPU); the other parts are copies on their ranks' GPUs.
    const int G = t.size();
    for (int r = 0; r <= G; ++r) offsets_.push_back(part_begin(r, G, total_));
    if (histogram_) {
      // Uniform bytes, eight from each draw (2^32 items in a few seconds).
      std::vector<std::int8_t> items(static_cast<std::size_t>(total_));
      wb::gen::rng rng(opt.common.seed);
      for (std::size_t i = 0; i < items.size(); i += 8) {
        const std::uint64_t bits = rng.next();
        std::memcpy(items.data() + i, &bits, std::min<std::size_t>(8, items.size() - i));
      }
      std::vector<std::uint64_t> bins(256, 0);
      for (const std::int8_t x : items) ++bins[static_cast<std::uint8_t>(x)];
      for (int v = -128; v < 128; ++v) {
        if (bins[static_cast<std::uint8_t>(v)] > 0) expected_.push_back({v, bins[static_cast<std::uint8_t>(v)]});
      }
      upload(items, items8_);
    } else {
      // distinct_ key values (a bijection of 0 .. distinct - 1, so they are spread over the
      // whole int64 range), each item one of them at random.
      wb::gen::rng rng(opt.common.seed);
      std::vector<std::int64_t> keys(static_cast<std::size_t>(total_));
      std::vector<std::uint64_t> seen(static_cast<std::size_t>(distinct_), 0);
      for (auto& k : keys) {
        const std::uint64_t i = rng.below(static_cast<std::uint64_t>(distinct_));
        ++seen[i];
        k = static_cast<std::int64_t>(mix64(i + 0x5EED));
      }
      for (std::size_t i = 0; i < seen.size(); ++i) {
        if (seen[i] > 0) expected_.push_back({static_cast<std::int64_t>(mix64(i + 0x5EED)), seen[i]});
      }
      std::sort(expected_.begin(), expected_.end(), [](const key_count& a, const key_count& b) { return a.key < b.key; });
      upload(keys, keys64_);
    }
    for (int r = 0; r < G; ++r) {
      device_scope on(t.device(r));
      bins_.emplace_back(256);
    }
  }

  std::string title() const {
    return histogram_ ? fmt::format("int8 histogram of {} items on {}", total_, team_.description())
                      : fmt::format("int64 distinct counts of {} keys ({} distinct values) on {}", total_, distinct_,
                                    team_.description());
  }
  wb::report_layout layout() const {
    wb::report_layout layout = wb::report_layout::bandwidth(0);
    layout.preamble.push_back(fmt::format("the baseline: the counting chapter's stage {} on one GPU with all the items; "
                                          "\"vs\" is the speed-up of the split", histogram_ ? 6 : 7));
    return layout;
  }
  std::vector<std::string> variants(const wb::stage&) const {
    if (histogram_) return {""};
    std::vector<std::string> v;
    if ((opt_.exchange.empty() || opt_.exchange == "nccl") && team_.nccl_unavailable().empty()) v.push_back(" (NCCL)");
    if (opt_.exchange.empty() || opt_.exchange == "peer" || v.empty()) v.push_back(" (peer copies)");
    return v;
  }

  wb::stage_job<output> job(const wb::stage& s, wb::track t, std::size_t variant) {
    if (s.number != 6) throw wb::stage_refused("--app runs stage 6 only");
    wb::stage_job<output> job = base_job();
    const exchange_method how = variants(s)[variant] == " (NCCL)" ? exchange_method::nccl : exchange_method::peer_copies;
    job.run = [this, t, how] {
      std::vector<std::int64_t> counts;
      for (int r = 0; r < team_.size(); ++r) counts.push_back(offsets_[r + 1] - offsets_[r]);
      const auto began = std::chrono::steady_clock::now();
      WB_WITH_TRACK(allreduce, t, {
        if (histogram_) {
          tr::histogram_across_gpus(team_, ws_, part_pointers(items8_), counts, bin_pointers());
        } else {
          tr::distinct_across_gpus(team_, ws_, part_pointers(keys64_), counts, how);
        }
      });
      team_.synchronize();
      if (ws_.phases) {
        const std::chrono::duration<double, std::milli> host = std::chrono::steady_clock::now() - began;
        std::fprintf(stderr, "distinct phases (%s): %.3f ms on the host clock\n%s",
                     how == exchange_method::nccl ? "NCCL" : "peer copies", host.count(),
                     phase_report(team_, ws_).c_str());
      }
    };
    job.output = [this] {
      if (histogram_) {
        device_scope on(team_.device(0));
        return histogram_rows(bins_[0].to_host());
      }
      output rows;
      for (int q = 0; q < team_.size(); ++q) {
        for (const key_count& row : owned_rows(team_, ws_, q)) rows.push_back(row);
      }
      std::sort(rows.begin(), rows.end(), [](const key_count& a, const key_count& b) { return a.key < b.key; });
      return rows;
    };
    return job;
  }

  std::vector<wb::stage_job<output>> library() {
    wb::stage_job<output> one = base_job();
    one.name = histogram_ ? "one GPU: counting stage 6" : "one GPU: counting stage 7";
    one.is_baseline = true;
    one.run = [this] {
      device_scope on(team_.device(0));
      if (histogram_) {
        histogram_one_gpu(items8_[0].data(), total_, bins_[0].data(), nullptr);
      } else {
        distinct_one_gpu(keys64_[0].data(), total_, one_gpu_);
      }
      WB_CHECK(cudaDeviceSynchronize());
    };
    one.output = [this] {
      device_scope on(team_.device(0));
      return histogram_ ? histogram_rows(bins_[0].to_host()) : table_rows(one_gpu_);
    };
    return {std::move(one)};
  }

  std::string check(const output& got) const {
    if (got.size() != expected_.size()) return fmt::format("{} values instead of {}", got.size(), expected_.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (got[i].key != expected_[i].key || got[i].count != expected_[i].count) {
        return fmt::format("row {}: expected ({}, {}), got ({}, {})", i, expected_[i].key, expected_[i].count, got[i].key,
                           got[i].count);
      }
    }
    return "";
  }
  std::string show(const output& rows) const {
    std::string text;
    for (const key_count& r : rows) text += fmt::format("{}{}:{}", text.empty() ? "" : " ", r.key, r.count);
    return text;
  }
  std::string difference(const output& a, const output& b) const {
    const std::string first = show(a), second = show(b);
    return first == second ? "" : "the tables differ";
  }

 private:
  wb::stage_job<output> base_job() const {
    wb::stage_job<output> job;
    job.work = static_cast<double>(total_) * (histogram_ ? 1 : 8);  // every item read once
    job.items = static_cast<double>(total_);
    job.host_clock = true;  // a run waits for every GPU (stage 7 reads back sizes on the way)
    job.flush_l2 = false;
    if (!wb::backend_is_cuda) job.max_reps = 2;
    return job;
  }
  template <class T>
  void upload(const std::vector<T>& all, std::vector<wb::device_buffer<T>>& parts) {
    for (int r = 0; r < team_.size(); ++r) {
      device_scope on(team_.device(r));
      if (r == 0) {
        parts.emplace_back(all);  // every item: the one-GPU baseline's input, and rank 0's part
      } else {
        parts.emplace_back(std::vector<T>(all.begin() + offsets_[r], all.begin() + offsets_[r + 1]));
      }
    }
  }
  template <class T>
  std::vector<const T*> part_pointers(const std::vector<wb::device_buffer<T>>& parts) const {
    std::vector<const T*> p;
    for (std::size_t r = 0; r < parts.size(); ++r) p.push_back(parts[r].data());
    return p;
  }
  std::vector<std::uint64_t*> bin_pointers() {
    std::vector<std::uint64_t*> p;
    for (auto& b : bins_) p.push_back(b.data());
    return p;
  }
  static output histogram_rows(const std::vector<std::uint64_t>& bins) {
    output rows;
    for (int v = -128; v < 128; ++v) {
      if (bins[static_cast<std::uint8_t>(v)] > 0) rows.push_back({v, bins[static_cast<std::uint8_t>(v)]});
    }
    return rows;
  }

  team& team_;
  const options& opt_;
  bool histogram_ = true;
  std::int64_t total_ = 0;
  std::int64_t distinct_ = 0;
  std::vector<std::int64_t> offsets_;
  output expected_;
  std::vector<wb::device_buffer<std::int8_t>> items8_;
  std::vector<wb::device_buffer<std::int64_t>> keys64_;
  std::vector<wb::device_buffer<std::uint64_t>> bins_;
  app_workspace ws_;
  one_gpu_table one_gpu_;
};

inline int run_application(team& t, const options& opt) {
  application_chapter chapter(t, opt);
  return wb::run_chapter(chapter, std::span<const wb::stage>(&stages[6], 1), opt.common);
}

}  // namespace allreduce
