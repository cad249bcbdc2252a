// The counting chapter's traits for the driver (wb/chapter.hpp): the frequency table of one input. What each row of
// the report runs, the output it brings back and how that output is checked; main.cpp reads the
// command line and hands the input to it.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "counting.hpp"
#include "data.hpp"
#include "estimate.hpp"
#include "goals.hpp"
#include "harness.hpp"
#include "reference.hpp"
#include "stage7_options.hpp"
#include "stages.hpp"
#include "wb/bandwidth.hpp"
#include "wb/chapter_app.hpp"
#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#if defined(WB_HAVE_BASELINE)
#include "baseline_cub.hpp"
#endif

namespace {

using counting::entry;

struct options {
  wb::common_options common;
  std::int64_t n = -1;  // -1: the default for this backend and type
  std::string type = "int8";
  counting::generated_input gen;  // --dist and what shapes it
  wb::input_options input;
  bool targets = false;
  std::int64_t chunk = 0;  // --chunk: stage 8's items per transfer (0: its default)
  counting::config cfg;
  counting::stage7_options stage7;
  bool tune = false;
  double budget_s = 0;
};

// The chapter's traits for the driver (wb/chapter.hpp): the frequency table of one input.
template <class T>
class counting_chapter {
 public:
  using output = std::vector<entry<T>>;

  counting_chapter(const options& o, std::vector<T> data) : o_(o), data_(std::move(data)), n_(std::ssize(data_)), d_in_(data_) {
    const auto start = std::chrono::steady_clock::now();
    reference_ = counting::reference_table<T>(data_);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("input: %s; %zu distinct values (reference: stage %d, %s)\n", describe().c_str(), reference_.size(),
                counting::reference_stage(n_), counting::human_seconds(seconds).c_str());
  }

  std::string title() const { return "counting: " + describe(); }
  wb::report_layout layout() const { return wb::report_layout::bandwidth(n_ > 0 ? wb::copy_bandwidth_gbs() : 0.0); }

  // --tune: every counter layout and blocks per SM (stage 6), the automatic choice and every
  // path (stage 7), chunk sizes and streams (stage 8); one row each.
  std::vector<std::string> variants(const wb::stage& s) const {
    if (!counting::stage_applies<T>(s.number)) return {};
    std::vector<std::string> names;
    for (const auto& [cfg, name] : configs(s.number)) names.push_back(name);
    return names;
  }

  wb::stage_job<output> job(const wb::stage& s, wb::track t, std::size_t variant) {
    if (counting::traits[static_cast<std::size_t>(s.number)].gpu_only && !wb::backend_is_cuda) {
      throw wb::stage_refused("GPU-only (device-side launches)");
    }
    const counting::config cfg = configs(s.number)[variant].first;
    return wb::with_track(t, [&](auto track) { return make_job<decltype(track)::value>(s.number, cfg); });
  }

  std::vector<wb::stage_job<output>> library() {
    std::vector<wb::stage_job<output>> rows;
    if (n_ == 0) return rows;
#if defined(WB_HAVE_BASELINE)
    rows.push_back(library_job());
#endif
    if (std::is_same_v<T, std::int8_t> && wb::stage_selected(o_.common.stages, 8, counting::stages[8].suite)) {
      // the bare host-to-device copy, stage 8's ceiling
      auto pinned = std::make_shared<counting::pinned_buffer<T>>(data_);
      wb::stage_job<output> copy;
      copy.name = "H2D copy (pinned)";
      copy.work = static_cast<double>(n_) * sizeof(T);
      copy.items = static_cast<double>(n_);
      copy.run = [this, pinned] {
        WB_CHECK(cudaMemcpyAsync(d_in_.data(), pinned->data(), data_.size() * sizeof(T), cudaMemcpyHostToDevice, 0));
      };
      copy.output = [] { return output{}; };
      copy.check = [](const output&) { return std::string(); };
      copy.note = "stage 8's ceiling, not a count";
      copy.max_reps = std::max(3, o_.common.reps / 4);
      copy.printed = false;
      rows.push_back(std::move(copy));
    }
    return rows;
  }

  void after_report(const wb::report& report) {
    if (o_.targets) counting::print_goals(report, {std::is_same_v<T, std::int8_t>, n_, o_.gen.dist, o_.gen.distinct});
    if (!report.all_verified()) std::printf("\nsome stage gave a WRONG table (see the notes)\n");
  }

  std::string check(const output& got) const { return counting::table_mismatch(reference_, got).value_or(""); }
  std::string show(const output& table) const {
    const std::string text = counting::format_table(table);
    return text.empty() ? "(empty)" : text;
  }
  std::string difference(const output& solution, const output& exercise) const {
    return counting::table_mismatch(solution, exercise).value_or("");
  }

 private:
  std::string describe() const {
    const std::string type = std::is_same_v<T, std::int8_t> ? "int8" : "int64";
    if (o_.input.given()) return fmt::format("{} {} items from {}", n_, type, o_.input.source());
    return fmt::format("{} {} items, {}, seed {}", n_, type, counting::describe(o_.gen), o_.common.seed);
  }

