// The chapter driver: what every chapter executable does with its stages, written once.
//
// For each stage the user selected (--stage) and each track (--track, or both with --compare)
// the driver asks the chapter for a job, runs it once and checks its output against the
// chapter's reference, times it (wb::time_gpu for device stages, wb::time_host for host
// stages), and adds a row to the report; then the library rows (the baseline the stages are
// compared with). It prints the table, each output with --print, the verdict of --compare
// ("exercise and solution agree", or where they first differ), writes --csv and --json, and
// returns the exit status: 0 when every row that ran was right, 1 when one was wrong. Bad
// input is a wb::usage_error (exit status 2, through wb::run_main).
//
// A chapter is a class with these members (chapters/<name>/main.cpp; common/README.md has a
// small complete example):
//
//   using output = ...;                          // what a stage produces, on the host
//   std::string title() const;                   // the report's title: the problem and its input
//   wb::report_layout layout() const;            // the rate columns (GB/s and % of copy, TFLOP/s...)
//   wb::stage_job<output> job(const wb::stage&, wb::track);   // one stage of one track, ready to run
//   std::vector<wb::stage_job<output>> library();             // the library rows (may be empty)
//   std::string check(const output&) const;      // "" when right, else the first mismatch
//   std::string show(const output&) const;       // --print: the output on one line
//   std::string difference(const output& solution, const output& exercise) const;  // --compare
//
// and optionally
//
//   std::vector<std::string> variants(const wb::stage&) const;   // one row per variant (a tuning
//   wb::stage_job<output> job(const wb::stage&, wb::track, std::size_t variant);  // sweep); the
//                                                // strings are the rows' label suffixes
//   void after_report(const wb::report&);        // lines after the report (a chapter's goals)
//
// A job or the stage it runs may throw
//   wb::stage_refused      the stage cannot run this input here (its size, this backend): the row
//                          says "refused: <why>" and the run goes on;
//   std::invalid_argument  its configuration (the user's flags) does not fit the stage: the same
//                          note, but bad input (exit 2) when the user named the stage with --stage;
//   wb::not_implemented    the row says "not implemented yet".
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "wb/check.hpp"
#include "wb/cli.hpp"
#include "wb/report.hpp"
#include "wb/runtime.hpp"
#include "wb/stage.hpp"
#include "wb/timing.hpp"
#include "wb/track.hpp"

