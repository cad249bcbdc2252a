// reduction: runs the chapter's stages on one input, checks each against the sequential
// specification (stage 0), times them and prints the report table.
//
//   reduction                                  2^28 int32 on a GPU (2^22 on the cpu backend)
//   reduction --type float --dist equal        any type and distribution
//   reduction --stage 4,5 --block 512          some stages, another block size
//   reduction --sweep-block                    every block size 32..1024, the best per stage
//   reduction --input 1,2,3 --print            explicit input, one "stage: sum" line each
//   reduction --track exercise | --compare     the learner's stages, or both side by side
//   reduction --input 3,1,4,1,5 --trace --svg tree.svg
//                                              one block's tree, thread by thread, and its picture
//
// GB/s counts the bytes a sum must read: n * sizeof(T).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "reduction.hpp"
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

using namespace reduction;

struct options {
  wb::common_options common;
  std::int64_t n = -1;  // -1: the default for this backend
  std::string type = "int32";
  std::string dist = "uniform";
  int block = 256;
  std::int64_t blocks = 0;
  bool sweep_block = false;
  std::string input;
  std::string input_file;
  bool input_given = false;       // --input was on the command line (an empty list is an empty input)
  bool input_file_given = false;  // --input-file was
  bool trace = false;
  std::string svg;
};

constexpr std::int64_t max_n = std::int64_t{1} << 40;

std::int64_t default_n() { return wb::backend_is_cuda ? std::int64_t{1} << 28 : std::int64_t{1} << 22; }

// ---------------------------------------------------------------------------------------
// The stages of each track
// ---------------------------------------------------------------------------------------

template <class T>
using device_fn = void (*)(const T*, std::int64_t, sum_t<T>*, const workspace<T>&, const config&);
template <class T>
using host_fn = sum_t<T> (*)(std::span<const T>);

template <class T>
host_fn<T> sequential_of(const std::string& track) {
  return track == "exercise" ? &exercise::sum_sequential<T> : &solution::sum_sequential<T>;
}

template <class T>
device_fn<T> device_stage_of(const std::string& track, int number) {
  if (track == "exercise") {
    switch (number) {
      case 1: return &exercise::sum_two_pass<T>;
      case 2: return &exercise::sum_warp_synchronous<T>;
      case 3: return &exercise::sum_unrolled<T>;
      case 4: return &exercise::sum_shuffle<T>;
      case 5: return &exercise::sum_at_bandwidth<T>;
    }
  } else {
    switch (number) {
      case 1: return &solution::sum_two_pass<T>;
      case 2: return &solution::sum_warp_synchronous<T>;
      case 3: return &solution::sum_unrolled<T>;
      case 4: return &solution::sum_shuffle<T>;
      case 5: return &solution::sum_at_bandwidth<T>;
    }
  }
  throw std::logic_error("no device stage " + std::to_string(number));
}

using wb::stage_label;  // "1 two-pass"

// ---------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------

template <class T>
std::vector<T> widen(const std::vector<std::int32_t>& narrow) {
  return std::vector<T>(narrow.begin(), narrow.end());
}

// The --dist distributions, in ranges whose sums stay inside sum_t<T> for n up to 2^32.
template <class T>
std::vector<T> generate(const std::string& dist, std::size_t n, std::uint64_t seed) {
  constexpr bool is_int64 = std::is_same_v<T, std::int64_t>;
  if (dist == "uniform") {
    if constexpr (std::is_same_v<T, std::int32_t>) return wb::gen::uniform<T>(n, seed);
    if constexpr (is_int64) return wb::gen::uniform<T>(n, seed, -(T{1} << 40), T{1} << 40);
    if constexpr (std::is_floating_point_v<T>) return wb::gen::uniform<T>(n, seed, T(-1), T(1));
  }
  if (dist == "few") {
    if constexpr (is_int64) return widen<T>(wb::gen::few_distinct<std::int32_t>(n, seed, 16));
    else return wb::gen::few_distinct<T>(n, seed, 16);
  }
  if (dist == "equal") {
    // int32: INT_MAX n times, the R5 case; the others a value whose sum is not trivial.
    if constexpr (std::is_same_v<T, std::int32_t>) return wb::gen::all_equal<T>(n, std::numeric_limits<T>::max());
    if constexpr (is_int64) return wb::gen::all_equal<T>(n, (T{1} << 31) + 1);
    if constexpr (std::is_floating_point_v<T>) return wb::gen::all_equal<T>(n, T(0.1));
  }
  if (dist == "extremes") {
    if constexpr (std::is_same_v<T, std::int32_t>) return wb::gen::extremes<T>(n, seed);
    if constexpr (is_int64) return widen<T>(wb::gen::extremes<std::int32_t>(n, seed));
    throw wb::usage_error("--dist extremes is for int32 and int64: a float sum of +-FLT_MAX overflows");
  }
  if (dist == "zipf") return wb::gen::zipf<T>(n, seed, 1000);
  if (dist == "iota") return wb::gen::iota<T>(n, seed, true);
  throw wb::usage_error("--dist '" + dist + "': use uniform, few, equal, extremes, zipf or iota");
}

