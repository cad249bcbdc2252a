// counting: runs the stages of the distribution counting chapter on one input, checks each
// against the specification (stage 0 when N is small, else stage 2), and prints the report.
//
//   counting                                   10^9 uniform int8 items on a GPU (2^18 on the cpu backend)
//   counting --type int64 --n 67108864 --dist few --distinct 1048576
//   counting --input 3,1,6,2,1,3,6 --print     the article's example, every stage's table
//   counting --stage 6 --compare               your stage 6 against the solution's
//   counting --stage 6 --tune                  stage 6's counter layouts and blocks per SM
//
// The O(N^2) stages (0, 1, 3, 4) are timed on a small sample first; when the estimate for
// the whole input is too long, the row says "refused" with that estimate (the article's
// Table 1 gives 12 min 38 s for 10^6 items, 232 h for 10^9).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "counting.hpp"
#include "harness.hpp"
#include "stages.hpp"
#include "wb/bandwidth.hpp"
#include "wb/cli.hpp"
#include "wb/device_buffer.hpp"
#include "wb/device_info.hpp"
#include "wb/generate.hpp"
#include "wb/report.hpp"
#include "wb/timing.hpp"
#if defined(WB_HAVE_BASELINE)
#include "baseline.hpp"
#endif

namespace {

using counting::entry;
using counting::track_id;

constexpr std::int64_t max_zipf_distinct = std::int64_t{1} << 27;

struct options {
  wb::common_options common;
  std::string n_text;
  std::string type = "int8";
  std::string dist = "uniform";
  std::int64_t distinct = 0;
  std::string distinct_text;
  std::string input;
  std::string input_file;
  bool input_given = false;       // --input was given (an empty list is an empty input)
  bool input_file_given = false;  // --input-file was given (an empty file is an empty input)
  bool targets = false;
  int variant = 0;
  int blocks_per_sm = 0;
  std::int64_t chunk = 0;
  int streams = 4;
  bool tune = false;
  double budget_s = 0;
};

// "1e9", "2^30", "1000000000" -> items.
std::int64_t parse_count(const std::string& text, const char* what) {
  auto bad = [&] { return wb::usage_error(fmt::format("{} must be a count of items (e.g. 1000000, 1e9, 2^30), not '{}'", what, text)); };
  if (text.empty()) throw bad();
  double value = 0;
  try {
    std::size_t used = 0;
    if (const auto caret = text.find('^'); caret != std::string::npos) {
      const double base = std::stod(text.substr(0, caret), &used);
      if (used != caret) throw bad();
      const std::string e = text.substr(caret + 1);
      const double exponent = std::stod(e, &used);
      if (used != e.size()) throw bad();
      value = std::pow(base, exponent);
    } else {
      value = std::stod(text, &used);
      if (used != text.size()) throw bad();
    }
  } catch (const std::logic_error&) {
    throw bad();
  }
  if (!std::isfinite(value) || value < 0 || value != std::floor(value) || value > 1e12) throw bad();
  return static_cast<std::int64_t>(value);
}

std::string human_seconds(double s) {
  if (s < 1e-3) return fmt::format("{:.0f} us", s * 1e6);
  if (s < 1) return fmt::format("{:.1f} ms", s * 1e3);
  if (s < 120) return fmt::format("{:.1f} s", s);
  if (s < 7200) return fmt::format("{:.0f} min", s / 60);
  if (s < 86400 * 3) return fmt::format("{:.1f} h", s / 3600);
  return fmt::format("{:.0f} days", s / 86400);
}

// Host timing for the host stages: median of reps runs.
wb::timing time_host(const std::function<void()>& run, int reps) {
  wb::timing t;
  for (int i = 0; i < reps; ++i) {
    const auto start = std::chrono::steady_clock::now();
    run();
    t.samples_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::vector<double> sorted = t.samples_ms;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t m = sorted.size();
  t.median_ms = m % 2 ? sorted[m / 2] : 0.5 * (sorted[m / 2 - 1] + sorted[m / 2]);
  t.min_ms = sorted.front();
  t.max_ms = sorted.back();
  return t;
}

template <class T>
std::vector<T> make_input(const options& o, std::int64_t n) {
  if (o.input_given) return wb::parse_list<T>(o.input, "--input");
  if (o.input_file_given) return wb::read_numbers_file<T>(o.input_file);
  const auto count = static_cast<std::size_t>(n);
  const std::uint64_t seed = o.common.seed;
  if (o.dist == "uniform") return wb::gen::uniform<T>(count, seed);
  if (o.dist == "one-hot") return wb::gen::all_equal<T>(count, T{42});
  if (o.dist == "few") return wb::gen::few_distinct<T>(count, seed, static_cast<std::size_t>(o.distinct));
  if (o.dist == "zipf") return wb::gen::zipf<T>(count, seed, static_cast<std::size_t>(o.distinct));
  return wb::gen::iota<T>(count, seed, true);  // all-distinct (int64 only; checked before)
}

template <class T>
std::string describe_input(const options& o, std::int64_t n) {
  const std::string type = std::is_same_v<T, std::int8_t> ? "int8" : "int64";
  if (o.input_given) return fmt::format("{} {} items from --input", n, type);
  if (o.input_file_given) return fmt::format("{} {} items from {}", n, type, o.input_file);
  std::string d = o.dist;
  if (o.dist == "few" || o.dist == "zipf") d += fmt::format(" ({} distinct)", o.distinct);
  return fmt::format("{} {} items, {}, seed {}", n, type, d, o.common.seed);
}

// The reference for large int64 inputs, where stage 2 (one core: sort, then run-length) takes
// seconds: the same sort split over the host's cores (sort the parts in parallel, merge them
// pairwise in parallel), then the same run-length pass.
template <class T>
std::vector<entry<T>> parallel_sorted_count(const std::vector<T>& data) {
  std::vector<T> v(data);
  const std::size_t parts = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 64);
  std::vector<std::size_t> bounds(parts + 1);
  for (std::size_t p = 0; p <= parts; ++p) bounds[p] = v.size() * p / parts;
  auto in_parallel = [](std::size_t count, const auto& work) {
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < count; ++i) threads.emplace_back(work, i);
    for (auto& t : threads) t.join();
  };
  in_parallel(parts, [&](std::size_t p) { std::sort(v.begin() + bounds[p], v.begin() + bounds[p + 1]); });
  for (std::size_t width = 1; width < parts; width *= 2) {
    const std::size_t pairs = (parts + 2 * width - 1) / (2 * width);
    in_parallel(pairs, [&](std::size_t i) {
      const std::size_t lo = 2 * width * i, mid = std::min(lo + width, parts), hi = std::min(lo + 2 * width, parts);
      std::inplace_merge(v.begin() + bounds[lo], v.begin() + bounds[mid], v.begin() + bounds[hi]);
    });
  }
  std::vector<entry<T>> table;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j < v.size() && v[j] == v[i]) ++j;
    table.push_back({v[i], static_cast<std::uint64_t>(j - i)});
    i = j;
  }
  return table;
}

