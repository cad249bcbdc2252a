// Stage 5 against CUB's radix sort on the same device input, across sizes, key types and
// distributions: the input is generated on the device (so 2^28 and more keys start at once)
// and stage 5's output is checked against CUB's on the device. cuda backend only.
//
//   sort_onesweep_vs_cub --type uint32 --log2n 16,20,24,28 [--pairs] [--dist uniform,few,narrow]
//                        [--reps 10] [--csv FILE] [--match-digits -1,0,256] [--histogram-blocks 0]
//
// --dist: the names of device_input.cuh (uniform, few, equal, sorted, low31, topbyte,
// reversed, extremes, narrow, hot, nearly, strays; or their numbers), or `all`. Each row also says
// how many of the passes stage 5 sorted (the plan it wrote: a pass whose digit every key shares is skipped,
// where CUB's SortKeys runs every pass). --csv appends one line a row (a header when the file
// is new). --match-digits: stage 5 once for each value of config::onesweep_match_digits
// (keys without values: a pass whose digit takes at most that many values over the input is sorted by
// the few-digits kernel, ranking with match_any; 0: the stage's default, -1: never, 256:
// every sorting pass; key-value sorts never take it), each row beside CUB's time of the same
// input; --first-match-digits: for each of those, once for each value of
// config::onesweep_first_match_digits (the same for the first sorting pass). Each row also says
// how many passes the few-digits kernel sorted (read back from the passes' tile counters).
// --histogram-blocks: the histogram kernel in this many blocks (config::onesweep_histogram_blocks;
// 0: the stage's rule). --dominant: once for each config::onesweep_dominant_divisor (a later
// pass whose largest digit holds n / that many keys or more takes the few-digits kernel; 0:
// the stage's default, -1: never); --first-strays: once for each
// config::onesweep_first_stray_divisor (the first sorting pass too, when at most n / that many
// of its keys lie outside its largest digit). --one-digit-tiles 1,0: once with and once without the
// short path for tiles whose keys share one digit (config::onesweep_one_digit_tiles).
// --early-start 1,0: once with and once without programmatic dependent launch of the plan
// kernel and the kernels of each pass (config::onesweep_early_start).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "baseline_cub.hpp"
#include "device_input.cuh"
#include "onesweep.hpp"
#include "sort.hpp"
#include "wb/device_buffer.hpp"
#include "wb/kernel.hpp"
#include "wb/timing.hpp"
#include "wb/workspace.hpp"

