// wb/chapter.hpp, wb/track.hpp: the chapter driver on a toy chapter whose stages square a
// number, with a wrong exercise, a refused stage and one not written yet.
#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

#include "wb/chapter.hpp"
#include "wb/testing.hpp"

namespace toy::solution {
int square(int x) { return x * x; }
}  // namespace toy::solution
namespace toy::exercise {
int square(int x) { return x + x; }  // wrong except for 0 and 2
}  // namespace toy::exercise

namespace {

constexpr std::array<wb::stage, 4> toy_stages = {{
    {0, "toy/0 host", "on the host", "", "", {"", "", ""}},
    {1, "toy/1 device", "on the device", "", "", {"", "", ""}},
    {2, "toy/2 refused", "refuses this input", "", "", {"", "", ""}},
    {3, "toy/3 todo", "not written yet", "", "", {"", "", ""}},
}};

struct toy_chapter {
  using output = int;
  int x = 3;
  bool bad_config = false;
  std::vector<std::string> reports;  // after_report's view

  std::string title() const { return "toy: the square of " + std::to_string(x); }
  wb::report_layout layout() const {
    wb::report_layout layout;
    layout.work_field = "flops";
    layout.rates = {wb::rate_column{"TFLOP/s", "tflop_per_s", 1e12, 1, 0, "% of peak", "pct_of_peak", "peak_tflop_per_s"}};
    return layout;
  }
  wb::stage_job<output> job(const wb::stage& s, wb::track t) {
    if (s.number == 2) throw wb::stage_refused("too large here");
    if (s.number == 3) throw wb::not_implemented();
    if (bad_config && s.number == 1) throw std::invalid_argument("block 7 is not a power of two");
    auto result = std::make_shared<int>(0);
    wb::stage_job<output> job;
    job.run = [this, t, result] { *result = WB_WITH_TRACK(toy, t, { return tr::square(x); }); };
    job.output = [result] { return *result; };
    job.on_host = s.number == 0;
    job.work = 1e12;
    return job;
  }
  std::vector<wb::stage_job<output>> library() {
    wb::stage_job<output> lib;
    lib.name = "libtoy::square";
    lib.is_baseline = true;
    lib.run = [] {};
    lib.output = [this] { return x * x; };
    lib.work = 1e12;
    return {std::move(lib)};
  }
  std::string check(const output& got) const { return got == x * x ? "" : "expected " + std::to_string(x * x); }
  std::string show(const output& got) const { return std::to_string(got); }
  std::string difference(const output& a, const output& b) const {
    return a == b ? "" : std::to_string(a) + " against " + std::to_string(b);
  }
  void after_report(const wb::report& r) {
    for (const auto& row : r.rows()) reports.push_back(row.stage);
  }
};

std::vector<std::string> csv_lines(const wb::common_options& options, toy_chapter& chapter, int& code) {
  code = wb::run_chapter(chapter, toy_stages, options);
  std::ifstream in(options.csv);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::filesystem::remove(options.csv);
  return lines;
}

wb::common_options csv_options(const char* name) {
  wb::common_options options;
  options.csv = (std::filesystem::temp_directory_path() / (std::string(name) + "." + std::to_string(getpid()))).string();
  return options;
}

bool has(const std::vector<std::string>& lines, const std::string& text) {
  for (const auto& line : lines)
    if (line.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("chapter driver: every stage checked, refusals noted, the library row last, exit 0") {
  toy_chapter chapter;
  wb::common_options options = csv_options("wb_toy.csv");
  int code = -1;
  const auto lines = csv_lines(options, chapter, code);
  CHECK(code == 0);
  REQUIRE(lines.size() == 6);
  CHECK(lines[0].find(",flops,items,tflop_per_s,pct_of_peak,peak_tflop_per_s,") != std::string::npos);
  CHECK(lines[1].find(",0 host,") != std::string::npos);
  CHECK(lines[1].find(",yes,no,") != std::string::npos);
  CHECK(lines[2].find(",1 device,") != std::string::npos);
  CHECK(lines[3].find("refused: too large here") != std::string::npos);
  CHECK(lines[4].find("not implemented yet") != std::string::npos);
  CHECK(lines[5].find(",libtoy::square,") != std::string::npos);
  CHECK(lines[5].find(",yes,yes,") != std::string::npos);
  CHECK(chapter.reports.size() == 5);
}

TEST_CASE("chapter driver: a wrong exercise is exit 1, with the mismatch in its note") {
  toy_chapter chapter;
  wb::common_options options = csv_options("wb_toy_exercise.csv");
  options.track = "exercise";
  options.stages = {"1"};
  int code = -1;
  const auto lines = csv_lines(options, chapter, code);
  CHECK(code == 1);
  CHECK(has(lines, "1 device (exercise)"));
  CHECK(has(lines, ",NO,no,expected 9"));
}

TEST_CASE("chapter driver: --compare runs both tracks, solution first") {
  toy_chapter chapter;
  chapter.x = 2;  // 2 + 2 == 2 * 2: the exercise is right here
  wb::common_options options = csv_options("wb_toy_compare.csv");
  options.compare = true;
  options.stages = {"0", "1"};
  int code = -1;
  const auto lines = csv_lines(options, chapter, code);
  CHECK(code == 0);
  REQUIRE(lines.size() == 6);
  CHECK(lines[1].find("0 host (solution)") != std::string::npos);
  CHECK(lines[2].find("0 host (exercise)") != std::string::npos);
  const auto row = [](bool ran, bool verified, const std::string& note = "") {
    wb::report_row r;
    if (ran) r.time = wb::timing{1, 1, 1, {1}};
    r.verified = verified;
    r.note = note;
    return r;
  };
  CHECK(wb::detail::compare_line("1 device", row(true, true), row(true, true), "") ==
        "1 device: exercise and solution agree");
  CHECK(wb::detail::compare_line("1 device", row(true, true), row(true, false), "4 against 6") ==
        "1 device: exercise differs from the solution: 4 against 6");
  CHECK(wb::detail::compare_line("1 device", row(true, true), row(true, true), "0.1 against 0.10001") ==
        "1 device: exercise and solution agree within the check's tolerance (0.1 against 0.10001)");
  CHECK(wb::detail::compare_line("2 x", row(true, true), row(false, false, "refused: big"), std::nullopt) ==
        "2 x: the exercise did not run (refused: big)");
}

TEST_CASE("chapter driver: a refused configuration is a note, or bad input when the stage is named") {
  toy_chapter chapter;
  chapter.bad_config = true;
  wb::common_options options = csv_options("wb_toy_config.csv");
  int code = -1;
  const auto lines = csv_lines(options, chapter, code);
  CHECK(code == 0);
  CHECK(has(lines, "refused: block 7 is not a power of two"));
  options.stages = {"device"};
  CHECK_THROWS_AS(wb::run_chapter(chapter, toy_stages, options), wb::usage_error);
  std::filesystem::remove(options.csv);
}

TEST_CASE("WB_WITH_TRACK names the track's namespace, at run time or at compile time") {
  const auto square = [](auto t, int x) { return WB_WITH_TRACK(toy, t, { return tr::square(x); }); };
  CHECK(square(wb::track::solution, 5) == 25);
  CHECK(square(wb::track::exercise, 5) == 10);
  CHECK(square(wb::track_constant<wb::track::solution>{}, 4) == 16);
  CHECK(wb::track_named("exercise") == wb::track::exercise);
  CHECK(wb::track_named("solution") == wb::track::solution);
}

TEST_CASE("long stages: one run above the limit, fewer reps to fit the budget") {
  wb::run_settings settings;
  settings.reps = 20;
  std::string note;
  wb::long_stage_policy policy{2, 10, 0.5};
  CHECK(wb::detail::timing_for(policy, false, -1, 0, true, settings, 3.0, note).reps == 0);
  CHECK(note == "1 run");
  note.clear();
  const auto options = wb::detail::timing_for(policy, false, -1, 0, true, settings, 1.0, note);
  CHECK(options.reps == 10);
  CHECK(note == "10 reps");
  note.clear();
  CHECK(wb::detail::timing_for({}, true, -1, 0, true, settings, 100.0, note).reps == settings.host_reps);
  CHECK(wb::detail::timing_for({}, false, -1, 3, true, settings, 0.0, note).reps == 3);
  CHECK(note.empty());
}
