// scan: runs the chapter's stages on one input, checks each against the sequential
// specification (stage 0), times them and prints the report table.
//
//   scan                                   2^28 int32 on a GPU (2^16 on the cpu backend), inclusive
//   scan --type float --exclusive          any type, the exclusive scan
//   scan --stage 4,6 --block 512           some stages, another block size
//   scan --input 3,1,4,1,5 --print         explicit input, one "stage: v0 v1 ..." line each
//   scan --input 1,2,3,4,5,6,7,8 --trace   Kogge-Stone's and Brent-Kung's steps, thread by thread
//   scan --input 1,2,3 --trace --svg steps.svg   and their picture
//   scan --track exercise | --compare      the learner's stages, or both side by side
//
// GB/s counts the bytes a scan must move: n items read and n items written.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "scan.hpp"
#include "stages.hpp"
#include "wb/bandwidth.hpp"
#include "wb/check.hpp"
#include "wb/cli.hpp"
#include "wb/device_buffer.hpp"
#include "wb/device_info.hpp"
#include "wb/generate.hpp"
#include "wb/report.hpp"
#include "wb/runtime.hpp"
#include "wb/svg_pictures.hpp"
#include "wb/timing.hpp"
#if defined(WB_HAVE_BASELINE)
#include "baseline_cub.hpp"
#endif

namespace {

using namespace scan;

struct options {
  wb::common_options common;
  std::int64_t n = -1;  // -1: the default for this backend
  std::string type = "int32";
  std::string dist = "uniform";
  int block = 256;
  int items_per_thread = 0;
  bool exclusive = false;
  bool trace = false;
  std::string svg;
  std::string input;
  std::string input_file;
};

constexpr std::int64_t max_n = std::int64_t{1} << 36;

std::int64_t default_n() { return wb::backend_is_cuda ? std::int64_t{1} << 28 : std::int64_t{1} << 16; }

// ---------------------------------------------------------------------------------------
// The stages of each track
// ---------------------------------------------------------------------------------------

template <class T>
using device_fn = void (*)(const T*, T*, std::int64_t, const workspace&, const config&);
template <class T>
using host_fn = void (*)(std::span<const T>, std::span<T>, bool);

template <class T>
host_fn<T> sequential_of(const std::string& track) {
  return track == "exercise" ? &exercise::scan_sequential<T> : &solution::scan_sequential<T>;
}

template <class T>
device_fn<T> device_stage_of(const std::string& track, int number) {
  const bool ex = track == "exercise";
  switch (number) {
    case 1: return ex ? &exercise::scan_kogge_stone<T> : &solution::scan_kogge_stone<T>;
    case 2: return ex ? &exercise::scan_brent_kung<T> : &solution::scan_brent_kung<T>;
    case 3: return ex ? &exercise::scan_coarsened<T> : &solution::scan_coarsened<T>;
    case 4: return ex ? &exercise::scan_hierarchical<T> : &solution::scan_hierarchical<T>;
    case 5: return ex ? &exercise::scan_domino<T> : &solution::scan_domino<T>;
    case 6: return ex ? &exercise::scan_single_pass<T> : &solution::scan_single_pass<T>;
  }
  throw std::logic_error("no device stage " + std::to_string(number));
}

using wb::stage_label;

// ---------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------

template <class T>
std::vector<T> generate(const std::string& dist, std::size_t n, std::uint64_t seed) {
  if (dist == "uniform") {
    if constexpr (std::is_same_v<T, std::int32_t>) return wb::gen::uniform<T>(n, seed, -1000, 1000);
    if constexpr (std::is_same_v<T, std::int64_t>) return wb::gen::uniform<T>(n, seed, -(T{1} << 40), T{1} << 40);
    if constexpr (std::is_floating_point_v<T>) return wb::gen::uniform<T>(n, seed, T(-1), T(1));
  }
  if (dist == "zeros") return std::vector<T>(n, T{});
  if (dist == "alternating") {  // +v, -v, +v, ...: prefixes 0 and v, a cancellation test
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = i % 2 == 0 ? T(7) : T(-7);
    return v;
  }
  if (dist == "extremes") {
    if constexpr (std::is_integral_v<T>) return wb::gen::extremes<T>(n, seed);
    throw wb::usage_error("--dist extremes is for int32 and int64: a float scan of +-FLT_MAX overflows");
  }
  if (dist == "iota") return wb::gen::iota<T>(n, seed, false);
  throw wb::usage_error("--dist '" + dist + "': use uniform, zeros, alternating, extremes or iota");
}

// ---------------------------------------------------------------------------------------
// Checking a scan against the specification
// ---------------------------------------------------------------------------------------

template <class T>
struct expected_scan {
  std::vector<T> exact;           // integers: the scan; floats: unused
  std::vector<double> value;      // floats: the scan in double
  std::vector<double> prefix_abs; // floats: |x_0| + ... + |x_i|
  std::int64_t depth = 0;
};

template <class T>
std::string value_text(T v) {
  if constexpr (std::is_integral_v<T>) return fmt::format("{}", v);
  else return fmt::format("{:.9g}", v);
}

// Empty when `got` is right; otherwise the first wrong index.
template <class T>
std::string first_error(const expected_scan<T>& e, const std::vector<T>& got) {
  if constexpr (std::is_integral_v<T>) {
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (got[i] != e.exact[i]) return fmt::format("at index {}: expected {}, got {}", i, e.exact[i], got[i]);
    }
  } else {
    for (std::size_t i = 0; i < got.size(); ++i) {
      const double tol = tolerance<T>(e.prefix_abs[i], e.depth);
      const double error = std::fabs(static_cast<double>(got[i]) - e.value[i]);
      if (!(error <= tol)) {
        return fmt::format("at index {}: expected {:.9g}, got {:.9g} (error {:.3g}, tolerance {:.3g})", i, e.value[i],
                           got[i], error, tol);
      }
    }
  }
  return {};
}