namespace {

struct row {
  std::string type, dist;
  std::int64_t n;
  bool pairs;
  int passes, sorted_passes, few_digit_passes, match_digits, first_match_digits;
  bool one_digit_tiles;
  int dominant_divisor, first_stray_divisor;
  bool early_start;
  double stage5_ms, stage5_min_ms, cub_ms;
  unsigned long long mismatches;
};

// What every run shares: the command line's options.
struct options {
  std::string type = "uint32";
  bool pairs = false;
  int reps = 10;
  std::vector<int> match_values{0};
  std::vector<int> first_match_values{0};
  std::vector<int> one_digit_values{1};
  std::vector<int> dominant_values{0};
  std::vector<int> first_stray_values{0};
  std::vector<int> early_start_values{1};
  std::int64_t few_digits_from = 0;
  int histogram_blocks = 0;
};

// Stage 5's configurations to time: every combination of the options' value lists (the
// last list's values vary fastest).
std::vector<sort::config> configs(const options& o) {
  sort::config base{};
  base.onesweep_few_digits_from = o.few_digits_from;
  base.onesweep_histogram_blocks = o.histogram_blocks;
  std::vector<sort::config> all{base};
  auto vary = [&all](const std::vector<int>& values, auto set) {
    std::vector<sort::config> next;
    for (const sort::config& c : all) {
      for (const int v : values) {
        sort::config d = c;
        set(d, v);
        next.push_back(d);
      }
    }
    all = std::move(next);
  };
  vary(o.match_values, [](sort::config& c, int v) { c.onesweep_match_digits = v; });
  vary(o.first_match_values, [](sort::config& c, int v) { c.onesweep_first_match_digits = v; });
  vary(o.one_digit_values, [](sort::config& c, int v) { c.onesweep_one_digit_tiles = v != 0; });
  vary(o.dominant_values, [](sort::config& c, int v) { c.onesweep_dominant_divisor = v; });
  vary(o.first_stray_values, [](sort::config& c, int v) { c.onesweep_first_stray_divisor = v; });
  vary(o.early_start_values, [](sort::config& c, int v) { c.onesweep_early_start = v != 0; });
  return all;
}

template <class K>
std::vector<row> run(std::int64_t n, int dist, const options& o) {
  const bool pairs = o.pairs;
  const int reps = o.reps;
  wb::device_buffer<K> keys(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n)), ref(static_cast<std::size_t>(n));
  wb::device_buffer<std::uint32_t> values(pairs ? n : 0), vout(pairs ? n : 0), vref(pairs ? n : 0);
  sort_experiment::generate(keys.data(), pairs ? values.data() : nullptr, n, dist, 0x5eed);
  const std::uint32_t* vin = pairs ? values.data() : nullptr;
  const std::size_t temp_bytes = sort::baseline::cub_radix_sort<K>(keys.data(), ref.data(), vin,
                                                                   pairs ? vref.data() : nullptr, n, nullptr, 0);
  wb::device_buffer<unsigned char> temp(temp_bytes + 16);
  auto cub = [&] {
    sort::baseline::cub_radix_sort<K>(keys.data(), ref.data(), vin, pairs ? vref.data() : nullptr, n, temp.data(),
                                      temp_bytes);
  };
  const auto cub_time = wb::time_gpu(std::ref(cub), {2, reps, true});
  wb::workspace_buffer ws(sort::onesweep_workspace_bytes(n, sizeof(K), sort::config{}));
  std::vector<row> rows;
  for (const sort::config& cfg : configs(o)) {
    out.fill_bytes(0xA5);
    if (pairs) vout.fill_bytes(0xA5);
    auto ours = [&] {
      sort::solution::sort_onesweep<K>(keys.data(), out.data(), vin, pairs ? vout.data() : nullptr, n, ws.view(),
                                       cfg);
    };
    ours();
    const auto mismatches = sort_experiment::mismatches<K>(out.data(), ref.data(), pairs ? vout.data() : nullptr,
                                                          pairs ? vref.data() : nullptr, n);
    const auto modes = sort::onesweep::pass_modes(ws.view(), n, sizeof(K), pairs, cfg);
    // A pass whose blocks took more tile numbers than there are tiles: the few-digits kernel's.
    const auto taken = sort::onesweep::tiles_taken(ws.view(), n, sizeof(K), pairs, cfg);
    const std::int64_t tile =
        sort::onesweep::stage_shape(sizeof(K), pairs, sort::onesweep::long_tiles_for(n, cfg)).tile();
    const std::int64_t tiles = (n + tile - 1) / tile;
    int sorted_passes = 0, few_digit_passes = 0;
    for (std::size_t p = 0; p < modes.size(); ++p) {
      sorted_passes += modes[p] == sort::onesweep::pass_sort ? 1 : 0;
      few_digit_passes += modes[p] == sort::onesweep::pass_sort && taken[p] > tiles ? 1 : 0;
    }
    const auto t = wb::time_gpu(std::ref(ours), {2, reps, true});
    const row r{o.type,
                sort_experiment::dist_names[dist],
                n,
                pairs,
                static_cast<int>(modes.size()),
                sorted_passes,
                few_digit_passes,
                sort::onesweep::match_digits_for(cfg, sizeof(K)),
                sort::onesweep::first_match_digits_for(cfg),
                cfg.onesweep_one_digit_tiles,
                sort::onesweep::dominant_divisor_for(cfg),
                sort::onesweep::first_stray_divisor_for(cfg),
                cfg.onesweep_early_start,
                t.median_ms,
                t.min_ms,
                cub_time.median_ms,
                mismatches};
    std::printf(
        "%-6s %-8s n=%11lld %-5s match %4d (first %4d, dominant %3d, strays %3d)%s%s  stage 5 %9.4f ms (min %8.4f, "
        "%d of %d passes, %d few-digit)  cub %9.4f ms  cub/ours %5.2f  %s (%llu)\n",
        r.type.c_str(), r.dist.c_str(), static_cast<long long>(n), pairs ? "pairs" : "keys", r.match_digits,
        r.first_match_digits, r.dominant_divisor, r.first_stray_divisor, r.one_digit_tiles ? "" : " ranked",
        r.early_start ? "" : " in turn",
        r.stage5_ms, r.stage5_min_ms, r.sorted_passes, r.passes, r.few_digit_passes, r.cub_ms, r.cub_ms / r.stage5_ms,
        mismatches == 0 ? "ok" : "WRONG", mismatches);
    std::fflush(stdout);
    rows.push_back(r);
  }
  return rows;
}