struct outcome {
  std::optional<wb::timing> time;
  bool verified = false;
  std::string note;
  std::vector<entry<std::int8_t>> table8;
  std::vector<entry<std::int64_t>> table64;
};

// One stage of one track: estimate (quadratic stages), run, verify, time.
template <track_id Track, class T>
outcome run_one(int stage, const counting::input<T>& in, const counting::config& cfg,
                const std::vector<entry<T>>& reference, int reps, double budget_s) {
  outcome out;
  const auto n = static_cast<std::int64_t>(in.host.size());
  std::string estimated;  // the O(N^2) estimate, when one was made
  try {
    const auto& tr = counting::traits[static_cast<std::size_t>(stage)];
    if (tr.gpu_only && !wb::backend_is_cuda) {
      out.note = "GPU-only (device-side launches)";
      return out;
    }
    if (tr.quadratic) {
      // Time the stage on two samples, s and s/2 items, and extrapolate with the comparison
      // count of the article's algorithm: t(n) = t(s) + a (C(n) - C(s)), where the slope a
      // comes from the two samples (so fixed costs, like starting threads, do not scale).
      const std::int64_t s = std::min<std::int64_t>(n, wb::backend_is_cuda ? 32768 : 2048);
      if (s < n) {
        auto time_sample = [&](std::int64_t items) {
          counting::input<T> part{in.host.subspan(0, static_cast<std::size_t>(items)), in.device};
          counting::stage_runner<Track, T> small(stage, part, cfg);
          small.run();
          small.result();
          const auto t0 = std::chrono::steady_clock::now();
          small.run();
          small.result();
          return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        };
        const double t_half = time_sample(s / 2);
        const double t_full = time_sample(s);
        const double k = static_cast<double>(reference.size());
        auto comparisons = [&](double items) { return counting::quadratic_comparisons(items, std::min(k, items)); };
        const double slope = std::max(0.0, t_full - t_half) / (comparisons(double(s)) - comparisons(double(s / 2)));
        const double estimate = t_full + slope * (comparisons(double(n)) - comparisons(double(s)));
        estimated = human_seconds(estimate);
        if (estimate > budget_s) {
          out.note = fmt::format("refused: O(N^2), estimated {} (from {} and {} items)", human_seconds(estimate), s / 2, s);
          return out;
        }
      }
    }
    counting::stage_runner<Track, T> runner(stage, in, cfg);
    const auto t0 = std::chrono::steady_clock::now();
    (void)counting::take_stage_note();
    runner.run();
    WB_CHECK(cudaDeviceSynchronize());  // the stage's own time: not the copy of its table below
    const double once = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::string choice = counting::take_stage_note();  // stage 7: the path it took, and why
    const auto got = runner.result();
    const auto mismatch = counting::table_mismatch(reference, got);
    out.verified = !mismatch.has_value();
    out.note = choice;
    if (mismatch) out.note += (out.note.empty() ? "" : "; ") + ("WRONG: " + *mismatch);
    if constexpr (std::is_same_v<T, std::int8_t>) out.table8 = got; else out.table64 = got;
    // Long stages get fewer repetitions: about 10 s each at most, and a stage that takes over
    // 2 s is reported from the checked run alone (its wall time up to its last kernel's end;
    // not the copy of its table to the host, which for 10^8 distinct keys alone takes ~2 s).
    if (once > 2) {
      out.time = wb::timing{once * 1e3, once * 1e3, once * 1e3, {once * 1e3}};
      out.note += (out.note.empty() ? "" : "; ") + std::string("1 run");
      return out;
    }
    int r = reps;
    if (once * reps > 10) r = std::max(1, static_cast<int>(10 / once));
    if (tr.host) {
      out.time = time_host([&] { runner.run_timed(); }, r);
    } else {
      wb::timing_options opt;
      opt.reps = r;
      opt.warmup = once > 0.5 ? 1 : 3;
      out.time = wb::time_gpu([&] { runner.run_timed(); }, opt);
    }
    if (r < reps) out.note += (out.note.empty() ? "" : "; ") + fmt::format("{} reps", r);
  } catch (const counting::stage_refused& e) {
    out.note = std::string("refused: ") + e.what();
    if (!estimated.empty()) out.note += " (estimated " + estimated + ")";
  }
  return out;
}