namespace wb {

// How to time a stage that may take seconds (an O(N^2) stage, 10^9 items through PCIe).
struct long_stage_policy {
  double single_run_above_s = 0;  // > 0: a checked run longer than this is the row's only sample ("1 run")
  double timed_budget_s = 0;      // > 0: fewer timed runs, so that they take about this long ("N reps")
  double one_warmup_above_s = 0;  // > 0: one warm-up run instead of three when the checked run took longer
};

// One row's work: a stage of one track (or a library call), ready to run.
template <class Output>
struct stage_job {
  std::string name;                // library rows: the call ("cub::DeviceScan::InclusiveSum"); stages:
                                   // set by the driver ("6 single-pass", "6 single-pass (exercise)")
  std::function<void()> prepare;   // optional: before the checked run (poison the output)
  std::function<void()> run;       // the stage, once: device stages enqueue on the default stream
  std::function<Output()> output;  // the output of the last run, on the host
  bool on_host = false;            // a host stage: timed with wb::time_host
  bool host_clock = false;         // device work timed with the host clock around each run, which must
                                   // wait for its own work (several GPUs, several streams)
  double work = 0;                 // what the report's rate columns count (bytes moved, flops)
  double items = 0;                // items processed (items/s)
  std::string note;                // e.g. "on the host", "one block"
  bool is_baseline = false;        // library rows: the one the stages are compared with
  bool printed = true;             // --print shows this row's output
  // Optional: instead of the chapter's check (the specification checked against std::merge,
  // a library whose ties may come out in another order).
  std::function<std::string(const Output&)> check;
  // Optional: a note from the checked run (the path a stage chose; "values stable too").
  std::function<std::string(const Output&)> remark;
  // Timing: the driver's defaults are 3 warm-up runs and --reps timed runs on the GPU (20, one
  // on the cpu backend), no warm-up and at most 5 runs on the host.
  int warmup = -1;    // >= 0: this many warm-up runs instead
  int max_reps = 0;   // > 0: at most this many timed runs (a stage hundreds of times slower)
  bool flush_l2 = true;
  long_stage_policy long_stage;
};

// What the driver takes from the common options.
struct run_settings {
  int reps = 20;               // timed runs of a device stage
  int host_reps = 5;           // at most this many of a host stage
  bool refuse_by_name = true;  // a stage named with --stage whose configuration is refused: exit 2
  std::vector<std::string> selection;  // --stage
};
run_settings settings_from(const common_options& options);

// One job, run and timed: its report row and its output (when it ran).
template <class Output>
struct measured {
  report_row row;
  std::optional<Output> output;
  bool printed = true;                 // the job's `printed`
  bool refused_configuration = false;  // refused with std::invalid_argument
};

namespace detail {

std::string join_notes(std::initializer_list<std::string> notes);
timing_options timing_for(const long_stage_policy& policy, bool on_host, int warmup, int max_reps, bool flush_l2,
                          const run_settings& settings, double once_s, std::string& note);
std::string track_suffix(track t, bool compare);
std::string compare_line(const std::string& label, const report_row& solution, const report_row& exercise,
                         const std::optional<std::string>& difference);
std::string print_line(const std::string& label, const report_row& row, const std::optional<std::string>& text);
void finish(const report& rep, const common_options& options, const std::vector<std::string>& printed,
            const std::vector<std::string>& compared);

template <class C>
concept has_variants = requires(const C& c, const stage& s) { c.variants(s); };
template <class C>
concept has_after_report = requires(C& c, const report& r) { c.after_report(r); };

}  // namespace detail

// Runs one job: the checked run, the check, the timed runs. `make` builds the job (a chapter's
// job() may itself refuse); `check` is the chapter's check. A refusal becomes the row's note
// (or, for a configuration the user named with --stage, a usage_error).
template <class Output, class Make, class Check>
measured<Output> measure(Make&& make, const Check& check, const run_settings& settings, bool named,
                         const std::string& label = {}) {
  measured<Output> m;
  m.row.stage = label;
  try {
    stage_job<Output> job = make();
    if (!job.name.empty() && label.empty()) m.row.stage = job.name;
    m.row.work = job.work;
    m.row.items = job.items;
    m.row.is_baseline = job.is_baseline;
    m.printed = job.printed;
    if (job.prepare) job.prepare();
    const auto start = std::chrono::steady_clock::now();
    job.run();
    WB_CHECK(cudaDeviceSynchronize());  // the stage's own time, not the copy of its output
    const double once_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    Output out = job.output();
    const std::string wrong = job.check ? job.check(out) : check(out);
    const std::string remark = job.remark ? job.remark(out) : std::string();
    m.row.verified = wrong.empty();
    std::string timing_note;
    const timing_options options = detail::timing_for(job.long_stage, job.on_host, job.warmup, job.max_reps,
                                                      job.flush_l2, settings, once_s, timing_note);
    if (options.reps == 0) {
      const double ms = once_s * 1e3;
      m.row.time = timing{ms, ms, ms, {ms}};
    } else {
      m.row.time = job.on_host || job.host_clock ? time_host(job.run, options) : time_gpu(job.run, options);
    }
    m.row.note = detail::join_notes({job.note, remark, wrong, timing_note});
    m.output = std::move(out);
  } catch (const stage_refused& e) {
    m.row.note = std::string("refused: ") + e.what();
  } catch (const not_implemented& e) {
    m.row.note = e.what();
  } catch (const std::invalid_argument& e) {
    if (named && settings.refuse_by_name) throw usage_error(e.what());
    m.row.note = std::string("refused: ") + e.what();
    m.refused_configuration = true;
  }
  return m;
}

// The stage loop, the library rows and the report (see the top of this file). Returns the
// exit status.
template <class Chapter>
int run_chapter(Chapter& chapter, std::span<const stage> stages, const common_options& options) {
  using Output = typename Chapter::output;
  const run_settings settings = settings_from(options);
  const auto check = [&](const Output& out) { return chapter.check(out); };
  std::vector<track> tracks{track_named(options.track)};
  if (options.compare) tracks = {track::solution, track::exercise};

  report rep(chapter.title(), chapter.layout());
  std::vector<std::string> printed;
  std::vector<std::string> compared;
  const auto print = [&](const std::string& label, const measured<Output>& m) {
    if (!options.print || !m.printed) return;
    std::optional<std::string> text;
    if (m.output) text = chapter.show(*m.output);
    printed.push_back(detail::print_line(label, m.row, text));
  };

  for (const stage& s : stages) {
    if (!stage_selected(options.stages, s.number, s.suite)) continue;
    const bool named = !options.stages.empty();
    std::vector<std::string> suffixes{""};
    if constexpr (detail::has_variants<Chapter>) suffixes = chapter.variants(s);
    for (std::size_t v = 0; v < suffixes.size(); ++v) {
      const std::string name = stage_label(s) + suffixes[v];
      std::vector<measured<Output>> runs;
      for (const track t : tracks) {
        const std::string label = name + detail::track_suffix(t, options.compare);
        runs.push_back(measure<Output>(
            [&] {
              if constexpr (detail::has_variants<Chapter>) return chapter.job(s, t, v);
              else return chapter.job(s, t);
            },
            check, settings, named, label));
        print(label, runs.back());
        rep.add(runs.back().row);
      }
      if (runs.size() == 2) {
        std::optional<std::string> difference;
        if (runs[0].output && runs[1].output) difference = chapter.difference(*runs[0].output, *runs[1].output);
        compared.push_back(detail::compare_line(name, runs[0].row, runs[1].row, difference));
      }
    }
  }
  std::vector<stage_job<Output>> library = chapter.library();
  for (auto& job : library) {
    measured<Output> m = measure<Output>([&] { return std::move(job); }, check, settings, false);
    print(m.row.stage, m);
    rep.add(std::move(m.row));
  }
  detail::finish(rep, options, printed, compared);
  if constexpr (detail::has_after_report<Chapter>) chapter.after_report(rep);
  return rep.all_verified() ? 0 : 1;
}

}  // namespace wb
