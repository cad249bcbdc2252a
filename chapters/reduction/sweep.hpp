// reduction --sweep-block: The CUDA Handbook's experiment, every block size from 32 to 1024 for
// every selected device stage (and the library, which has no block size), GB/s of input read,
// the best block size of each stage. Included by main.cpp after the chapter's traits, whose
// jobs it runs.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wb/chapter.hpp"

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
  std::FILE* csv = nullptr;
  if (!opt.common.csv.empty()) {
    csv = std::fopen(opt.common.csv.c_str(), "w");
    if (csv == nullptr) throw wb::usage_error("cannot write " + opt.common.csv);
    std::fprintf(csv, "stage,track,block,median_ms,gb_per_s,verified\n");
  }
  // One cell: GB/s, "!" when the sum was wrong.
  const auto gbs_of = [](const wb::report_row& row) { return row.time ? row.work / (row.time->median_ms * 1e6) : 0.0; };
  const auto cell = [&](const wb::report_row& row) { return fmt::format("{:.1f}{}", gbs_of(row), row.verified ? "" : "!"); };
  fmt::print("block-size sweep: {}, GB/s of input read{}\n", chapter.title(),
             wb::backend_is_cuda ? "" : " (timings emulated on the cpu backend: meaningless for a GPU)");
  fmt::print("{:<26}", "stage");
  for (int b = min_block; b <= max_block; b *= 2) fmt::print("{:>9}", b);
  fmt::print("   best\n");
  bool all_ok = true;
  for (const auto& s : stages) {
    if (s.number == 0 || !wb::stage_selected(opt.common.stages, s.number, s.suite)) continue;
    for (const wb::track t : tracks) {
      const std::string label = wb::stage_label(s) + (tracks.size() > 1 ? fmt::format(" ({})", wb::track_name(t)) : "");
      fmt::print("{:<26}", label);
      double best_gbs = 0;
      int best_block = 0;
      for (int b = min_block; b <= max_block; b *= 2) {
        const config c{b, opt.cfg.blocks};
        const auto m = wb::measure<output>([&] { return chapter.job(s, t, c); }, check, settings, false, label);
        all_ok = all_ok && (m.row.verified || !m.row.time);
        fmt::print("{:>9}", m.row.time ? cell(m.row) : "-");
        if (m.row.verified && gbs_of(m.row) > best_gbs) {
          best_gbs = gbs_of(m.row);
          best_block = b;
        }
        if (csv && m.row.time) {
          std::fprintf(csv, "%s,%s,%d,%.6f,%.3f,%s\n", wb::stage_label(s).c_str(), wb::track_name(t), b,
                       m.row.time->median_ms, gbs_of(m.row), m.row.verified ? "yes" : "no");
        }
      }
      if (best_block > 0) fmt::print("   {} ({:.1f} GB/s)\n", best_block, best_gbs);
      else fmt::print("   - (no block size verified)\n");
    }
  }
  for (auto& job : chapter.library()) {  // the library in the same run, for reference
    const auto m = wb::measure<output>([&] { return std::move(job); }, check, settings, false);
    all_ok = all_ok && m.row.verified;
    fmt::print("{:<26}{:>9}   (no block size)\n", m.row.stage, cell(m.row));
    if (csv) std::fprintf(csv, "%s,baseline,,%.6f,%.3f,%s\n", m.row.stage.c_str(), m.row.time->median_ms, gbs_of(m.row),
                          m.row.verified ? "yes" : "no");
  }
  if (csv) std::fclose(csv);
  if (!all_ok) fmt::print("a value marked ! did not verify\n");
  return all_ok ? 0 : 1;
}

}  // namespace