// ---------------------------------------------------------------------------------------
// Checking a sum against the specification
// ---------------------------------------------------------------------------------------

template <class T>
struct expected_sum {
  sum_t<T> value{};
  double sum_abs = 0;  // floating point: sum of |x|, for the tolerance
};

template <class T>
bool agrees(const expected_sum<T>& expected, sum_t<T> got, std::int64_t depth, std::string* why) {
  if constexpr (std::is_integral_v<T>) {
    if (got == expected.value) return true;
    if (why) *why = fmt::format("expected {}, got {}", expected.value, got);
    return false;
  } else {
    const double tol = tolerance<T>(expected.sum_abs, depth);
    const double error = std::fabs(static_cast<double>(got) - static_cast<double>(expected.value));
    if (std::isfinite(static_cast<double>(got)) && error <= tol) return true;
    if (why) *why = fmt::format("expected {:.9g}, got {:.9g}: error {:.3g} above the tolerance {:.3g}",
                                expected.value, got, error, tol);
    return false;
  }
}

// ---------------------------------------------------------------------------------------
// Running a stage
// ---------------------------------------------------------------------------------------

struct stage_run {
  std::optional<wb::timing> time;
  bool verified = false;
  std::string note;
  std::string sum_text;  // for --print and --compare
};

template <class T>
std::string value_text(sum_t<T> v) {
  if constexpr (std::is_integral_v<T>) return fmt::format("{}", v);
  else return fmt::format("{:.17g}", v);
}

// Times `launch` (which writes *d_out) and checks the sum it leaves.
template <class T>
stage_run time_and_check(const std::function<void()>& launch, wb::device_buffer<sum_t<T>>& d_out,
                         const expected_sum<T>& expected, std::int64_t depth, int reps) {
  stage_run r;
  d_out.fill_bytes(0xA5);  // a stage that never writes its sum fails the check
  r.time = wb::time_gpu(launch, {3, reps, true});
  const sum_t<T> got = d_out.to_host()[0];
  sum_t<T> poison;
  std::memset(&poison, 0xA5, sizeof poison);
  if (std::memcmp(&got, &poison, sizeof got) == 0) {
    r.sum_text = "nothing (the sum was never written)";
    r.note = "the sum was never written";
    return r;
  }
  r.sum_text = value_text<T>(got);
  std::string why;
  r.verified = agrees<T>(expected, got, depth, &why);
  if (!r.verified) r.note = why;
  return r;
}

