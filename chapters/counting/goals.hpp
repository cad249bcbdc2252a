// counting --targets: the chapter's goals on an H100 (README, "Measurements"), against what this
// run measured. A goal is judged only on its own input; on another input the line says so.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

#include "wb/report.hpp"
#include "wb/runtime.hpp"

#include "stages.hpp"

namespace counting {

struct goal_input {
  bool int8;
  std::int64_t n;
  std::string dist;
  std::int64_t distinct;
};

inline void print_goals(const wb::report& report, const goal_input& in) {
  // The median ms of the rows the goals name: a stage's plain row (either track), the library, the copy.
  std::map<std::string, double> times;
  for (const auto& row : report.rows()) {
    if (!row.time) continue;
    std::string key = row.is_baseline ? "baseline" : row.stage == "H2D copy (pinned)" ? "h2d" : "";
    for (const auto& s : stages) {
      const std::string label = wb::stage_label(s);
      if (row.stage == label || row.stage == label + " (solution)" || row.stage == label + " (exercise)") {
        key = std::to_string(s.number);
      }
    }
    if (!key.empty() && times.count(key) == 0) times[key] = row.time->median_ms;
  }
  auto have = [&](const char* k) { return times.count(k) > 0; };
  auto met = [](bool yes) { return yes ? "met" : "not met"; };
  auto size_note = [&](std::int64_t goal_n, const char* goal_dist) {
    return in.n == goal_n && in.dist == goal_dist ? "" : " (the goal is set on another input)";
  };
  std::printf("\nthe chapter's goals (set for an H100):\n");
  if (!wb::backend_is_cuda) {
    std::printf("  not judged here: the cpu backend's timings are emulated\n");
    return;
  }
  bool any = false;
  if (in.int8 && have("6") && have("baseline")) {
    const double speedup = times["baseline"] / times["6"];
    std::printf("  stage 6 at least 1.25x CUB HistogramEven on 2^30 uniform int8: %.2fx, %s%s\n", speedup,
                met(speedup >= 1.25), size_note(std::int64_t{1} << 30, "uniform"));
    any = true;
  }
  if (in.int8 && have("6")) {
    std::printf("  stage 6 under 0.4 ms on 10^9 int8: %.3f ms, %s%s\n", times["6"], met(times["6"] < 0.4),
                size_note(1'000'000'000, "uniform"));
    any = true;
  }
  if (!in.int8 && have("7") && have("baseline")) {
    // On 2^26 int64 keys: never slower than the sort, far faster where keys repeat.
    const double speedup = times["baseline"] / times["7"];
    const bool few = in.dist == "few", zipf = in.dist == "zipf";
    double goal = 1.0;
    if (few && in.distinct == std::int64_t{1} << 10) goal = 10;
    if (few && in.distinct == std::int64_t{1} << 14) goal = 5;
    if (few && in.distinct == std::int64_t{1} << 20) goal = 4;
    if (zipf && in.distinct == std::int64_t{1} << 20) goal = 3;
    const bool on_goal_input = in.n == std::int64_t{1} << 26 && (few || zipf || in.dist == "all-distinct");
    std::printf("  stage 7 at least %gx CUB sort + RLE on 2^26 int64 keys (%s; 1x at any number of distinct keys, "
                "10x at 2^10 few, 5x at 2^14, 4x at 2^20, 3x at 2^20 zipf): %.2fx, %s%s\n",
                goal, in.dist.c_str(), speedup, met(speedup >= goal),
                on_goal_input ? "" : " (the goal is set on another input)");
    any = true;
  }
  if (in.int8 && have("8") && have("h2d")) {
    const double ratio = times["8"] / times["h2d"];
    std::printf("  stage 8 within 1.2x of the bare pinned host-to-device copy: %.3fx, %s\n", ratio, met(ratio <= 1.2));
    any = true;
  }
  if (!any) std::printf("  none measured by this run (the goals need the cuda backend and stages 6, 7 or 8)\n");
}

}  // namespace counting
