// reduction --sweep-block: The CUDA Handbook's experiment, every block size from 32 to 1024 for
// every selected device stage (and the library, which has no block size), GB/s of input read,
// the best block size of each stage. Included by main.cpp after the chapter's traits, whose
// jobs it runs.
#pragma once

#include "reduction_chapter.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "wb/chapter.hpp"
#include "wb/sweep_table.hpp"

#include "reduction.hpp"
#include "stages.hpp"

namespace {

template <class T>
int sweep_block(reduction_chapter<T>& chapter, const options& opt) {
  using output = typename reduction_chapter<T>::output;
  const wb::run_settings settings = wb::settings_from(opt.common);
  const auto check = [&](const output& out) { return chapter.check(out); };
  std::vector<wb::track> tracks{wb::track_named(opt.common.track)};
  if (opt.common.compare) tracks = {wb::track::solution, wb::track::exercise};
  std::vector<wb::sweep_table::column> columns{{"stage", -25}};
  for (int b = min_block; b <= max_block; b *= 2) columns.push_back({std::to_string(b), 8});
  columns.push_back({"  best", -6});
  wb::sweep_table table(columns, opt.common.csv, {"stage", "track", "block", "median_ms", "gb_per_s", "verified"});
  // One cell: GB/s, "!" when the sum was wrong.
  const auto gbs_of = [](const wb::report_row& row) { return row.time ? row.work / (row.time->median_ms * 1e6) : 0.0; };
  const auto cell = [&](const wb::report_row& row) { return fmt::format("{:.1f}{}", gbs_of(row), row.verified ? "" : "!"); };
  const auto csv = [&](const std::string& stage, const char* track, const std::string& block, const wb::report_row& row) {
    table.csv_row({stage, track, block, fmt::format("{:.6f}", row.time->median_ms), fmt::format("{:.3f}", gbs_of(row)),
                   row.verified ? "yes" : "no"});
  };
  fmt::print("block-size sweep: {}, GB/s of input read{}\n", chapter.title(),
             wb::backend_is_cuda ? "" : " (timings emulated on the cpu backend: meaningless for a GPU)");
  table.print_header();
  bool all_ok = true;
  for (const auto& s : stages) {
    if (s.number == 0 || !wb::stage_selected(opt.common.stages, s.number, s.suite)) continue;
    for (const wb::track t : tracks) {
      const std::string label = wb::stage_label(s) + (tracks.size() > 1 ? fmt::format(" ({})", wb::track_name(t)) : "");
      std::vector<std::string> cells{label};
      double best_gbs = 0;
      int best_block = 0;
      for (int b = min_block; b <= max_block; b *= 2) {
        const config c{b, opt.cfg.blocks};
        const auto m = wb::measure<output>([&] { return chapter.job(s, t, c); }, check, settings, false, label);
        all_ok = all_ok && (m.row.verified || !m.row.time);
        cells.push_back(m.row.time ? cell(m.row) : "-");
        if (m.row.verified && gbs_of(m.row) > best_gbs) {
          best_gbs = gbs_of(m.row);
          best_block = b;
        }
        if (m.row.time) csv(wb::stage_label(s), wb::track_name(t), std::to_string(b), m.row);
      }
      cells.push_back(best_block > 0 ? fmt::format("  {} ({:.1f} GB/s)", best_block, best_gbs) : "  - (no block size verified)");
      table.print_row(cells);
    }
  }
  for (auto& job : chapter.library()) {  // the library in the same run, for reference
    const auto m = wb::measure<output>([&] { return std::move(job); }, check, settings, false);
    all_ok = all_ok && m.row.verified;
    table.print_row({m.row.stage, cell(m.row), "  (no block size)"});
    csv(m.row.stage, "baseline", "", m.row);
  }
  if (!all_ok) fmt::print("a value marked ! did not verify\n");
  return all_ok ? 0 : 1;
}

}  // namespace