// Stage 0 runs on the host: timed with the host clock, a few runs.
template <class T>
stage_run run_sequential(host_fn<T> fn, const std::vector<T>& data, const expected_sum<T>& expected, int reps) {
  stage_run r;
  wb::timing t;
  sum_t<T> got{};
  for (int i = 0; i < std::min(reps, 5); ++i) {
    const auto start = std::chrono::steady_clock::now();
    got = fn(std::span<const T>(data));
    const auto stop = std::chrono::steady_clock::now();
    t.samples_ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  auto sorted = t.samples_ms;
  std::sort(sorted.begin(), sorted.end());
  t.median_ms = sorted[sorted.size() / 2];
  t.min_ms = sorted.front();
  t.max_ms = sorted.back();
  r.time = t;
  r.sum_text = value_text<T>(got);
  std::string why;
  // The specification against itself (or the learner's against the solution's): within
  // one rounding of the correctly rounded sum.
  r.verified = agrees<T>(expected, got, 2, &why);
  if (!r.verified) r.note = why;
  r.note = r.note.empty() ? "on the host" : r.note;
  return r;
}

// ---------------------------------------------------------------------------------------
// --trace: one block's tree, thread by thread
// ---------------------------------------------------------------------------------------

// Prints the tree of stages 1 and 2 for one block, draws it to `svg` (if open), then runs
// stages 1 and 2 of each track on the device with that one block and says whether each
// gives the tree's root.
template <class T>
int run_trace(const options& opt, const std::vector<T>& data, const std::vector<std::string>& tracks, std::ofstream* svg) {
  const std::span<const T> in(data);
  fmt::print("{}", trace_tree<T>(in, opt.block));
  if (svg != nullptr) {
    wb::svg::reduction_tree_input<sum_t<T>> picture;
    picture.items.assign(data.begin(), data.end());
    picture.block = opt.block;
    picture.caption = fmt::format("reduction, stages 1 and 2: the tree of one block, {} {} items, {} threads",
                                  data.size(), opt.type, opt.block);
    *svg << wb::svg::reduction_tree_svg(picture);
    svg->close();
    if (!*svg) throw wb::usage_error("--svg: cannot write " + opt.svg);
    fmt::print("the picture: {}\n", opt.svg);
  }

  // The kernels on the same block: one block in the first pass, so the tree above is theirs.
  const sum_t<T> root = tree_sum<T>(in, opt.block);
  const config one_block{opt.block, 1};
  const auto n = static_cast<std::int64_t>(data.size());
  wb::device_buffer<T> d_in(data);
  wb::device_buffer<sum_t<T>> d_out(1);
  workspace_buffer<T> ws(n, one_block);
  bool all_agree = true;
  for (const auto& track : tracks) {
    for (const int number : {1, 2}) {
      d_out.fill_bytes(0xA5);
      device_stage_of<T>(track, number)(d_in.data(), n, d_out.data(), ws.view(), one_block);
      WB_CHECK(cudaDeviceSynchronize());
      const sum_t<T> got = d_out.to_host()[0];
      sum_t<T> poison;
      std::memset(&poison, 0xA5, sizeof poison);
      const bool written = std::memcmp(&got, &poison, sizeof got) != 0;
      const bool agree = written && value_text<T>(got) == value_text<T>(root);
      all_agree = all_agree && agree;
      fmt::print("{} ({}) on the device, one block of {}: {}\n", stage_label(stages[static_cast<std::size_t>(number)]),
                 track, opt.block,
                 agree     ? value_text<T>(got) + ", the tree's root"
                 : written ? fmt::format("{}, DIFFERS from the tree's root {}", value_text<T>(got), value_text<T>(root))
                           : fmt::format("nothing (the sum was never written); the tree's root is {}", value_text<T>(root)));
    }
  }
  return all_agree ? 0 : 1;
}

// ---------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------

template <class T>
int run(const options& opt) {
  const config cfg{opt.block, opt.blocks};
  try {
    validate(cfg);
  } catch (const std::invalid_argument& e) {
    throw wb::usage_error(std::string("--block/--blocks: ") + e.what());
  }
  std::vector<std::pair<int, std::string>> known;
  for (const auto& s : stages) known.emplace_back(s.number, s.suite);
  wb::require_known_stages(opt.common.stages, known);

  // --trace and --svg: refused before any work when the picture would be too large or the
  // file cannot be written.
  const std::string too_large = fmt::format(
      "--trace draws every thread: give at most {} items and --block at most {}", max_trace_items, max_trace_block);
  if (opt.trace) {
    if (opt.sweep_block) throw wb::usage_error("--trace and --sweep-block: give one");
    if (opt.block > max_trace_block) throw wb::usage_error(too_large);
    if (!(opt.input_given || opt.input_file_given) && (opt.n < 0 || opt.n > static_cast<std::int64_t>(max_trace_items)))
      throw wb::usage_error(too_large);
  }
  std::ofstream svg_file;
  if (!opt.svg.empty()) {
    svg_file.open(opt.svg);
    if (!svg_file) throw wb::usage_error("--svg: cannot write " + opt.svg);
  }

  // The input: the one given (an empty list or file is an empty input, whose sum is 0), or
  // generated data. --print is refused for inputs too long to read, before any work.
  std::vector<T> data;
  std::string source;
  if (opt.input_given || opt.input_file_given) {
    if (opt.input_given && opt.input_file_given) throw wb::usage_error("--input and --input-file: give one");
    if (opt.n >= 0) throw wb::usage_error("--n and --input/--input-file: the input sets n");
    data = opt.input_given ? wb::parse_list<T>(opt.input, "--input") : wb::read_numbers_file<T>(opt.input_file);
    source = opt.input_given ? "--input" : opt.input_file;
    if (opt.common.print) wb::require_printable(data.size(), "the input");
    if (opt.trace && data.size() > max_trace_items) throw wb::usage_error(too_large);
    wb::print_device_info_or_exit();
  } else {
    const std::int64_t n = opt.n >= 0 ? opt.n : default_n();
    if (opt.common.print) wb::require_printable(static_cast<std::uint64_t>(n), "the input");
    wb::print_device_info_or_exit();
    const std::uint64_t bytes = wb::bytes_for(static_cast<std::uint64_t>(n), sizeof(T), "--n");
    wb::require_memory(bytes + (max_blocks + 16) * sizeof(sum_t<T>), bytes,
                       fmt::format("a sum of {} {} items", n, opt.type));
    data = generate<T>(opt.dist, static_cast<std::size_t>(n), opt.common.seed);
    source = fmt::format("{}, seed {}", opt.dist, opt.common.seed);
  }
  const auto n = static_cast<std::int64_t>(data.size());
  const double bytes = static_cast<double>(n) * sizeof(T);

  std::vector<std::string> tracks;
  if (opt.common.compare) tracks = {"solution", "exercise"};
  else tracks = {opt.common.track};
  if (opt.trace) return run_trace<T>(opt, data, tracks, opt.svg.empty() ? nullptr : &svg_file);

  // The specification: the solution's stage 0, and sum|x| for the float tolerance.
  expected_sum<T> expected;
  expected.value = solution::sum_sequential<T>(std::span<const T>(data));
  if constexpr (std::is_floating_point_v<T>) {
    for (const T x : data) expected.sum_abs += std::fabs(static_cast<double>(x));
  }
  const std::int64_t depth = rounding_depth(n, cfg);

  wb::device_buffer<T> d_in(data);
  wb::device_buffer<sum_t<T>> d_out(1);
  // The workspace for every block size of a sweep (32 threads give the most blocks).
  workspace_buffer<T> ws(n, opt.sweep_block ? config{min_block, cfg.blocks} : cfg);
  const workspace<T> w = ws.view();

  // --sweep-block: the Handbook's experiment, every block size for every selected device stage.
  if (opt.sweep_block) {
    std::FILE* csv = nullptr;
    if (!opt.common.csv.empty()) {
      csv = std::fopen(opt.common.csv.c_str(), "w");
      if (csv == nullptr) throw wb::usage_error("cannot write " + opt.common.csv);
      std::fprintf(csv, "stage,track,block,median_ms,gb_per_s,verified\n");
    }
    fmt::print("block-size sweep: sum of {} {} ({}), GB/s of input read{}\n", n, opt.type, source,
               wb::backend_is_cuda ? "" : " (timings emulated on the cpu backend: meaningless for a GPU)");
    fmt::print("{:<26}", "stage");
    for (int b = min_block; b <= max_block; b *= 2) fmt::print("{:>9}", b);
    fmt::print("   best\n");
    bool all_ok = true;
    for (const auto& s : stages) {
      if (s.number == 0 || !wb::stage_selected(opt.common.stages, s.number, s.suite)) continue;
      for (const auto& track : tracks) {
        fmt::print("{:<26}", tracks.size() > 1 ? stage_label(s) + " (" + track + ")" : stage_label(s));
        double best_gbs = 0;
        int best_block = 0;
        for (int b = min_block; b <= max_block; b *= 2) {
          const config c{b, cfg.blocks};
          const device_fn<T> fn = device_stage_of<T>(track, s.number);
          const stage_run r = time_and_check<T>([&] { fn(d_in.data(), n, d_out.data(), w, c); }, d_out, expected,
                                                rounding_depth(n, c), opt.common.reps);
          const double gbs = bytes / (r.time->median_ms * 1e6);
          all_ok = all_ok && r.verified;
          fmt::print("{:>9}", fmt::format("{:.1f}{}", gbs, r.verified ? "" : "!"));
          if (r.verified && gbs > best_gbs) {
            best_gbs = gbs;
            best_block = b;
          }
          if (csv) std::fprintf(csv, "%s,%s,%d,%.6f,%.3f,%s\n", stage_label(s).c_str(), track.c_str(), b, r.time->median_ms,
                                gbs, r.verified ? "yes" : "no");
        }
        if (best_block > 0) fmt::print("   {} ({:.1f} GB/s)\n", best_block, best_gbs);
        else fmt::print("   - (no block size verified)\n");
      }
    }
#if defined(WB_HAVE_BASELINE)
    {  // the library in the same run, for reference (it has no block size to sweep)
      const std::size_t temp_bytes = baseline::cub_sum_temp_bytes<T>(n);
      wb::device_buffer<unsigned char> temp(temp_bytes);
      const stage_run r = time_and_check<T>(
          [&] { baseline::cub_sum<T>(d_in.data(), n, d_out.data(), temp.data(), temp_bytes); }, d_out, expected,
          std::max<std::int64_t>(n, 1), opt.common.reps);
      const double gbs = bytes / (r.time->median_ms * 1e6);
      all_ok = all_ok && r.verified;
      fmt::print("{:<26}{:>9}   (no block size)\n", "cub::DeviceReduce::Sum", fmt::format("{:.1f}{}", gbs, r.verified ? "" : "!"));
      if (csv) std::fprintf(csv, "cub::DeviceReduce::Sum,baseline,,%.6f,%.3f,%s\n", r.time->median_ms, gbs,
                            r.verified ? "yes" : "no");
    }
#endif
    if (csv) std::fclose(csv);
    if (!all_ok) fmt::print("a value marked ! did not verify\n");
    return all_ok ? 0 : 1;
  }

  wb::report report(fmt::format("reduction: sum of {} {} ({}), block {}, blocks {}", n, opt.type, source, cfg.block,
                                cfg.blocks > 0 ? std::to_string(cfg.blocks) : "auto"),
                    wb::copy_bandwidth_gbs());
  std::vector<std::string> printed;
  std::vector<std::string> comparisons;
  for (const auto& s : stages) {
    if (!wb::stage_selected(opt.common.stages, s.number, s.suite)) continue;
    std::vector<stage_run> runs;
    for (const auto& track : tracks) {
      stage_run r;
      if (s.number == 0) {
        r = run_sequential<T>(sequential_of<T>(track), data, expected, opt.common.reps);
      } else {
        const device_fn<T> fn = device_stage_of<T>(track, s.number);
        r = time_and_check<T>([&] { fn(d_in.data(), n, d_out.data(), w, cfg); }, d_out, expected, depth,
                              opt.common.reps);
      }
      const std::string label = tracks.size() > 1 ? stage_label(s) + " (" + track + ")"
                                : track == "exercise" ? stage_label(s) + " (exercise)"
                                                      : stage_label(s);
      report.add({label, r.time, bytes, static_cast<double>(n), r.verified, false, r.note});
      if (!r.sum_text.empty()) printed.push_back(fmt::format("{}: {}", label, r.sum_text));
      runs.push_back(r);
    }
    if (tracks.size() == 2) {
      const stage_run& sol = runs[0];
      const stage_run& ex = runs[1];
      std::string verdict;
      if (ex.sum_text == sol.sum_text) {
        verdict = fmt::format("agree: {}", sol.sum_text);
      } else if (ex.verified && sol.verified) {
        verdict = fmt::format("agree within the tolerance: solution {}, exercise {}", sol.sum_text, ex.sum_text);
      } else {
        verdict = fmt::format("DIFFER: expected {} (solution), got {} (exercise)", sol.sum_text, ex.sum_text);
      }
      comparisons.push_back(fmt::format("{}: {}", stage_label(s), verdict));
    }
  }

#if defined(WB_HAVE_BASELINE)
  {
    const std::size_t temp_bytes = baseline::cub_sum_temp_bytes<T>(n);
    wb::device_buffer<unsigned char> temp(temp_bytes);
    const stage_run r = time_and_check<T>(
        [&] { baseline::cub_sum<T>(d_in.data(), n, d_out.data(), temp.data(), temp_bytes); }, d_out, expected,
        std::max<std::int64_t>(n, 1), opt.common.reps);
    report.add({"cub::DeviceReduce::Sum", r.time, bytes, static_cast<double>(n), r.verified, true, r.note});
    if (!r.sum_text.empty()) printed.push_back("cub::DeviceReduce::Sum: " + r.sum_text);
  }
#endif

  report.print();
  if (opt.common.print) {
    for (const auto& line : printed) fmt::print("{}\n", line);
  }
  for (const auto& line : comparisons) fmt::print("{}\n", line);
  report.write_files(opt.common.csv, opt.common.json);
  return report.all_verified() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"reduction: the sum of n items, stage by stage (The CUDA Handbook §12.2, then past it)"};
  options opt;
  wb::add_common_options(app, opt.common);
  app.add_option("--n", opt.n, "items to sum (default: 2^28 on a GPU, 2^22 on the cpu backend)")
      ->check(CLI::Range(std::int64_t{0}, max_n));
  app.add_option("--type", opt.type, "item type (int32 sums in 64 bits)")
      ->check(CLI::IsMember({"int32", "int64", "float", "double"}))
      ->capture_default_str();
  app.add_option("--dist", opt.dist, "generated data: uniform, few (16 distinct), equal (int32: INT_MAX), "
                                     "extremes (integers), zipf, iota (shuffled)")
      ->check(CLI::IsMember({"uniform", "few", "equal", "extremes", "zipf", "iota"}))
      ->capture_default_str();
  app.add_option("--block", opt.block, "threads per block: a power of two from 32 to 1024")->capture_default_str();
  app.add_option("--blocks", opt.blocks, "blocks of the first pass (default 0: enough to fill the GPU once)")
      ->capture_default_str();
  app.add_flag("--sweep-block", opt.sweep_block, "time every block size 32..1024 for each stage, print the best");
  app.add_option("--input", opt.input, "explicit input, comma separated (instead of --n/--dist); '' is the empty input");
  app.add_option("--input-file", opt.input_file,
                 "explicit input, whitespace-separated numbers in a file ('#' starts a comment; an empty file is "
                 "the empty input)");
  app.add_flag("--trace", opt.trace,
               fmt::format("for at most {} items: the tree of stages 1 and 2 in one block (--block {} unless given, "
                           "at most {}), thread by thread, and the device's sums for that block",
                           max_trace_items, default_trace_block, max_trace_block));
  app.add_option("--svg", opt.svg, "with --trace: also draw the tree to this SVG file");
  app.get_option("--print")->description(
      fmt::format("print each stage's sum on one line (inputs of at most {} items)", wb::max_print_elements));

  return wb::run_main(app, argc, argv, [&]() -> int {
    opt.input_given = app.count("--input") > 0;
    opt.input_file_given = app.count("--input-file") > 0;
    if (app.count("--svg") > 0 && !opt.trace) throw wb::usage_error("--svg draws the tree of --trace: give --trace too");
    if (app.count("--svg") > 0 && opt.svg.empty()) throw wb::usage_error("--svg: give the file to write");
    if (opt.trace && app.count("--block") == 0) opt.block = default_trace_block;
    if (opt.type == "int32") return run<std::int32_t>(opt);
    if (opt.type == "int64") return run<std::int64_t>(opt);
    if (opt.type == "float") return run<float>(opt);
    return run<double>(opt);
  });
}
