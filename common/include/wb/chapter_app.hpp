// The chapter app: what every chapter executable's main() declares, written once.
//
// A chapter's main.cpp declares its options and traits, and the app does the rest:
//
//   options opt;                                    // the chapter's flags, with a wb::common_options
//   wb::chapter_app app{"reduction: the sum of n items, stage by stage (...)", opt.common};
//   app.size("--n", opt.n, "items to sum", wb::backend_default{1 << 28, 1 << 22});
//   app.type_option<std::int32_t, std::int64_t, float, double>(opt.type, "item type");
//   app.choice("--dist", opt.dist, {"uniform", "few"}, "generated data: ...");
//   app.input(opt.input, "explicit input, comma separated", "explicit input in a file");
//   app.trace(opt.trace, &opt.svg, "for at most 40 items: the tree", "the tree as an SVG file");
//   app.validate([&] { validate(opt.cfg); }, "--block/--blocks");
//   return app.run<std::int32_t, std::int64_t, float, double>(argc, argv, opt.type, stages,
//                                                         [&]<class T>() { return run<T>(opt); });
//
// `run` parses the command line, applies the common checks (a --svg without --trace, a file
// --svg cannot write, an unknown --stage, the chapter's own validations, each turned into a
// usage error naming its flags), and calls the body with the C++ type --type names. Errors
// end the program as everywhere (wb::run_main): bad input exit 2, a failure exit 1.
//
// Beside it, the pieces a chapter's run<T> and its traits use (wb/chapter.hpp is the driver
// they feed):
//   wb::vector_input<T>    the one input vector: --input / --input-file, or generated data
//                          after the memory check, with the source named for the title;
//   wb::host_job, wb::device_job   stage jobs with the common settings (a host stage's note and
//                          rep limit; a device stage whose output is poisoned before each run);
//   wb::first_difference   --compare's "at index i: solution x, exercise y";
//   wb::joined             --print's line of a sequence.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "wb/arguments.hpp"
#include "wb/chapter.hpp"
#include "wb/cli.hpp"
#include "wb/device_info.hpp"
#include "wb/runtime.hpp"

namespace wb {

// The name --type gives a C++ type.
template <class T>
constexpr const char* type_name() {
  if constexpr (std::is_same_v<T, std::int8_t>) return "int8";
  else if constexpr (std::is_same_v<T, std::uint8_t>) return "uint8";
  else if constexpr (std::is_same_v<T, std::int16_t>) return "int16";
  else if constexpr (std::is_same_v<T, std::uint16_t>) return "uint16";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "uint32";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
  else if constexpr (std::is_same_v<T, std::uint64_t>) return "uint64";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else static_assert(sizeof(T) == 0, "wb::type_name: a type --type does not name yet");
}

// A size whose default depends on the backend: the GPU's, or the cpu backend's (emulated, slow).
struct backend_default {
  std::int64_t gpu;
  std::int64_t cpu;
  std::int64_t value() const { return backend_is_cuda ? gpu : cpu; }
};

class chapter_app {
 public:
  // The common options (--seed, --reps, --stage, --track, ...) are read into `common`.
  chapter_app(std::string description, common_options& common);

  CLI::App& cli() { return app_; }
  // Was this flag on the command line (after run() has parsed it)?
  bool given(const std::string& flag) const { return app_.count(flag) > 0; }

  // A size flag (wb::parse_size's syntax) at most `max`. A value left at -1 means "not given";
  // the help then names the backend's default, which the chapter takes (size_or).
  CLI::Option* size(const std::string& flag, std::int64_t& value, const std::string& help, std::uint64_t max);
  CLI::Option* size(const std::string& flag, std::int64_t& value, const std::string& help, std::uint64_t max,
                    backend_default fallback);
  // One of a fixed set of words (--dist, --type, --launch ...); the default is printed.
  CLI::Option* choice(const std::string& flag, std::string& value, std::vector<std::string> names,
                      const std::string& help);
  // --type, from the types the chapter instantiates.
  template <class... Ts>
  CLI::Option* type_option(std::string& value, const std::string& help) {
    return choice("--type", value, {type_name<Ts>()...}, help);
  }
  // --input LIST and --input-file FILE.
  void input(input_options& input, const std::string& list_help, const std::string& file_help);
  // --trace (and --svg FILE when `svg` is given): --svg needs --trace and a file it can write.
  void trace(bool& trace, std::string* svg, const std::string& trace_help, const std::string& svg_help = {});
  // A check of the chapter's own flags, run after parsing: its std::invalid_argument becomes
  // a usage error "<flags>: <what>" (its message alone when `flags` is empty).
  void validate(std::function<void()> check, std::string flags);
  // Anything else to do after parsing and before the body (a flag that needs another).
  void after_parse(std::function<void()> step) { after_parse_.push_back(std::move(step)); }