void append_csv(const std::string& file, const row& r) {
  const bool fresh = !std::filesystem::exists(file);
  std::ofstream csv(file, std::ios::app);
  if (fresh) {
    csv << "type,dist,n,pairs,passes,sorted_passes,stage5_ms,stage5_min_ms,cub_ms,cub_over_stage5,verified,"
           "match_digits,few_digit_passes,first_match_digits,one_digit_tiles,dominant_divisor,early_start,"
           "first_stray_divisor\n";
  }
  csv << r.type << ',' << r.dist << ',' << r.n << ',' << (r.pairs ? 1 : 0) << ',' << r.passes << ','
      << r.sorted_passes << ',' << r.stage5_ms << ',' << r.stage5_min_ms << ',' << r.cub_ms << ','
      << r.cub_ms / r.stage5_ms << ',' << (r.mismatches == 0 ? "yes" : "NO") << ',' << r.match_digits << ','
      << r.few_digit_passes << ',' << r.first_match_digits << ',' << (r.one_digit_tiles ? 1 : 0) << ','
      << r.dominant_divisor << ',' << (r.early_start ? 1 : 0) << ',' << r.first_stray_divisor << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"stage 5 against CUB's radix sort, device-generated input"};
  options o;
  std::vector<std::int64_t> ns;
  std::vector<int> log2ns;
  std::vector<std::string> dist_args{"uniform"};
  std::string csv;
  app.add_option("--type", o.type)->check(CLI::IsMember({"uint32", "int32", "float", "int64"}));
  app.add_option("--n", ns)->delimiter(',');
  app.add_option("--log2n", log2ns)->delimiter(',');
  app.add_option("--dist", dist_args)->delimiter(',');
  app.add_flag("--pairs", o.pairs);
  app.add_option("--reps", o.reps)->check(CLI::PositiveNumber);
  app.add_option("--csv", csv, "append one line a row to this file");
  app.add_option("--match-digits", o.match_values,
                 "stage 5 with each config::onesweep_match_digits (0: default, -1: never, 256: always)")
      ->delimiter(',');
  app.add_option("--first-match-digits", o.first_match_values,
                 "... and each config::onesweep_first_match_digits, the first sorting pass's (0: default)")
      ->delimiter(',');
  app.add_option("--few-digits-from", o.few_digits_from,
                 "config::onesweep_few_digits_from: the few-digits kernel from this many keys on (0: the stage's)");
  app.add_option("--histogram-blocks", o.histogram_blocks,
                 "config::onesweep_histogram_blocks: the histogram kernel in this many blocks (0: the stage's)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--one-digit-tiles", o.one_digit_values,
                 "config::onesweep_one_digit_tiles: 1, tiles of one digit skip the ranking; 0, every tile is ranked")
      ->delimiter(',')
      ->check(CLI::Range(0, 1));
  app.add_option("--dominant", o.dominant_values,
                 "config::onesweep_dominant_divisor: a later pass whose largest digit holds n / this many keys or "
                 "more takes the few-digits kernel (0: default, -1: never)")
      ->delimiter(',');
  app.add_option("--first-strays", o.first_stray_values,
                 "config::onesweep_first_stray_divisor: the first sorting pass takes the few-digits kernel when at "
                 "most n / this many of its keys lie outside its largest digit (0: default, -1: never)")
      ->delimiter(',');
  app.add_option("--early-start", o.early_start_values,
                 "config::onesweep_early_start: 1, the plan kernel and each pass's kernels start early "
                 "(programmatic dependent launch); 0, one after the other")
      ->delimiter(',')
      ->check(CLI::Range(0, 1));
  CLI11_PARSE(app, argc, argv);
  for (const int l : log2ns) ns.push_back(std::int64_t{1} << l);
  std::vector<int> dists;
  try {
    for (const auto& d : dist_args) {
      if (d == "all") {
        for (int k = 0; k < sort_experiment::dist_count; ++k) dists.push_back(k);
      } else {
        dists.push_back(sort_experiment::parse_dist(d));
      }
    }
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  int failures = 0;
  for (const auto n : ns) {
    for (const int dist : dists) {
      std::vector<row> rows;
      if (o.type == "uint32") rows = run<std::uint32_t>(n, dist, o);
      else if (o.type == "int32") rows = run<std::int32_t>(n, dist, o);
      else if (o.type == "float") rows = run<float>(n, dist, o);
      else rows = run<std::int64_t>(n, dist, o);
      for (const row& r : rows) {
        if (!csv.empty()) append_csv(csv, r);
        failures += r.mismatches == 0 ? 0 : 1;
      }
    }
  }
  return failures == 0 ? 0 : 1;
}