  std::vector<std::pair<counting::config, std::string>> configs(int stage) const {
    std::vector<std::pair<counting::config, std::string>> list;
    counting::config c = o_.cfg;
    if (!o_.tune || stage < 6) return {{c, ""}};
    if (stage == 6) {
      for (int v = 0; v <= 3; ++v) {
        for (int b : {0, 1, 2, 3}) {
          c.variant = v;
          c.blocks_per_sm = b;
          list.push_back({c, fmt::format(" v{} b{}", v, b == 0 ? std::string("max") : std::to_string(b))});
        }
      }
    } else if (stage == 7) {  // every path forced, after the automatic choice
      for (const auto& [path, label] : counting::path_labels) {
        c.hash.path = path;
        list.push_back({c, path == counting::hash_path::automatic ? "" : fmt::format(" {}", label)});
      }
    } else {
      for (std::int64_t chunk : {std::int64_t{1} << 22, std::int64_t{1} << 24, std::int64_t{1} << 26}) {
        for (int streams : {2, 4}) {
          c.chunk_items = chunk;
          c.streams = streams;
          list.push_back({c, fmt::format(" chunk 2^{} x{}", static_cast<int>(std::log2(double(chunk))), streams)});
        }
      }
    }
    return list;
  }

  template <wb::track Track>
  wb::stage_job<output> make_job(int stage, const counting::config& cfg) {
    const counting::input<T> in{std::span<const T>(data_), d_in_.data()};
    const double budget = o_.budget_s > 0 ? o_.budget_s : (wb::backend_is_cuda ? 20.0 : 5.0);
    std::string estimated;
    if (counting::traits[static_cast<std::size_t>(stage)].quadratic) {
      estimated = counting::require_quadratic_budget(n_, static_cast<double>(reference_.size()), budget, [&](std::int64_t items) {
        counting::input<T> part{in.host.subspan(0, static_cast<std::size_t>(items)), in.device};
        counting::stage_runner<Track, T> small(stage, part, cfg);
        small.run();
        small.result();
        const auto t0 = std::chrono::steady_clock::now();
        small.run();
        small.result();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      });
    }
    auto runner = std::make_shared<counting::stage_runner<Track, T>>(stage, in, cfg);
    wb::stage_job<output> job;
    job.work = static_cast<double>(n_) * sizeof(T);
    job.items = static_cast<double>(n_);
    job.prepare = [runner] {
      runner->poison();
      (void)counting::take_stage_note();
    };
    job.run = [runner, estimated] {
      try {
        runner->run_timed();
      } catch (const counting::stage_refused& e) {
        if (estimated.empty()) throw;
        throw counting::stage_refused(std::string(e.what()) + " (estimated " + estimated + ")");
      }
    };
    job.output = [runner] { return runner->result(); };
    job.remark = [](const output&) { return counting::take_stage_note(); };  // stage 7: the path it took, and why
    job.on_host = counting::traits[static_cast<std::size_t>(stage)].host;
    // Long stages get fewer repetitions: about 10 s each at most; a stage that takes over 2 s is
    // reported from the checked run alone (up to its last kernel's end, not the copy of its table).
    job.long_stage = {2, 10, 0.5};
    if (stage == 8) job.note = "from pinned host memory";
    return job;
  }

#if defined(WB_HAVE_BASELINE)
  // CUB: a histogram of the 256 values (int8), or a radix sort and a run-length encode (int64).
  wb::stage_job<output> library_job() {
    wb::stage_job<output> job;
    job.is_baseline = true;
    job.work = static_cast<double>(n_) * sizeof(T);
    job.items = static_cast<double>(n_);
    if constexpr (std::is_same_v<T, std::int8_t>) {
      job.name = "CUB HistogramEven";
      auto bins = std::make_shared<wb::device_buffer<unsigned>>(256);
      auto temp = std::make_shared<wb::device_buffer<unsigned char>>(counting::baseline::cub_histogram_temp_bytes(n_));
      job.run = [this, bins, temp] { counting::baseline::cub_histogram(d_in_.data(), n_, bins->data(), temp->data(), temp->size()); };
      job.output = [bins] {
        const auto h = bins->to_host();  // h[b]: items whose raw byte is b
        output table;
        for (int v = -128; v <= 127; ++v) {
          if (const unsigned c = h[static_cast<std::uint8_t>(v)]; c > 0) table.push_back({static_cast<T>(v), c});
        }
        return table;
      };
    } else {
      job.name = "CUB sort + RLE";
      const auto size = static_cast<std::size_t>(n_);
      auto sorted = std::make_shared<wb::device_buffer<T>>(size);
      auto keys = std::make_shared<wb::device_buffer<T>>(size);
      auto counts = std::make_shared<wb::device_buffer<std::uint64_t>>(size);
      auto runs = std::make_shared<wb::device_buffer<std::int64_t>>(1);
      auto temp = std::make_shared<wb::device_buffer<unsigned char>>(counting::baseline::cub_sort_rle_temp_bytes(n_));
      job.run = [=, this] {
        counting::baseline::cub_sort_rle(d_in_.data(), n_, sorted->data(), keys->data(), counts->data(), runs->data(),
                                         temp->data(), temp->size());
      };
      job.output = [=] {
        const auto k = static_cast<std::size_t>(runs->to_host()[0]);
        const auto hk = keys->to_host(k);  // the runs only: CUB writes k of the n slots
        const auto hc = counts->to_host(k);
        output table;
        for (std::size_t i = 0; i < k; ++i) table.push_back({hk[i], hc[i]});
        return table;
      };
    }
    return job;
  }
#endif

  const options& o_;
  std::vector<T> data_;
  std::int64_t n_;
  wb::device_buffer<T> d_in_;
  output reference_;
};

}  // namespace