struct stage_run {
  std::optional<wb::timing> time;
  bool verified = false;
  std::string note;
};

// ---------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------

template <class T>
int run(const options& opt, const CLI::App& app) {
  const config cfg{opt.block, opt.items_per_thread, opt.exclusive};
  try {
    validate(cfg, sizeof(T));
  } catch (const std::invalid_argument& e) {
    throw wb::usage_error(std::string("--block/--items-per-thread: ") + e.what());
  }
  std::vector<std::pair<int, std::string>> known;
  for (const auto& s : stages) known.emplace_back(s.number, s.suite);
  wb::require_known_stages(opt.common.stages, known);

  // The input. An explicit empty list is an empty input.
  const bool given = app.count("--input") > 0 || app.count("--input-file") > 0;
  if (app.count("--input") > 0 && app.count("--input-file") > 0) throw wb::usage_error("--input and --input-file: give one");
  if (given && opt.n >= 0) throw wb::usage_error("--n and --input/--input-file: the input sets n");
  const std::int64_t requested = given ? -1 : (opt.n >= 0 ? opt.n : default_n());
  if (opt.common.print && requested > 0) wb::require_printable(static_cast<std::uint64_t>(requested), "the scan");
  if (opt.trace && requested > static_cast<std::int64_t>(max_trace_items)) {
    throw wb::usage_error(fmt::format("--trace draws every thread: give at most {} items", max_trace_items));
  }
  if (app.count("--svg") > 0 && !opt.trace) throw wb::usage_error("--svg draws the steps of --trace: give --trace too");
  if (app.count("--svg") > 0 && opt.svg.empty()) throw wb::usage_error("--svg: give the file to write");
  std::ofstream svg_file;  // opened before any work: a path that cannot be written is a usage error
  if (!opt.svg.empty()) {
    svg_file.open(opt.svg);
    if (!svg_file) throw wb::usage_error("--svg: cannot write " + opt.svg);
  }

  std::vector<T> data;
  std::string source;
  if (given) {
    data = app.count("--input") > 0 ? wb::parse_list<T>(opt.input, "--input") : wb::read_numbers_file<T>(opt.input_file);
    source = app.count("--input") > 0 ? "--input" : opt.input_file;
    if (opt.common.print) wb::require_printable(data.size(), "the scan");
    if (opt.trace && data.size() > max_trace_items) {
      throw wb::usage_error(fmt::format("--trace draws every thread: give at most {} items", max_trace_items));
    }
  } else {
    const std::uint64_t bytes = wb::bytes_for(static_cast<std::uint64_t>(requested), sizeof(T), "--n");
    wb::require_memory(2 * bytes + workspace_bytes(requested, sizeof(T), cfg), 3 * bytes + (std::is_floating_point_v<T> ? 4 * bytes : 0),
                       fmt::format("a scan of {} {} items", requested, opt.type));
    data = generate<T>(opt.dist, static_cast<std::size_t>(requested), opt.common.seed);
    source = fmt::format("{}, seed {}", opt.dist, opt.common.seed);
  }
  const auto n = static_cast<std::int64_t>(data.size());

  if (opt.trace) {
    fmt::print("{}\n{}", trace_kogge_stone<T>(std::span<const T>(data)), trace_brent_kung<T>(std::span<const T>(data)));
    if (!opt.svg.empty()) {
      wb::svg::scan_steps_input<T> picture;
      picture.items = data;
      picture.caption = fmt::format("scan: Kogge-Stone and Brent-Kung, step by step, on {} {} items", n, opt.type);
      svg_file << wb::svg::scan_steps_svg(picture);
      svg_file.close();
      if (!svg_file) throw wb::usage_error("--svg: cannot write " + opt.svg);
      fmt::print("the picture: {}\n", opt.svg);
    }
    return 0;
  }
  wb::print_device_info_or_exit();

  // The specification: the solution's stage 0; for floats, prefix sums in double.
  expected_scan<T> expected;
  if constexpr (std::is_integral_v<T>) {
    expected.exact.resize(data.size());
    solution::scan_sequential<T>(std::span<const T>(data), std::span<T>(expected.exact), cfg.exclusive);
  } else {
    expected.value.resize(data.size());
    expected.prefix_abs.resize(data.size());
    double running = 0, running_abs = 0;
    for (std::size_t i = 0; i < data.size(); ++i) {
      if (cfg.exclusive) expected.value[i] = running;
      running += data[i];
      running_abs += std::fabs(static_cast<double>(data[i]));
      if (!cfg.exclusive) expected.value[i] = running;
      expected.prefix_abs[i] = running_abs;
    }
    expected.depth = std::max<std::int64_t>(rounding_depth(n), 1);
  }

  wb::device_buffer<T> d_in(data);
  wb::device_buffer<T> d_out(static_cast<std::size_t>(n));
  workspace_buffer<T> ws(n, cfg);
  const workspace w = ws.view();
  const double bytes = 2.0 * static_cast<double>(n) * sizeof(T);

  std::vector<std::string> tracks = opt.common.compare ? std::vector<std::string>{"solution", "exercise"}
                                                       : std::vector<std::string>{opt.common.track};
  wb::report report(fmt::format("scan: {} of {} {} ({}), block {}, items per thread {}",
                                cfg.exclusive ? "exclusive scan" : "inclusive scan", n, opt.type, source, cfg.block,
                                cfg.items_per_thread > 0 ? std::to_string(cfg.items_per_thread) : "stage default"),
                    wb::copy_bandwidth_gbs());
  std::vector<std::string> printed;
  std::vector<std::string> comparisons;
  auto print_line = [&](const std::string& label, const std::vector<T>& out) {
    std::string line = label + ":";
    for (const T& v : out) line += " " + value_text(v);
    printed.push_back(line);
  };

  for (const auto& s : stages) {
    if (!wb::stage_selected(opt.common.stages, s.number, s.suite)) continue;
    std::vector<std::vector<T>> outputs;
    for (const auto& track : tracks) {
      stage_run r;
      std::vector<T> out(static_cast<std::size_t>(n));
      if (s.number == 0) {
        // On the host, timed with the host clock, a few runs.
        wb::timing t;
        for (int i = 0; i < std::min(opt.common.reps, 5); ++i) {
          std::fill(out.begin(), out.end(), T(-1));
          const auto start = std::chrono::steady_clock::now();
          sequential_of<T>(track)(std::span<const T>(data), std::span<T>(out), cfg.exclusive);
          t.samples_ms.push_back(
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        }
        auto sorted = t.samples_ms;
        std::sort(sorted.begin(), sorted.end());
        t.median_ms = sorted[sorted.size() / 2];
        t.min_ms = sorted.front();
        t.max_ms = sorted.back();
        r.time = t;
        r.note = "on the host";
      } else {
        const device_fn<T> fn = device_stage_of<T>(track, s.number);
        d_out.fill_bytes(0xA5);  // an output nobody writes fails the check
        // Stages 1-3 run on one block, hundreds of times slower: fewer runs past 2^22 items.
        const bool one_block = s.number <= 3 && n > (std::int64_t{1} << 22);
        r.time = wb::time_gpu([&] { fn(d_in.data(), d_out.data(), n, w, cfg); },
                              {one_block ? 1 : 3, one_block ? std::min(opt.common.reps, 3) : opt.common.reps, true});
        out = d_out.to_host();
        if (one_block) r.note = "one block";
      }
      const std::string why = first_error(expected, out);
      r.verified = why.empty();
      if (!r.verified) r.note = why;
      const std::string label = tracks.size() > 1 || track == "exercise" ? stage_label(s) + " (" + track + ")"
                                                                          : stage_label(s);
      report.add({label, r.time, s.number == 0 ? 0.0 : bytes, static_cast<double>(n), r.verified, false, r.note});
      if (opt.common.print) print_line(label, out);
      outputs.push_back(std::move(out));
    }
    if (tracks.size() == 2) {
      const auto mismatch = [&]() -> std::string {
        for (std::size_t i = 0; i < outputs[0].size(); ++i) {
          if (!(outputs[0][i] == outputs[1][i])) {
            return fmt::format("DIFFER at index {}: solution {}, exercise {}", i, value_text(outputs[0][i]),
                               value_text(outputs[1][i]));
          }
        }
        return "agree on every item";
      }();
      comparisons.push_back(fmt::format("{}: {}", stage_label(s), mismatch));
    }
  }

#if defined(WB_HAVE_BASELINE)
  {
    const char* name = cfg.exclusive ? "cub::DeviceScan::ExclusiveSum" : "cub::DeviceScan::InclusiveSum";
    const std::size_t temp_bytes = baseline::cub_scan_temp_bytes<T>(n, cfg.exclusive);
    wb::device_buffer<unsigned char> temp(std::max<std::size_t>(temp_bytes, 1));
    d_out.fill_bytes(0xA5);
    stage_run r;
    r.time = wb::time_gpu([&] { baseline::cub_scan<T>(d_in.data(), d_out.data(), n, cfg.exclusive, temp.data(), temp_bytes); },
                          {3, opt.common.reps, true});
    const std::vector<T> out = d_out.to_host();
    const std::string why = first_error(expected, out);
    r.verified = why.empty();
    report.add({name, r.time, bytes, static_cast<double>(n), r.verified, true, why});
    if (opt.common.print) print_line(name, out);
  }
#endif

  report.print();
  for (const auto& line : printed) fmt::print("{}\n", line);
  for (const auto& line : comparisons) fmt::print("{}\n", line);
  report.write_files(opt.common.csv, opt.common.json);
  return report.all_verified() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"scan: prefix sums, stage by stage (PMPP ch. 11, then a single pass at the memory ceiling)"};
  options opt;
  wb::add_common_options(app, opt.common);
  app.add_option("--n", opt.n, "items to scan (default: 2^28 on a GPU, 2^16 on the cpu backend)")
      ->check(CLI::Range(std::int64_t{0}, max_n));
  app.add_option("--type", opt.type, "item type (integers wrap: int32 modulo 2^32, int64 modulo 2^64)")
      ->check(CLI::IsMember({"int32", "int64", "float"}))
      ->capture_default_str();
  app.add_option("--dist", opt.dist, "generated data: uniform, zeros, alternating (+7, -7, ...), extremes "
                                     "(integers: INT_MIN/INT_MAX and neighbours), iota")
      ->check(CLI::IsMember({"uniform", "zeros", "alternating", "extremes", "iota"}))
      ->capture_default_str();
  app.add_option("--block", opt.block, "threads per block: a power of two from 32 to 1024")->capture_default_str();
  app.add_option("--items-per-thread", opt.items_per_thread,
                 "items per thread of stages 3-6: a power of two from 16/sizeof(item) to 32 (0: each stage's default)")
      ->capture_default_str();
  app.add_flag("--exclusive", opt.exclusive, "the exclusive scan (out[i] = in[0] + ... + in[i-1]) instead of inclusive");
  app.add_flag("--trace", opt.trace, "for at most 32 items: Kogge-Stone's and Brent-Kung's steps, thread by thread");
  app.add_option("--svg", opt.svg, "with --trace: also draw both scans' steps to this SVG file");
  app.add_option("--input", opt.input, "explicit input, comma separated (instead of --n/--dist); empty: no items");
  app.add_option("--input-file", opt.input_file, "explicit input, whitespace-separated numbers in a file");

  return wb::run_main(app, argc, argv, [&]() -> int {
    if (opt.type == "int32") return run<std::int32_t>(opt, app);
    if (opt.type == "int64") return run<std::int64_t>(opt, app);
    return run<float>(opt, app);
  });
}