  // Parses, checks and runs body.template operator()<T>() for the T whose name `type` holds.
  template <class... Ts, class Body>
  int run(int argc, char** argv, const std::string& type, std::span<const stage> stages, Body&& body) {
    return run_main(app_, argc, argv, [&]() -> int {
      common_checks(stages);
      int status = -1;
      ((type == type_name<Ts>() ? (status = body.template operator()<Ts>(), true) : false) || ...);
      if (status < 0) throw usage_error("--type " + type + ": not a type this chapter takes");
      return status;
    });
  }
  // The same for a chapter with one type (or a dispatch of its own).
  template <class Body>
  int run(int argc, char** argv, std::span<const stage> stages, Body&& body) {
    return run_main(app_, argc, argv, [&]() -> int {
      common_checks(stages);
      return body();
    });
  }

 private:
  void common_checks(std::span<const stage> stages);

  CLI::App app_;
  common_options& common_;
  std::vector<std::function<void()>> after_parse_;
};

// The one input vector of a chapter (reduction, scan, sort): the items of --input or
// --input-file, or n items (the --n flag's, else the backend's default) from `generate(n)`
// once `device_bytes(n)` and `host_bytes(n)` fit (wb::require_memory). `what` names the run in messages ("a sum of", "a sort of");
// --print is refused for inputs too long to print, before any work.
template <class T>
struct chapter_input {
  std::vector<T> data;
  std::string source;  // "--input", the file, or "uniform, seed 42"
};
// The size a flag left at -1 stands for.
inline std::int64_t size_or(std::int64_t value, backend_default fallback) { return value >= 0 ? value : fallback.value(); }

template <class T, class Generate, class DeviceBytes, class HostBytes>
chapter_input<T> vector_input(const common_options& common, const input_options& input, std::int64_t n_flag,
                              backend_default fallback, const std::string& dist, const std::string& what,
                              Generate&& generate, DeviceBytes&& device_bytes, HostBytes&& host_bytes) {
  chapter_input<T> in;
  if (input.given()) {
    in.data = read_input<T>(input, n_flag >= 0);
    in.source = input.source();
    if (common.print) require_printable(in.data.size(), what);
    return in;
  }
  const std::int64_t n = size_or(n_flag, fallback);
  if (common.print) require_printable(static_cast<std::uint64_t>(n), what);
  bytes_for(static_cast<std::uint64_t>(n), sizeof(T), "the input");  // refuses sizes whose bytes overflow
  require_memory(device_bytes(n), host_bytes(n), fmt::format("{} {} {} items", what, n, type_name<T>()));
  in.data = generate(static_cast<std::size_t>(n));
  in.source = fmt::format("{}, seed {}", dist, common.seed);
  return in;
}

// A stage run on the host (a chapter's stage 0): timed with the host clock, at most
// `max_reps` runs, "on the host" in its row, no rate (it moves no device bytes).
template <class Output>
stage_job<Output> host_job(std::function<void()> run, std::function<Output()> output, int max_reps = 0) {
  stage_job<Output> job;
  job.run = std::move(run);
  job.output = std::move(output);
  job.on_host = true;
  job.max_reps = max_reps;
  job.note = "on the host";
  return job;
}

// A device stage (or library call) whose output buffers are filled with 0xA5 bytes before
// its checked run, so that a stage that never writes its output fails the check.
template <class Output, class... Buffers>
stage_job<Output> device_job(std::function<void()> run, std::function<Output()> output, Buffers&... outputs) {
  stage_job<Output> job;
  job.prepare = [&outputs...] { (outputs.fill_bytes(0xA5), ...); };
  job.run = std::move(run);
  job.output = std::move(output);
  return job;
}

// --compare's verdict for two sequences: "" when they agree element by element (`same`), else
// "at index i: solution x, exercise y" (or their lengths).
template <class T, class Text, class Same>
std::string first_difference(const std::vector<T>& solution, const std::vector<T>& exercise, Text&& text, Same&& same) {
  if (solution.size() != exercise.size()) {
    return fmt::format("solution {} items, exercise {}", solution.size(), exercise.size());
  }
  for (std::size_t i = 0; i < solution.size(); ++i) {
    if (!same(solution[i], exercise[i])) {
      return fmt::format("at index {}: solution {}, exercise {}", i, text(solution[i]), text(exercise[i]));
    }
  }
  return "";
}
// --print's line for a sequence: its items, `text` of each, separated by spaces.
template <class T, class Text>
std::string joined(const std::vector<T>& items, Text&& text) {
  std::string line;
  for (const T& item : items) {
    if (!line.empty()) line += ' ';  // piece by piece: GCC 12 warns (-Wrestrict) falsely on " " + a temporary
    line += text(item);
  }
  return line;
}

template <class T, class Text>
std::string first_difference(const std::vector<T>& solution, const std::vector<T>& exercise, Text&& text) {
  return first_difference(solution, exercise, text, [](const T& a, const T& b) { return a == b; });
}

}  // namespace wb
