// sort: runs the chapter's stages on one input, checks each against the specification
// (stage 0, std::stable_sort), times them and prints the report table.
//
//   sort                                  2^28 uint32 keys on a GPU (2^16 on the cpu backend)
//   sort --pairs --n 67108864             key-value: each key carries its input position
//   sort --type float --dist few          any key type, many duplicates
//   sort --stage 3 --bits 8               stage 3 with 8-bit digits
//   sort --input 3,1,2 --print            explicit input, one "stage: k0 k1 ..." line each
//   sort --track exercise | --compare     the learner's stages, or both side by side
//
// GB/s counts the bytes a sort must move at least: every key (and value) read once and
// written once, like a copy. Radix sorts move them once per pass, so they stay below that.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "sort.hpp"
#include "stages.hpp"
#include "wb/bandwidth.hpp"
#include "wb/check.hpp"
#include "wb/cli.hpp"
#include "wb/device_buffer.hpp"
#include "wb/device_info.hpp"
#include "wb/generate.hpp"
#include "wb/report.hpp"
#include "wb/runtime.hpp"
#include "wb/timing.hpp"
#if defined(WB_HAVE_BASELINE)
#include "baseline_cub.hpp"
#endif

namespace {

using namespace sort;

struct options {
  wb::common_options common;
  std::int64_t n = -1;  // -1: the default for this backend
  std::string type = "uint32";
  std::string dist = "uniform";
  bool pairs = false;
  int block = 256;
  int items_per_thread = 0;
  int bits = 0;
  std::string input;
  std::string input_file;
};

constexpr std::int64_t max_n = std::int64_t{1} << 36;

std::int64_t default_n() { return wb::backend_is_cuda ? std::int64_t{1} << 28 : std::int64_t{1} << 16; }

template <class K>
using device_fn = void (*)(const K*, K*, const std::uint32_t*, std::uint32_t*, std::int64_t, const workspace&,
                           const config&);

template <class K>
device_fn<K> device_stage_of(const std::string& track, int number) {
  const bool ex = track == "exercise";
  switch (number) {
    case 1: return ex ? &exercise::sort_one_bit<K> : &solution::sort_one_bit<K>;
    case 2: return ex ? &exercise::sort_coalesced<K> : &solution::sort_coalesced<K>;
    case 3: return ex ? &exercise::sort_larger_radix<K> : &solution::sort_larger_radix<K>;
    case 4: return ex ? &exercise::sort_coarsened<K> : &solution::sort_coarsened<K>;
    case 5: return ex ? &exercise::sort_onesweep<K> : &solution::sort_onesweep<K>;
    case 6: return ex ? &exercise::sort_merge<K> : &solution::sort_merge<K>;
  }
  throw std::logic_error("no device stage " + std::to_string(number));
}

using wb::stage_label;

template <class K>
std::vector<K> generate(const std::string& dist, std::size_t n, std::uint64_t seed) {
  if (dist == "uniform") {  // integers: the type's whole range; floats: +-1e30
    if constexpr (std::is_floating_point_v<K>) return wb::gen::uniform<K>(n, seed, K(-1e30), K(1e30));
    else return wb::gen::uniform<K>(n, seed);
  }
  if (dist == "few") return wb::gen::few_distinct<K>(n, seed, 16);
  if (dist == "equal") return wb::gen::all_equal<K>(n, K(7));
  if (dist == "sorted" || dist == "reversed") {
    auto v = generate<K>("uniform", n, seed);
    std::stable_sort(v.begin(), v.end(), [](K a, K b) { return key_less(a, b); });
    if (dist == "reversed") std::reverse(v.begin(), v.end());
    return v;
  }
  if (dist == "extremes") return wb::gen::extremes<K>(n, seed);
  throw wb::usage_error("--dist '" + dist + "': use uniform, few, equal, sorted, reversed or extremes");
}

template <class K>
std::string key_text(K k) {
  if constexpr (std::is_floating_point_v<K>) return fmt::format("{:g}", k);
  else return fmt::format("{}", k);
}

template <class K>
bool same_bits(K a, K b) {
  return std::memcmp(&a, &b, sizeof(K)) == 0;
}

// Empty when (keys, values) is the expected result, else the first difference. `zeros_equal`:
// -0.0 and +0.0 count as one key (CUB's radix sort treats them so; their order, and that of
// their values, may then differ from the chapter's).
template <class K>
std::string first_error(const std::vector<K>& want_keys, const std::vector<std::uint32_t>& want_values,
                        const std::vector<K>& keys, const std::vector<std::uint32_t>& values, bool zeros_equal) {
  for (std::size_t i = 0; i < keys.size(); ++i) {
    bool ok = same_bits(keys[i], want_keys[i]);
    bool zero = false;
    if constexpr (std::is_floating_point_v<K>) zero = zeros_equal && keys[i] == 0 && want_keys[i] == 0;
    if (!ok && !zero) return fmt::format("key at index {}: expected {}, got {}", i, key_text(want_keys[i]), key_text(keys[i]));
    if (!want_values.empty() && !zero && values[i] != want_values[i]) {
      return fmt::format("value at index {}: expected {}, got {} (unstable?)", i, want_values[i], values[i]);
    }
  }
  return {};
}

template <class K>
int run(const options& opt, const CLI::App& app) {
  const config cfg{opt.block, opt.items_per_thread, opt.bits};
  try {
    validate(cfg);
  } catch (const std::invalid_argument& e) {
    throw wb::usage_error(std::string("--block/--items-per-thread/--bits: ") + e.what());
  }
  std::vector<std::pair<int, std::string>> known;
  for (const auto& s : stages) known.emplace_back(s.number, s.suite);
  wb::require_known_stages(opt.common.stages, known);
  if (wb::stage_selected(opt.common.stages, 6, stages[6].suite)) {
    try {
      merge_tiles_for(cfg, sizeof(K), opt.pairs);  // stage 6 runs compiled shapes only
    } catch (const std::invalid_argument&) {
      throw wb::usage_error("--block " + std::to_string(cfg.block) +
                            ": stage 6 is compiled for blocks 32, 64, 256 and 512 only");
    }
  }

  // The input. An explicit empty list is an empty input.
  const bool given = app.count("--input") > 0 || app.count("--input-file") > 0;
  if (app.count("--input") > 0 && app.count("--input-file") > 0) throw wb::usage_error("--input and --input-file: give one");
  if (given && opt.n >= 0) throw wb::usage_error("--n and --input/--input-file: the input sets n");
  const std::int64_t requested = given ? -1 : (opt.n >= 0 ? opt.n : default_n());
  if (opt.common.print && requested > 0) wb::require_printable(static_cast<std::uint64_t>(requested), "the sort");

  std::vector<K> keys;
  std::string source;
  if (given) {
    keys = app.count("--input") > 0 ? wb::parse_list<K>(opt.input, "--input") : wb::read_numbers_file<K>(opt.input_file);
    source = app.count("--input") > 0 ? "--input" : opt.input_file;
    if (opt.common.print) wb::require_printable(keys.size(), "the sort");
  } else {
    const std::uint64_t bytes =
        wb::bytes_for(static_cast<std::uint64_t>(requested), sizeof(K) + (opt.pairs ? 4 : 0), "--n");
    wb::require_memory(2 * bytes + workspace_bytes(requested, sizeof(K), cfg), 5 * bytes,
                       fmt::format("a sort of {} {} keys", requested, opt.type));
    keys = generate<K>(opt.dist, static_cast<std::size_t>(requested), opt.common.seed);
    source = fmt::format("{}, seed {}", opt.dist, opt.common.seed);
  }
  const auto n = static_cast<std::int64_t>(keys.size());
  if (n > 0xffffffffLL && opt.pairs) throw wb::usage_error("--pairs: the values are 32-bit positions, so n < 2^32");
  // Key-value: each key carries its input position, so an unstable sort shows in the values.
  std::vector<std::uint32_t> values;
  if (opt.pairs) {
    values.resize(keys.size());
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::uint32_t>(i);
  }
  wb::print_device_info_or_exit();

  std::vector<K> want_keys = keys;
  std::vector<std::uint32_t> want_values = values;
  solution::sort_sequential<K>(std::span<K>(want_keys), std::span<std::uint32_t>(want_values));

  wb::device_buffer<K> d_keys(keys);
  wb::device_buffer<K> d_keys_out(static_cast<std::size_t>(n));
  wb::device_buffer<std::uint32_t> d_values(values);
  wb::device_buffer<std::uint32_t> d_values_out(values.size());
  const std::uint32_t* values_in = opt.pairs ? d_values.data() : nullptr;
  std::uint32_t* values_out = opt.pairs ? d_values_out.data() : nullptr;
  workspace_buffer<K> ws(n, cfg);
  const workspace w = ws.view();
  const double bytes = 2.0 * static_cast<double>(n) * (sizeof(K) + (opt.pairs ? 4 : 0));

  std::vector<std::string> tracks = opt.common.compare ? std::vector<std::string>{"solution", "exercise"}
                                                       : std::vector<std::string>{opt.common.track};
  wb::report report(fmt::format("sort: {} {} {}{} ({}), block {}, items per thread {}, bits {}", n, opt.type,
                                "keys", opt.pairs ? " with 32-bit values" : "", source, cfg.block,
                                cfg.items_per_thread > 0 ? std::to_string(cfg.items_per_thread) : "stage default",
                                cfg.bits > 0 ? std::to_string(cfg.bits) : "stage default"),
                    wb::copy_bandwidth_gbs());
  std::vector<std::string> printed;
  std::vector<std::string> comparisons;
  [[maybe_unused]] double stage6_ms = 0;  // stage 6 is compared with CUB's merge sort too (the table's ratio is to its radix sort)
  auto print_line = [&](const std::string& label, const std::vector<K>& out) {
    // Piece by piece: GCC 12 warns (-Wrestrict) falsely on " " + a temporary string.
    std::string line = label;
    line += ':';
    for (const K& k : out) {
      line += ' ';
      line += key_text(k);
    }
    printed.push_back(line);
  };

  for (const auto& s : stages) {
    if (!wb::stage_selected(opt.common.stages, s.number, s.suite)) continue;
    std::vector<std::vector<K>> outputs;
    for (const auto& track : tracks) {
      std::optional<wb::timing> time;
      std::vector<K> out_keys = keys;
      std::vector<std::uint32_t> out_values = values;
      std::string note;
      if (s.number == 0) {
        wb::timing t;
        for (int i = 0; i < std::min(opt.common.reps, 3); ++i) {
          out_keys = keys;
          out_values = values;
          const auto start = std::chrono::steady_clock::now();
          (track == "exercise" ? &exercise::sort_sequential<K> : &solution::sort_sequential<K>)(
              std::span<K>(out_keys), std::span<std::uint32_t>(out_values));
          t.samples_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        }
        auto sorted = t.samples_ms;
        std::sort(sorted.begin(), sorted.end());
        t.median_ms = sorted[sorted.size() / 2];
        t.min_ms = sorted.front();
        t.max_ms = sorted.back();
        time = t;
        note = "on the host";
      } else {
        const device_fn<K> fn = device_stage_of<K>(track, s.number);
        d_keys_out.fill_bytes(0xA5);  // an output nobody writes fails the check
        d_values_out.fill_bytes(0xA5);
        // Stages 1-2 take 32 or 64 passes: fewer runs past 2^24 keys.
        const bool slow = s.number <= 2 && n > (std::int64_t{1} << 24);
        time = wb::time_gpu([&] { fn(d_keys.data(), d_keys_out.data(), values_in, values_out, n, w, cfg); },
                            {slow ? 1 : 3, slow ? std::min(opt.common.reps, 3) : opt.common.reps, true});
        out_keys = d_keys_out.to_host();
        if (opt.pairs) out_values = d_values_out.to_host();
        if (s.number == 3 || s.number == 4) note = fmt::format("{}-bit digits", bits_for(s.number, cfg));
      }
      const std::string why = first_error(want_keys, want_values, out_keys, out_values, false);
      if (!why.empty()) note = why;
      const std::string label = tracks.size() > 1 || track == "exercise" ? stage_label(s) + " (" + track + ")"
                                                                          : stage_label(s);
      if (s.number == 6 && time && track == tracks.front()) stage6_ms = time->median_ms;
      report.add({label, time, s.number == 0 ? 0.0 : bytes, static_cast<double>(n), why.empty(), false, note});
      if (opt.common.print) print_line(label, out_keys);
      outputs.push_back(std::move(out_keys));
    }
    if (tracks.size() == 2) {
      std::string verdict = "agree on every key";
      for (std::size_t i = 0; i < outputs[0].size(); ++i) {
        if (!same_bits(outputs[0][i], outputs[1][i])) {
          verdict = fmt::format("DIFFER at index {}: solution {}, exercise {}", i, key_text(outputs[0][i]),
                                key_text(outputs[1][i]));
          break;
        }
      }
      comparisons.push_back(fmt::format("{}: {}", stage_label(s), verdict));
    }
  }

#if defined(WB_HAVE_BASELINE)
  {
    // CUB's radix sort for stages 1-5, its stable merge sort for stage 6.
    using baseline_fn = std::size_t (*)(const K*, K*, const std::uint32_t*, std::uint32_t*, std::int64_t, void*,
                                        std::size_t);
    const struct {
      const char* name;
      baseline_fn fn;
      bool zeros_equal;
    } rows[] = {{opt.pairs ? "cub::DeviceRadixSort::SortPairs" : "cub::DeviceRadixSort::SortKeys",
                 &baseline::cub_radix_sort<K>, true},
                {opt.pairs ? "cub::DeviceMergeSort::StableSortPairs" : "cub::DeviceMergeSort::StableSortKeys",
                 &baseline::cub_merge_sort<K>, false}};
    for (const auto& row : rows) {
      const std::size_t temp_bytes = row.fn(d_keys.data(), d_keys_out.data(), values_in, values_out, n, nullptr, 0);
      wb::device_buffer<unsigned char> temp(std::max<std::size_t>(temp_bytes, 1));
      d_keys_out.fill_bytes(0xA5);
      const auto time = wb::time_gpu(
          [&] { row.fn(d_keys.data(), d_keys_out.data(), values_in, values_out, n, temp.data(), temp_bytes); },
          {3, opt.common.reps, true});
      const std::vector<K> out_keys = d_keys_out.to_host();
      const std::vector<std::uint32_t> out_values = opt.pairs ? d_values_out.to_host() : std::vector<std::uint32_t>{};
      const std::string why = first_error(want_keys, want_values, out_keys, out_values, row.zeros_equal);
      report.add({row.name, time, bytes, static_cast<double>(n), why.empty(), true, why});
      if (row.fn == &baseline::cub_merge_sort<K> && stage6_ms > 0 && time.median_ms > 0) {
        comparisons.push_back(fmt::format("6 merge against {}: {:.2f}x", row.name, time.median_ms / stage6_ms));
      }
      if (opt.common.print) print_line(row.name, out_keys);
    }
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
  CLI::App app{"sort: radix sort and merge sort, stage by stage (PMPP ch. 13, then onesweep at the memory ceiling)"};
  options opt;
  wb::add_common_options(app, opt.common);
  app.add_option("--n", opt.n, "keys to sort (default: 2^28 on a GPU, 2^16 on the cpu backend)")
      ->check(CLI::Range(std::int64_t{0}, max_n));
  app.add_option("--type", opt.type, "key type (float: -0.0 before +0.0, NaNs at the end their sign bit names)")
      ->check(CLI::IsMember({"uint32", "int32", "float", "int64"}))
      ->capture_default_str();
  app.add_option("--dist", opt.dist, "generated keys: uniform (the whole range), few (16 distinct values), equal, "
                                     "sorted, reversed, extremes (the type's extremes and neighbours)")
      ->check(CLI::IsMember({"uniform", "few", "equal", "sorted", "reversed", "extremes"}))
      ->capture_default_str();
  app.add_flag("--pairs", opt.pairs, "key-value: each key carries a 32-bit value (its input position)");
  app.add_option("--block", opt.block,
                 "threads per block: a power of two from 32 to 1024 (stage 6: 32, 64, 256 or 512, each a compiled "
                 "shape, see the README)")
      ->capture_default_str();
  app.add_option("--items-per-thread", opt.items_per_thread,
                 "keys per thread of stage 4: a power of two from 1 to 16 (0: its default; stages 5 and 6 run "
                 "their own tile shapes)")
      ->capture_default_str();
  app.add_option("--bits", opt.bits, "digit width of stages 3 and 4: 1, 2, 4 or 8 (0: 4)")->capture_default_str();
  app.add_option("--input", opt.input, "explicit keys, comma separated (instead of --n/--dist); empty: no keys");
  app.add_option("--input-file", opt.input_file, "explicit keys, whitespace-separated numbers in a file");

  return wb::run_main(app, argc, argv, [&]() -> int {
    if (opt.type == "uint32") return run<std::uint32_t>(opt, app);
    if (opt.type == "int32") return run<std::int32_t>(opt, app);
    if (opt.type == "int64") return run<std::int64_t>(opt, app);
    return run<float>(opt, app);
  });
}
