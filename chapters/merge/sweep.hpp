// merge --sweep: thread coarsening (PMPP §12.8) measured. Stage 5 at every block size and
// items per thread (with the cost of its block-level searches alone), stages 3 and 4 at every
// tile size, stage 6 at every compiled shape; one line each, to the terminal and to --csv.
// Included by main.cpp after the chapter's traits (merge_chapter), whose jobs it runs.
#pragma once

#include "merge_chapter.hpp"

#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wb/bandwidth.hpp"
#include "wb/chapter.hpp"
#include "wb/sweep_table.hpp"
#include "wb/timing.hpp"

#include "merge.hpp"
#include "stages.hpp"

namespace merge {

template <class Chapter>
int coarsening_sweep(Chapter& chapter, const wb::common_options& common, wb::track track, bool key_value,
                     const char* type) {
  using K = std::remove_cvref_t<decltype(*chapter.device_problem().A)>;
  struct row {
    int stage;
    config cfg;
    std::optional<wb::timing> time;
    std::optional<double> search_ms;
    bool verified = false;
    std::string note;
    double work = 0;
  };
  const wb::run_settings settings = wb::settings_from(common);
  const problem<K>& dev = chapter.device_problem();
  const std::int64_t m = chapter.m(), n = chapter.n();
  std::vector<row> rows;
  const auto run = [&](int stage, const config& cfg) {
    row r{stage, cfg, std::nullopt, std::nullopt, false, "", 0};
    try {
      r.cfg = resolve(stage, cfg, m + n, sizeof(K), key_value);
      const wb::stage& s = stages[static_cast<std::size_t>(stage)];
      auto measured = wb::measure<typename Chapter::output>([&] { return chapter.job(s, track, cfg); },
                                                            [&](const auto& out) { return chapter.check(out); },
                                                            settings, false, s.suite);
      r.time = measured.row.time;
      r.verified = measured.row.verified;
      r.note = measured.row.note;
      r.work = measured.row.work;
      if (stage == 5 && r.time) {  // the block-level searches of stage 5, timed alone (all in parallel)
        const std::int64_t tile = std::int64_t{r.cfg.block} * r.cfg.items_per_thread;
        wb::device_buffer<std::int64_t> partitions(static_cast<std::size_t>((m + n + tile - 1) / tile + 1));
        wb::timing_options options;
        options.reps = settings.reps;
        if (!wb::backend_is_cuda) options.warmup = 0;
        r.search_ms = wb::time_gpu([&] {
          WB_WITH_TRACK(merge, track, { tr::merge_coarsened_searches(dev.A, m, dev.B, n, tile, partitions.data()); });
        }, options).median_ms;
      }
    } catch (const std::invalid_argument& e) {
      r.note = std::string("refused: ") + e.what();
    }
    rows.push_back(r);
  };
  // Stage 5: items per thread x block size (tile = their product).
  for (const int block : {64, 128, 256, 512}) {
    for (const int items : {1, 2, 4, 8, 16, 32}) run(5, config{block, 0, items, 0});
  }
  // Stages 3 and 4: tile size (128 threads).
  for (const int tile : {256, 512, 1024, 2048, 4096}) {
    run(3, config{128, tile, 0, 0});
    run(4, config{128, tile, 0, 0});
  }
  // Stage 6: every compiled shape.
  for (const auto& [block, items] : at_bandwidth_shapes()) run(6, config{block, 0, items, 0});

  const double copy_gbs = wb::copy_bandwidth_gbs();
  std::printf("\ncoarsening sweep: merge of m = %lld and n = %lld %s keys%s (%s), %s track\n", static_cast<long long>(m),
              static_cast<long long>(n), type, key_value ? " with values" : "", chapter.source().c_str(),
              wb::track_name(track));
  if (!wb::backend_is_cuda) std::printf("(timings emulated on the cpu backend: meaningless for a GPU)\n");
  std::printf("copy bandwidth: %.1f GB/s\n", copy_gbs);
  wb::sweep_table table({{"stage", -5}, {"block", 6}, {"items", 6}, {"tile", 6}, {"grid", 9}, {"median ms", 10},
                        {"GB/s", 8}, {"% copy", 8}, {"search ms", 11}, {"verified", 8}, {" note", -1}},
                       common.csv,
                       {"stage", "block", "items_per_thread", "tile", "grid", "median_ms", "gb_per_s", "pct_of_copy",
                        "search_ms", "verified", "copy_gb_per_s", "backend", "m", "n", "type", "key_value", "note"});
  table.print_header();
  bool all_verified = true;
  for (const auto& r : rows) {
    const double ms = r.time ? r.time->median_ms : -1;
    const double gbs = ms > 0 ? r.work / (ms * 1e-3) / 1e9 : 0;
    const int tile = r.stage == 5 || r.stage == 6 ? r.cfg.block * r.cfg.items_per_thread : r.cfg.tile;
    const int items = r.stage == 3 || r.stage == 4 ? 0 : r.cfg.items_per_thread;
    all_verified = all_verified && (!r.time || r.verified);
    const bool timed = r.time.has_value();
    const auto cell = [](const char* spec, double value, bool shown) {
      return shown ? fmt::format(fmt::runtime(spec), value) : std::string("-");
    };
    const auto raw = [](double value, bool shown) { return shown ? fmt::format("{}", value) : std::string(); };
    const std::string verified = timed ? (r.verified ? "yes" : "NO") : "-";
    table.print_row({std::to_string(r.stage), std::to_string(r.cfg.block), std::to_string(items), std::to_string(tile),
                     std::to_string(r.cfg.grid), cell("{:.4f}", ms, timed), cell("{:.1f}", gbs, timed),
                     cell("{:.1f}", 100 * gbs / copy_gbs, timed), cell("{:.4f}", r.search_ms.value_or(0), r.search_ms.has_value()),
                     verified, " " + r.note});
    table.csv_row({std::to_string(r.stage), std::to_string(r.cfg.block), std::to_string(items), std::to_string(tile),
                   std::to_string(r.cfg.grid), raw(ms, timed), raw(gbs, timed), raw(100 * gbs / copy_gbs, timed),
                   raw(r.search_ms.value_or(0), r.search_ms.has_value()), timed ? verified : "", fmt::format("{:.1f}", copy_gbs),
                   wb::backend_name, std::to_string(m), std::to_string(n), type, key_value ? "1" : "0", r.note});
  }
  return all_verified ? 0 : 1;
}

}  // namespace merge