// The chapter's goals on an H100 (README, "Measurements"), against what this run measured.
// A goal is judged only on its own input; on another input the line says so.
void print_goals(std::map<std::string, double>& times, bool int8, std::int64_t n, const options& o) {
  auto have = [&](const char* k) { return times.count(k) > 0; };
  auto met = [](bool yes) { return yes ? "met" : "not met"; };
  auto size_note = [&](std::int64_t goal_n, const char* goal_dist = nullptr, std::int64_t goal_distinct = 0) {
    const bool same = n == goal_n && (goal_dist == nullptr || o.dist == goal_dist) &&
                      (goal_distinct == 0 || o.distinct == goal_distinct);
    return same ? "" : " (the goal is set on another input)";
  };
  std::printf("\nthe chapter's goals (set for an H100):\n");
  if (!wb::backend_is_cuda) {
    std::printf("  not judged here: the cpu backend's timings are emulated\n");
    return;
  }
  bool any = false;
  if (int8 && have("6") && have("baseline")) {
    const double speedup = times["baseline"] / times["6"];
    std::printf("  stage 6 at least 1.25x CUB HistogramEven on 2^30 uniform int8: %.2fx, %s%s\n", speedup,
                met(speedup >= 1.25), size_note(std::int64_t{1} << 30, "uniform"));
    any = true;
  }
  if (int8 && have("6")) {
    std::printf("  stage 6 under 0.4 ms on 10^9 int8: %.3f ms, %s%s\n", times["6"], met(times["6"] < 0.4),
                size_note(1'000'000'000, "uniform"));
    any = true;
  }
  if (!int8 && have("7") && have("baseline")) {
    // On 2^26 int64 keys: never slower than the sort, far faster where keys repeat.
    const double speedup = times["baseline"] / times["7"];
    const std::int64_t d = o.distinct;
    const bool few = o.dist == "few", zipf = o.dist == "zipf";
    double goal = 1.0;
    if (few && d == std::int64_t{1} << 10) goal = 10;
    if (few && d == std::int64_t{1} << 14) goal = 5;
    if (few && d == std::int64_t{1} << 20) goal = 4;
    if (zipf && d == std::int64_t{1} << 20) goal = 3;
    const bool on_goal_input = n == std::int64_t{1} << 26 && (few || zipf || o.dist == "all-distinct");
    std::printf("  stage 7 at least %gx CUB sort + RLE on 2^26 int64 keys (%s; 1x at any number of distinct keys, "
                "10x at 2^10 few, 5x at 2^14, 4x at 2^20, 3x at 2^20 zipf): %.2fx, %s%s\n",
                goal, o.dist.c_str(), speedup, met(speedup >= goal),
                on_goal_input ? "" : " (the goal is set on another input)");
    any = true;
  }
  if (int8 && have("8") && have("h2d")) {
    const double ratio = times["8"] / times["h2d"];
    std::printf("  stage 8 within 1.2x of the bare pinned host-to-device copy: %.3fx, %s\n", ratio, met(ratio <= 1.2));
    any = true;
  }
  if (!any) std::printf("  none measured by this run (the goals need the cuda backend and stages 6, 7 or 8)\n");
}

std::string stage_label(int stage) {  // "6 privatized"
  return wb::stage_label(counting::stages[static_cast<std::size_t>(stage)]);
}

template <class T>
int run_all(const options& o) {
  const bool int8 = std::is_same_v<T, std::int8_t>;
  // Every check of the command line comes before the input is made (10^9 items by default).
  std::vector<std::pair<int, std::string>> known;
  for (int s = 0; s < counting::stage_count; ++s) known.emplace_back(s, counting::stages[static_cast<std::size_t>(s)].suite);
  wb::require_known_stages(o.common.stages, known);
  const bool explicit_input = o.input_given || o.input_file_given;
  if (explicit_input && !o.n_text.empty()) throw wb::usage_error("--n and --input/--input-file: the input sets n");
  std::int64_t n = 0;  // explicit input: its own length, known once it is read
  if (explicit_input) n = 0;
  else if (!o.n_text.empty()) n = parse_count(o.n_text, "--n");
  else if (wb::backend_is_cuda) n = int8 ? 1'000'000'000 : std::int64_t{1} << 26;
  else n = std::int64_t{1} << 18;
  if (int8 && o.dist == "all-distinct" && !explicit_input && n > 256) {
    throw wb::usage_error("--dist all-distinct: int8 has only 256 values; use --type int64 or --n <= 256");
  }
  if ((o.dist == "few" || o.dist == "zipf") && o.distinct < 1)
    throw wb::usage_error("--distinct must be at least 1 for --dist " + o.dist);
  if (o.dist == "zipf" && int8 && o.distinct > 128)
    throw wb::usage_error("--dist zipf draws values 0..K-1: K must be <= 128 for int8");
  if (o.dist == "zipf" && o.distinct > max_zipf_distinct)  // the generator keeps a table of K weights
    throw wb::usage_error(fmt::format("--dist zipf: --distinct must be at most 2^27 (got {})", o.distinct));
  // --print shows every stage's table: refused before any work for an input too long to read.
  if (o.common.print && !explicit_input) wb::require_printable(static_cast<std::uint64_t>(n), "the input");
  wb::require_memory(wb::bytes_for(static_cast<std::uint64_t>(n), sizeof(T) * 3, "the input"),
                     wb::bytes_for(static_cast<std::uint64_t>(n), sizeof(T) * 3, "the input"), "counting");

  const std::vector<T> data = make_input<T>(o, n);
  n = static_cast<std::int64_t>(data.size());
  if (o.common.print) wb::require_printable(static_cast<std::uint64_t>(n), "the input");
  wb::device_buffer<T> d_in(data);
  const counting::input<T> in{std::span<const T>(data), d_in.data()};

  counting::config cfg;
  cfg.variant = o.variant;
  cfg.blocks_per_sm = o.blocks_per_sm;
  // Stage 7 estimates the distinct keys itself (cfg.expected_distinct stays 0): --distinct
  // only shapes the generated input.
  // A chunk longer than the input would only allocate staging buffers nobody fills.
  if (o.chunk > 0) cfg.chunk_items = std::min<std::int64_t>(o.chunk, std::max<std::int64_t>(n, 1));
  cfg.streams = o.streams;
  try {
    counting::validate(cfg);
  } catch (const std::invalid_argument& e) {
    throw wb::usage_error(e.what());
  }

  const int reps = o.common.reps;
  const double budget = o.budget_s > 0 ? o.budget_s : (wb::backend_is_cuda ? 20.0 : 5.0);

  // The reference: the specification where it is quick, else stage 2 (the solution's; for
  // large int64 inputs the same sort spread over the host's cores).
  const auto r0 = std::chrono::steady_clock::now();
  const std::vector<entry<T>> reference =
      n <= 20000 ? counting::solution::dist_count<T>(data)
                 : (std::is_same_v<T, std::int64_t> && n > (std::int64_t{1} << 20) ? parallel_sorted_count<T>(data)
                                                                                    : counting::solution::count_cpu<T>(data));
  const double reference_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - r0).count();
  std::printf("input: %s; %zu distinct values (reference: stage %d, %s)\n", describe_input<T>(o, n).c_str(),
              reference.size(), n <= 20000 ? 0 : 2, human_seconds(reference_s).c_str());

  const double bytes = static_cast<double>(n) * sizeof(T);
  wb::report report(fmt::format("counting: {}", describe_input<T>(o, n)),
                    n > 0 ? wb::copy_bandwidth_gbs() : 0.0);
  bool all_ok = true;
  std::map<std::string, double> times;  // for --targets

  // ---- the library baseline ----
#if defined(WB_HAVE_BASELINE)
  if (n > 0) {
    wb::report_row row;
    row.work = bytes;
    row.items = static_cast<double>(n);
    row.is_baseline = true;
    if constexpr (std::is_same_v<T, std::int8_t>) {
      row.stage = "CUB HistogramEven";
      wb::device_buffer<unsigned> bins(256);
      wb::device_buffer<unsigned char> temp(counting::baseline::cub_histogram_temp_bytes(n));
      auto call = [&] { counting::baseline::cub_histogram(d_in.data(), n, bins.data(), temp.data(), temp.size()); };
      call();
      const auto h = bins.to_host();  // h[b]: items whose raw byte is b
      std::vector<entry<T>> got;
      for (int v = -128; v <= 127; ++v) {
        const unsigned c = h[static_cast<std::uint8_t>(v)];
        if (c > 0) got.push_back({static_cast<T>(v), c});
      }
      row.verified = got == reference;
      wb::timing_options opt;
      opt.reps = reps;
      row.time = wb::time_gpu(call, opt);
    } else {
      row.stage = "CUB sort + RLE";
      wb::device_buffer<T> sorted(static_cast<std::size_t>(n)), keys(static_cast<std::size_t>(n));
      wb::device_buffer<std::uint64_t> counts(static_cast<std::size_t>(n));
      wb::device_buffer<std::int64_t> runs(1);
      wb::device_buffer<unsigned char> temp(counting::baseline::cub_sort_rle_temp_bytes(n));
      auto call = [&] {
        counting::baseline::cub_sort_rle(d_in.data(), n, sorted.data(), keys.data(), counts.data(), runs.data(),
                                         temp.data(), temp.size());
      };
      call();
      const auto k = static_cast<std::size_t>(runs.to_host()[0]);
      const auto hk = keys.to_host(k);  // the runs only: CUB writes k of the n slots
      const auto hc = counts.to_host(k);
      std::vector<entry<T>> got;
      for (std::size_t i = 0; i < k; ++i) got.push_back({hk[i], hc[i]});
      row.verified = got == reference;
      wb::timing_options opt;
      opt.reps = reps;
      row.time = wb::time_gpu(call, opt);
    }
    all_ok = all_ok && row.verified;
    times["baseline"] = row.time->median_ms;
    report.add(row);
  }
#endif

  // ---- the stages ----
  const bool compare = o.common.compare;
  const track_id main_track = o.common.track == "exercise" ? track_id::exercise : track_id::solution;

  for (int s = 0; s < counting::stage_count; ++s) {
    if (!wb::stage_selected(o.common.stages, s, counting::stages[static_cast<std::size_t>(s)].suite)) continue;
    if (!counting::stage_applies<T>(s)) continue;
    std::vector<std::pair<counting::config, std::string>> configs{{cfg, ""}};
    if (o.tune && s == 6) {
      configs.clear();
      for (int v = 0; v <= 3; ++v)
        for (int b : {0, 1, 2, 3}) {
          counting::config c = cfg;
          c.variant = v;
          c.blocks_per_sm = b;
          configs.push_back({c, fmt::format(" v{} b{}", v, b == 0 ? std::string("max") : std::to_string(b))});
        }
    }
    if (o.tune && s == 7) {  // every path forced, after the automatic choice
      configs.clear();
      static const char* const names[] = {"", " v1 shared tables", " v2 two-level", " v3 sort + RLE", " v4 global table"};
      for (int v = 0; v <= 4; ++v) {
        counting::config c = cfg;
        c.variant = v;
        configs.push_back({c, names[v]});
      }
    }
    if (o.tune && s == 8) {
      configs.clear();
      for (std::int64_t chunk : {std::int64_t{1} << 22, std::int64_t{1} << 24, std::int64_t{1} << 26})
        for (int streams : {2, 4}) {
          counting::config c = cfg;
          c.chunk_items = chunk;
          c.streams = streams;
          configs.push_back({c, fmt::format(" chunk 2^{} x{}", static_cast<int>(std::log2(double(chunk))), streams)});
        }
    }
    for (const auto& [c, suffix] : configs) {
      std::vector<track_id> tracks{main_track};
      if (compare) tracks = {track_id::solution, track_id::exercise};
      std::vector<outcome> outs;
      for (const track_id t : tracks) {
        outcome out = t == track_id::solution ? run_one<track_id::solution, T>(s, in, c, reference, reps, budget)
                                              : run_one<track_id::exercise, T>(s, in, c, reference, reps, budget);
        wb::report_row row;
        row.stage = stage_label(s) + suffix + (compare || t == track_id::exercise ? (t == track_id::solution ? " (solution)" : " (yours)") : "");
        row.time = out.time;
        row.work = bytes;
        row.items = static_cast<double>(n);
        row.verified = out.verified;
        row.note = out.note;
        if (s == 8 && out.time) row.note += std::string(row.note.empty() ? "" : "; ") + "from pinned host memory";
        if (out.time && !out.verified) all_ok = false;
        if (out.time && suffix.empty()) times[std::to_string(s)] = out.time->median_ms;
        report.add(row);
        if (o.common.print && suffix.empty()) {
          const std::string table = int8 ? counting::format_table(out.table8) : counting::format_table(out.table64);
          std::printf("%s%s: %s\n", stage_label(s).c_str(), tracks.size() > 1 ? (t == track_id::solution ? " (solution)" : " (yours)") : "",
                      out.time ? (table.empty() ? "(empty)" : table.c_str()) : ("(" + out.note + ")").c_str());
        }
        outs.push_back(std::move(out));
      }
      if (compare && outs.size() == 2 && outs[0].time && !outs[1].time) {
        std::printf("compare %s: yours: %s\n", stage_label(s).c_str(), outs[1].note.c_str());
      } else if (compare && outs.size() == 2 && outs[0].time && outs[1].time) {
        const auto m = int8 ? counting::table_mismatch(outs[0].table8, outs[1].table8)
                            : counting::table_mismatch(outs[0].table64, outs[1].table64);
        std::printf("compare %s: %s\n", stage_label(s).c_str(),
                    m ? ("yours differs from the solution " + *m).c_str() : "yours agrees with the solution");
      }
    }
  }

  // ---- the bare host-to-device copy, stage 8's ceiling ----
  if (int8 && n > 0 && wb::stage_selected(o.common.stages, 8, counting::stages[8].suite)) {
    counting::pinned_buffer<T> pinned(data);
    wb::report_row row;
    row.stage = "H2D copy (pinned)";
    row.work = bytes;
    row.items = static_cast<double>(n);
    row.verified = true;
    row.note = "stage 8's ceiling, not a count";
    wb::timing_options opt;
    opt.reps = std::max(3, reps / 4);
    row.time = wb::time_gpu([&] {
      WB_CHECK(cudaMemcpyAsync(d_in.data(), pinned.data(), static_cast<std::size_t>(bytes), cudaMemcpyHostToDevice, 0));
    }, opt);
    times["h2d"] = row.time->median_ms;
    report.add(row);
  }

  report.print();
  report.write_files(o.common.csv, o.common.json);

  // ---- --targets: the chapter's goals, where this run measured them ----
  if (o.targets) print_goals(times, int8, n, o);
  if (!all_ok) std::printf("\nsome stage gave a WRONG table (see the notes)\n");
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Distribution counting: the article's algorithm, fixed, and what a GPU should do instead"};
  options o;
  wb::add_common_options(app, o.common);
  app.add_option("--n", o.n_text, "items (e.g. 1000000, 1e9, 2^30); default 10^9 int8 / 2^26 int64 on a GPU, 2^18 on the cpu backend");
  app.add_option("--type", o.type, "item type")->check(CLI::IsMember({"int8", "int64"}))->capture_default_str();
  app.add_option("--dist", o.dist, "generated data: uniform, one-hot (every item the same), few, all-distinct (int64), zipf")
      ->check(CLI::IsMember({"uniform", "one-hot", "few", "all-distinct", "zipf"}))
      ->capture_default_str();
  app.add_option("--distinct", o.distinct_text, "distinct values for --dist few and zipf, e.g. 2^20");
  auto* input = app.add_option("--input", o.input, "the items themselves, comma separated (e.g. 3,1,6,2,1,3,6)");
  app.add_option("--input-file", o.input_file, "read the items from a file (whitespace separated, # comments)")
      ->excludes(input);
  app.add_option("--variant", o.variant, "stage 6's counter layout: 0 16-bit atomics, 1 16-bit plain, 2 8-bit plain, 3 per-warp; stage 7's path: 0 chosen from a sample's estimate of the distinct keys (default), 1 shared-memory tables per block, 2 two-level (buckets, then a shared table per bucket), 3 sort + run-length encode, 4 one global table")
      ->check(CLI::Range(0, 4));
  app.add_option("--blocks-per-sm", o.blocks_per_sm, "stage 6's resident blocks per SM (0: as many as fit)")
      ->check(CLI::Range(0, 32));
  app.add_option("--chunk", o.chunk, "stage 8's items per transfer (default 2^24)")->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 31));
  app.add_option("--streams", o.streams, "stage 8's streams")->check(CLI::Range(1, 16))->capture_default_str();
  app.add_flag("--tune", o.tune, "stage 6: every counter layout and blocks per SM; stage 7: the automatic choice and every path; stage 8: chunk sizes and streams");
  app.add_flag("--targets", o.targets, "after the report, the chapter's goals (set for an H100) against this run's times");
  app.get_option("--print")->description(fmt::format(
      "print every stage's table (inputs of at most {} items)", wb::max_print_elements));
  app.add_option("--budget", o.budget_s, "seconds an O(N^2) stage may take before it is refused (default 20 on a GPU, 5 on the cpu backend)")
      ->check(CLI::Range(0.0, 1e6));
  return wb::run_main(app, argc, argv, [&] {
    if (!o.distinct_text.empty()) o.distinct = parse_count(o.distinct_text, "--distinct");
    o.input_given = app.count("--input") > 0;
    o.input_file_given = app.count("--input-file") > 0;
    wb::print_device_info_or_exit();
    if (!wb::backend_is_cuda && app.count("--reps") == 0) o.common.reps = 3;
    return o.type == "int8" ? run_all<std::int8_t>(o) : run_all<std::int64_t>(o);
  });
}
