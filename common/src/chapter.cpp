// The chapter driver's pieces that do not depend on a chapter's types (see wb/chapter.hpp).
#include "wb/chapter.hpp"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

namespace wb {

run_settings settings_from(const common_options& options) {
  run_settings settings;
  // The cpu backend's timings are emulated: one run unless the user asks for more.
  settings.reps = backend_is_cuda || options.reps_given ? options.reps : 1;
  settings.host_reps = std::min(settings.reps, 5);
  settings.selection = options.stages;
  return settings;
}

namespace detail {

std::string join_notes(std::initializer_list<std::string> notes) {
  std::string out;
  for (const auto& note : notes) {
    if (note.empty()) continue;
    out += (out.empty() ? "" : "; ") + note;
  }
  return out;
}

timing_options timing_for(const long_stage_policy& policy, bool on_host, int warmup, int max_reps, bool flush_l2,
                          const run_settings& settings, double once_s, std::string& note) {
  timing_options options;
  options.flush_l2 = flush_l2;
  // A stage that ran for seconds: its checked run is its time (reps 0 tells the caller).
  if (policy.single_run_above_s > 0 && once_s > policy.single_run_above_s) {
    options.reps = 0;
    note = "1 run";
    return options;
  }
  const int wanted = on_host ? settings.host_reps : settings.reps;
  options.reps = max_reps > 0 ? std::min(wanted, max_reps) : wanted;
  if (policy.timed_budget_s > 0 && once_s * options.reps > policy.timed_budget_s) {
    options.reps = std::max(1, static_cast<int>(policy.timed_budget_s / once_s));
  }
  if (options.reps < wanted && policy.timed_budget_s > 0) note = fmt::format("{} reps", options.reps);
  if (warmup >= 0) {
    options.warmup = warmup;
  } else if (on_host || !backend_is_cuda) {
    options.warmup = 0;  // no module to load, no clocks to ramp up; and emulated timings mean nothing
  } else {
    options.warmup = policy.one_warmup_above_s > 0 && once_s > policy.one_warmup_above_s ? 1 : 3;
  }
  return options;
}

std::string track_suffix(track t, bool compare) {
  if (!compare && t == track::solution) return "";
  return std::string(" (") + track_name(t) + ")";
}

std::string compare_line(const std::string& label, const report_row& solution, const report_row& exercise,
                         const std::optional<std::string>& difference) {
  if (!solution.time) return fmt::format("{}: the solution did not run ({})", label, solution.note);
  if (!exercise.time) return fmt::format("{}: the exercise did not run ({})", label, exercise.note);
  if (!difference || difference->empty()) return label + ": exercise and solution agree";
  if (solution.verified && exercise.verified) {
    return fmt::format("{}: exercise and solution agree within the check's tolerance ({})", label, *difference);
  }
  return fmt::format("{}: exercise differs from the solution: {}", label, *difference);
}

std::string print_line(const std::string& label, const report_row& row, const std::optional<std::string>& text) {
  if (!text) return fmt::format("{}: ({})", label, row.note);
  return text->empty() ? label + ":" : label + ": " + *text;
}

void finish(const report& rep, const common_options& options, const std::vector<std::string>& printed,
            const std::vector<std::string>& compared) {
  rep.print();
  for (const auto& line : printed) std::printf("%s\n", line.c_str());
  for (const auto& line : compared) std::printf("%s\n", line.c_str());
  std::fflush(stdout);
  rep.write_files(options.csv, options.json);
}

}  // namespace detail
}  // namespace wb
