// merge: every stage of the chapter on one input, checked against stage 0, timed, reported.
//
//   merge                                   all stages, default size, the solution track
//   merge --stage 2,6 --m 1000 --n 37 --type int64 --dist duplicates --key-value
//   merge --a 1,3,5 --b 2,4 --print --trace  a tiny input: outputs and the book's picture
//   merge --a 1,3,5 --b 2,4 --trace --svg path.svg   ... and the merge path drawn as an SVG
//   merge --track exercise                  your stages;  --compare: yours beside the solution's
//   merge --sweep --csv sweep.csv           thread coarsening (§12.8): items per thread, tile
//                                           sizes and stage-6 shapes, with the co-rank cost
//
// GB/s counts every element read once and written once: 2 * (m + n) * sizeof(key), plus the
// same for the 4-byte values of a key-value merge.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wb/bandwidth.hpp"
#include "wb/cli.hpp"
#include "wb/device_buffer.hpp"
#include "wb/device_info.hpp"
#include "wb/report.hpp"
#include "wb/timing.hpp"

#include "baseline.hpp"
#include "data.hpp"
#include "merge.hpp"
#include "stages.hpp"
#include "trace.hpp"

namespace {

using merge::config;
using merge::problem;
using merge::value_t;

constexpr std::int64_t max_side = std::int64_t{1} << 40;  // per input: anything larger is a typo
constexpr std::int64_t max_trace = 64;                   // --trace prints every element

struct options {
  wb::common_options common;
  std::int64_t m = -1;  // -1: the default for this backend
  std::int64_t n = -1;
  std::string type = "int32";
  std::string dist = "uniform";
  config cfg;
  bool key_value = false;
  std::string a_list, b_list, a_file, b_file;
  bool a_given = false;  // --a or --a-file given: the input is the user's, even when it is empty
  bool b_given = false;
  bool a_from_file = false;
  bool b_from_file = false;
  bool trace = false;
  std::string svg;  // --svg FILE: the traced merge path as a picture
  bool sweep = false;
  bool reps_given = false;
};

// One track's stage functions for key type K.
template <class K>
struct track_api {
  const char* name;
  void (*sequential)(const problem<K>&);
  merge::co_rank_fn<K> co_rank_host;
  void (*co_rank_device)(const K*, std::int64_t, const K*, std::int64_t, std::int64_t*);
  void (*basic)(const problem<K>&, const config&);
  void (*tiled)(const problem<K>&, const config&);
  void (*circular)(const problem<K>&, const config&);
  void (*coarsened)(const problem<K>&, const config&);
  std::size_t (*temp_bytes)(std::int64_t, std::int64_t, const config&, bool);
  void (*at_bandwidth)(const problem<K>&, void*, std::size_t, const config&);
  void (*partitions)(const K*, std::int64_t, const K*, std::int64_t, std::int64_t, std::int64_t*);
  void (*coarsened_searches)(const K*, std::int64_t, const K*, std::int64_t, std::int64_t, std::int64_t*);
};

#define MERGE_TRACK_API(track)                                                                                    \
  track_api<K> {                                                                                                 \
    #track, &merge::track::merge_sequential_host<K>, &merge::track::co_rank_host<K>,                               \
        &merge::track::co_rank_device<K>, &merge::track::merge_basic<K>, &merge::track::merge_tiled<K>,          \
        &merge::track::merge_circular<K>, &merge::track::merge_coarsened<K>,                                      \
        &merge::track::merge_at_bandwidth_temp_bytes<K>, &merge::track::merge_at_bandwidth<K>,                   \
        &merge::track::merge_path_partitions<K>, &merge::track::merge_coarsened_searches<K>                       \
  }
template <class K>
track_api<K> api_of(const std::string& track) {
  if (track == "exercise") return MERGE_TRACK_API(exercise);
  return MERGE_TRACK_API(solution);
}
#undef MERGE_TRACK_API

template <class K>
std::string join(const std::vector<K>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) out += fmt::format("{}{}", i > 0 ? " " : "", values[i]);
  return out;
}

// "" when equal, else where they first differ.
template <class T>
std::string first_mismatch(const std::vector<T>& expected, const std::vector<T>& got) {
  if (expected.size() != got.size()) return fmt::format("{} elements instead of {}", got.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (!(expected[i] == got[i])) return fmt::format("at index {}: expected {}, got {}", i, expected[i], got[i]);
  }
  return "";
}

// An input the user gave: a list (--a '' is an empty list) or a file (an empty or comment-only
// file is an empty input), or nothing (empty as well: --a alone merges A with an empty B).
template <class K>
std::vector<K> explicit_input(const std::string& list, const std::string& file, bool from_file, const char* name) {
  std::vector<K> keys = from_file ? wb::read_numbers_file<K>(file) : wb::parse_list<K>(list, std::string("--") + name);
  if (const std::int64_t bad = merge::first_unsorted(keys); bad >= 0) {
    throw wb::usage_error(fmt::format("input {} is not sorted: {}[{}] = {} comes after {}[{}] = {} (a merge needs "
                                      "both inputs in non-decreasing order)",
                                      name, name, bad, keys[static_cast<std::size_t>(bad)], name, bad - 1,
                                      keys[static_cast<std::size_t>(bad - 1)]));
  }
  if (static_cast<std::int64_t>(keys.size()) > max_side) throw wb::usage_error(fmt::format("input {} is too large", name));
  return keys;
}

// Checks the co-rank of every k in [0, m+n] with the stable split conditions, which pin it
// down uniquely: A[i-1] <= B[j] and B[j-1] < A[i], i + j = k.
template <class K>
std::string check_co_ranks(const std::vector<K>& A, const std::vector<K>& B, const std::vector<std::int64_t>& i_of_k) {
  const auto m = static_cast<std::int64_t>(A.size());
  const auto n = static_cast<std::int64_t>(B.size());
  for (std::int64_t k = 0; k <= m + n; ++k) {
    const std::int64_t i = i_of_k[static_cast<std::size_t>(k)];
    const std::int64_t j = k - i;
    const bool in_range = i >= 0 && i <= m && j >= 0 && j <= n;
    if (!in_range || (i > 0 && j < n && !(A[i - 1] <= B[j])) || (j > 0 && i < m && !(B[j - 1] < A[i]))) {
      return fmt::format("co_rank({}) = {} is not the stable split", k, i);
    }
  }
  return "";
}

template <class K>
const char* type_name() {
  if constexpr (std::is_same_v<K, std::int32_t>) return "int32";
  if constexpr (std::is_same_v<K, std::int64_t>) return "int64";
  return "float";
}

template <class K>
class merge_run {
 public:
  explicit merge_run(const options& opt) : opt_(opt) {}

  int main() {
    load_inputs();
    if (opt_.common.print) wb::require_printable(total(), "the merge of A and B");  // before any work
    if (opt_.trace) trace();
    check_memory();
    upload();
    reference();
    return opt_.sweep ? sweep() : table();
  }

 private:
  // ---------------------------------------------------------------------------- inputs
  void load_inputs() {
    if (opt_.a_given || opt_.b_given) {
      if (opt_.m >= 0 || opt_.n >= 0) throw wb::usage_error("--m/--n size generated inputs; they do not go with --a/--b");
      A_ = explicit_input<K>(opt_.a_list, opt_.a_file, opt_.a_from_file, "A");
      B_ = explicit_input<K>(opt_.b_list, opt_.b_file, opt_.b_from_file, "B");
      source_ = "given";
    } else {
      const std::int64_t fallback = wb::backend_is_cuda ? std::int64_t{1} << 27 : std::int64_t{1} << 16;
      const std::int64_t m = opt_.m >= 0 ? opt_.m : fallback;
      const std::int64_t n = opt_.n >= 0 ? opt_.n : fallback;
      const auto d = merge::parse_distribution(opt_.dist);
      if (!d) throw wb::usage_error("--dist: '" + opt_.dist + "' is not a distribution");
      A_ = merge::sorted_keys<K>(m, *d, opt_.common.seed, 0);
      B_ = merge::sorted_keys<K>(n, *d, opt_.common.seed, 1);
      source_ = opt_.dist;
    }
    m_ = static_cast<std::int64_t>(A_.size());
    n_ = static_cast<std::int64_t>(B_.size());
    if (opt_.key_value) {
      A_val_ = merge::tag_values(m_, 0);
      B_val_ = merge::tag_values(n_, m_);
    }
  }

  void trace() {
    if (m_ + n_ > max_trace) {
      throw wb::usage_error(fmt::format("--trace prints every element: give at most {} in all (m + n = {})", max_trace, m_ + n_));
    }
    config basic{opt_.cfg.block > 0 ? opt_.cfg.block : 4, 0, 0, opt_.cfg.grid > 0 ? opt_.cfg.grid : 1};
    config tiled{opt_.cfg.block > 0 ? opt_.cfg.block : 2, opt_.cfg.tile > 0 ? opt_.cfg.tile : 4, 0,
                 opt_.cfg.grid > 0 ? opt_.cfg.grid : 2};
    if (!opt_.svg.empty() && (m_ > merge::max_svg_side || n_ > merge::max_svg_side)) {
      throw wb::usage_error(fmt::format("--svg draws one column per element of A and one row per element of B: give at "
                                        "most {} in each (m = {}, n = {})",
                                        merge::max_svg_side, m_, n_));
    }
    const auto api = api_of<K>(opt_.common.track);
    const merge::trace_splits splits = merge::print_trace<K>(A_, B_, basic, tiled, api.co_rank_host, api.name);
    if (!opt_.svg.empty()) merge::write_merge_path_svg<K>(A_, B_, splits, basic, tiled, api.name, opt_.svg);
  }

  std::uint64_t total() const { return static_cast<std::uint64_t>(m_ + n_); }
  std::uint64_t item_bytes() const { return sizeof(K) + (opt_.key_value ? sizeof(value_t) : 0); }

  void check_memory() {
    const std::string what = fmt::format("a merge of {} + {} {} keys{}", m_, n_, type_name<K>(), opt_.key_value ? " with values" : "");
    // inputs and output on the device, plus the co-ranks of stage 1 (8 bytes per rank)
    const std::uint64_t device = wb::bytes_for(total(), 2 * item_bytes(), what) + wb::bytes_for(total() + 1, 8, what) +
                                 (std::uint64_t{64} << 20);
    // inputs, reference and one copy of a stage's output on the host
    const std::uint64_t host = wb::bytes_for(total(), 3 * item_bytes(), what);
    wb::require_memory(device, host, what);
  }

  void upload() {
    d_A_ = wb::device_buffer<K>(A_);
    d_B_ = wb::device_buffer<K>(B_);
    d_C_ = wb::device_buffer<K>(total());
    dev_ = problem<K>{d_A_.data(), m_, d_B_.data(), n_, d_C_.data()};
    if (opt_.key_value) {
      d_A_val_ = wb::device_buffer<value_t>(A_val_);
      d_B_val_ = wb::device_buffer<value_t>(B_val_);
      d_C_val_ = wb::device_buffer<value_t>(total());
      dev_.A_val = d_A_val_.data();
      dev_.B_val = d_B_val_.data();
      dev_.C_val = d_C_val_.data();
    }
  }

  // The reference: stage 0 of the solution (checked against std::merge in the stage 0 row).
  void reference() {
    C_ref_.resize(total());
    if (opt_.key_value) C_val_ref_.resize(total());
    merge::solution::merge_sequential_host(host_problem(C_ref_, C_val_ref_));
  }

  problem<K> host_problem(std::vector<K>& C, std::vector<value_t>& C_val) const {
    problem<K> p{A_.data(), m_, B_.data(), n_, C.data()};
    if (opt_.key_value) {
      p.A_val = A_val_.data();
      p.B_val = B_val_.data();
      p.C_val = C_val.data();
    }
    return p;
  }

  double bytes() const { return 2.0 * static_cast<double>(total()) * static_cast<double>(item_bytes()); }

  wb::timing_options timing() const {
    wb::timing_options t;
    t.reps = opt_.common.reps;
    if (!wb::backend_is_cuda) {  // emulated: the numbers mean nothing, keep the run short
      t.warmup = 0;
      if (!opt_.reps_given) t.reps = 1;
    }
    return t;
  }

  // ---------------------------------------------------------------------------- stages
  void run_device_stage(int stage, const track_api<K>& api, const config& cfg) {
    switch (stage) {
      case 2: api.basic(dev_, cfg); break;
      case 3: api.tiled(dev_, cfg); break;
      case 4: api.circular(dev_, cfg); break;
      case 5: api.coarsened(dev_, cfg); break;
      case 6: {
        const std::size_t needed = api.temp_bytes(m_, n_, cfg, opt_.key_value);
        if (temp_.size() < needed) temp_ = wb::device_buffer<unsigned char>(needed);
        api.at_bandwidth(dev_, temp_.data(), temp_.size(), cfg);
        break;
      }
      default: throw std::logic_error("no device stage " + std::to_string(stage));
    }
  }

  void print_output(const std::string& label, const std::vector<K>& C, const std::vector<value_t>& C_val) const {
    if (!opt_.common.print) return;
    std::printf("%s: %s\n", label.c_str(), join(C).c_str());
    if (opt_.key_value) std::printf("%s values: %s\n", label.c_str(), join(C_val).c_str());
  }

  // Verifies `C`/`C_val` against the reference; prints the first mismatch.
  bool verify(const std::string& label, const std::vector<K>& C, const std::vector<value_t>& C_val) const {
    std::string wrong = first_mismatch(C_ref_, C);
    if (wrong.empty() && opt_.key_value) {
      wrong = first_mismatch(C_val_ref_, C_val);
      if (!wrong.empty()) wrong = "values " + wrong;
    }
    if (!wrong.empty()) std::printf("%s: WRONG output, %s\n", label.c_str(), wrong.c_str());
    return wrong.empty();
  }

  // Runs one stage of one track: once to verify, then timed. `outputs` receives its output
  // (for --compare). Configuration problems become a note (or exit 2 when asked for by name).
  wb::report_row measure(const wb::stage& s, const track_api<K>& api, const std::string& label,
                         std::vector<K>* output, const config& cfg, bool by_name) {
    wb::report_row row;
    row.stage = label;
    row.bytes = bytes();
    row.items = static_cast<double>(total());
    try {
      if (s.number == 0) {
        std::vector<K> C(total());
        std::vector<value_t> C_val(opt_.key_value ? total() : 0);
        const auto start = std::chrono::steady_clock::now();
        api.sequential(host_problem(C, C_val));
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        row.time = wb::timing{ms, ms, ms, {ms}};
        row.note = "host CPU, one run";
        // independent check of the specification itself: std::merge (keys)
        std::vector<K> keys(total());
        std::merge(A_.begin(), A_.end(), B_.begin(), B_.end(), keys.begin());
        const std::string wrong = first_mismatch(keys, C);
        if (!wrong.empty()) std::printf("%s: WRONG output (vs std::merge), %s\n", label.c_str(), wrong.c_str());
        row.verified = wrong.empty() && verify(label, C, C_val);
        print_output(label, C, C_val);
        if (output != nullptr) *output = std::move(C);
        return row;
      }
      if (s.number == 1) {
        row.bytes = 0;
        row.items = static_cast<double>(total() + 1);
        row.note = "co_rank of every output rank: one binary search per element";
        if (total() + 1 > (std::uint64_t{1} << 29)) {
          row.note = "skipped: more than 2^29 ranks";
          return row;
        }
        wb::device_buffer<std::int64_t> i_of_k(total() + 1);
        i_of_k.fill_bytes(0xA5);
        api.co_rank_device(dev_.A, m_, dev_.B, n_, i_of_k.data());
        WB_CHECK(cudaDeviceSynchronize());
        const std::string wrong = check_co_ranks(A_, B_, i_of_k.to_host());
        if (!wrong.empty()) std::printf("%s: WRONG, %s\n", label.c_str(), wrong.c_str());
        row.verified = wrong.empty();
        row.time = wb::time_gpu([&] { api.co_rank_device(dev_.A, m_, dev_.B, n_, i_of_k.data()); }, timing());
        return row;
      }
      d_C_.fill_bytes(0xA5);  // poison: an output nobody writes shows
      if (opt_.key_value) d_C_val_.fill_bytes(0xA5);
      run_device_stage(s.number, api, cfg);
      WB_CHECK(cudaDeviceSynchronize());
      std::vector<K> C = d_C_.to_host();
      const std::vector<value_t> C_val = opt_.key_value ? d_C_val_.to_host() : std::vector<value_t>{};
      row.verified = verify(label, C, C_val);
      print_output(label, C, C_val);
      if (output != nullptr) *output = std::move(C);
      row.time = wb::time_gpu([&] { run_device_stage(s.number, api, cfg); }, timing());
    } catch (const std::invalid_argument& e) {
      if (by_name) throw wb::usage_error(e.what());  // asked for by name: bad input
      row.note = std::string("refused: ") + e.what();
    }
    return row;
  }

  int table() {
    const double copy_gbs = wb::copy_bandwidth_gbs();
    wb::report rep(fmt::format("merge of m = {} and n = {} {} keys{} ({}), {}", m_, n_, type_name<K>(),
                               opt_.key_value ? " with int32 values" : "", source_,
                               opt_.common.compare ? "exercise and solution tracks" : opt_.common.track + " track"),
                   copy_gbs);
    const auto mine = api_of<K>(opt_.common.compare ? "exercise" : opt_.common.track);
    const auto solution = api_of<K>("solution");
    const bool by_name = !opt_.common.stages.empty();
    for (const auto& s : merge::stages) {
      if (!wb::stage_selected(opt_.common.stages, s.number, s.suite)) continue;
      const std::string name = std::string(s.suite).substr(6);  // drop "merge/"
      if (!opt_.common.compare) {
        rep.add(measure(s, mine, name, nullptr, opt_.cfg, by_name));
        continue;
      }
      std::vector<K> yours, theirs;
      wb::report_row a = measure(s, mine, name + " [exercise]", &yours, opt_.cfg, by_name);
      wb::report_row b = measure(s, solution, name + " [solution]", &theirs, opt_.cfg, by_name);
      if (a.time && b.time && s.number != 1) {
        const std::string differ = first_mismatch(theirs, yours);
        std::printf("%s: %s\n", name.c_str(),
                    differ.empty() ? "exercise and solution agree" : ("exercise differs from solution " + differ).c_str());
      }
      rep.add(std::move(a));
      rep.add(std::move(b));
    }
    bool any_refused = false;
    bool any_kernel_ran = false;
    for (const auto& row : rep.rows()) {
      any_refused = any_refused || row.note.rfind("refused", 0) == 0;
      any_kernel_ran = any_kernel_ran || (row.time && row.note.empty());
    }
    if (any_refused && !any_kernel_ran) {
      rep.print();
      throw wb::usage_error("no kernel stage can run with this configuration (see the notes above)");
    }
#if defined(WB_HAVE_BASELINE)
    rep.add(cub_row());
#endif
    rep.print();
    rep.write_files(opt_.common.csv, opt_.common.json);
    return rep.all_verified() ? 0 : 1;
  }

#if defined(WB_HAVE_BASELINE)
  wb::report_row cub_row() {
    wb::report_row row;
    row.stage = opt_.key_value ? "cub::DeviceMerge::MergePairs" : "cub::DeviceMerge::MergeKeys";
    row.bytes = bytes();
    row.items = static_cast<double>(total());
    row.is_baseline = true;
    wb::device_buffer<unsigned char> temp(merge::baseline::cub_temp_bytes(dev_));
    const auto run = [&] { merge::baseline::cub_merge(dev_, temp.data(), temp.size()); };
    d_C_.fill_bytes(0xA5);
    run();
    WB_CHECK(cudaDeviceSynchronize());
    // CUB documents its merge as unstable: the keys must match; values are shown for information.
    const std::string wrong = first_mismatch(C_ref_, d_C_.to_host());
    if (!wrong.empty()) std::printf("%s: WRONG output, %s\n", row.stage.c_str(), wrong.c_str());
    row.verified = wrong.empty();
    if (opt_.key_value && first_mismatch(C_val_ref_, d_C_val_.to_host()).empty()) row.note = "values stable too";
    row.time = wb::time_gpu(run, timing());
    return row;
  }
#endif

  // ---------------------------------------------------------------------------- sweep
  struct sweep_row {
    int stage;
    config cfg;
    std::optional<wb::timing> time;
    std::optional<double> search_ms;
    bool verified = false;
    std::string note;
  };

  int sweep() {
    const double copy_gbs = wb::copy_bandwidth_gbs();
    const auto api = api_of<K>(opt_.common.track);
    std::vector<sweep_row> rows;
    const auto run = [&](int stage, const config& cfg) {
      sweep_row row{stage, cfg, std::nullopt, std::nullopt, false, ""};
      const wb::stage& s = merge::stages[static_cast<std::size_t>(stage)];
      try {
        row.cfg = merge::resolve(stage, cfg, m_ + n_, sizeof(K), opt_.key_value);
        wb::report_row r = measure(s, api, s.suite, nullptr, cfg, false);
        row.time = r.time;
        row.verified = r.verified;
        row.note = r.note;
        if (stage == 5 && r.time) {  // the block-level searches of stage 5, timed alone (all in parallel)
          const std::int64_t tile = std::int64_t{row.cfg.block} * row.cfg.items_per_thread;
          wb::device_buffer<std::int64_t> partitions(static_cast<std::size_t>((m_ + n_ + tile - 1) / tile + 1));
          row.search_ms = wb::time_gpu([&] { api.coarsened_searches(dev_.A, m_, dev_.B, n_, tile, partitions.data()); },
                                       timing()).median_ms;
        }
      } catch (const std::invalid_argument& e) {
        row.note = std::string("refused: ") + e.what();
      }
      rows.push_back(row);
    };
    // Stage 5: items per thread x block size (tile = their product).
    for (const int block : {64, 128, 256, 512}) {
      for (const int items : {1, 2, 4, 8, 16, 32}) run(5, config{block, 0, items, 0});
    }
    // Stages 3 and 4: tile size (128 threads).
    for (const int tile : {256, 512, 1024, 2048, 4096}) {
      run(3, config{128, tile, 0, 0});
      run(4, config{128, tile, 0, 0});
    }
    // Stage 6: every compiled shape.
    for (const auto& [block, items] : merge::at_bandwidth_shapes()) run(6, config{block, 0, items, 0});

    std::printf("\ncoarsening sweep: merge of m = %lld and n = %lld %s keys%s (%s), %s track\n",
                static_cast<long long>(m_), static_cast<long long>(n_), type_name<K>(),
                opt_.key_value ? " with values" : "", source_.c_str(), opt_.common.track.c_str());
    if (!wb::backend_is_cuda) std::printf("(timings emulated on the cpu backend: meaningless for a GPU)\n");
    std::printf("copy bandwidth: %.1f GB/s\n", copy_gbs);
    std::printf("%-5s %6s %6s %6s %9s %10s %8s %8s %11s %8s  %s\n", "stage", "block", "items", "tile", "grid",
                "median ms", "GB/s", "% copy", "search ms", "verified", "note");
    std::FILE* csv = opt_.common.csv.empty() ? nullptr : std::fopen(opt_.common.csv.c_str(), "w");
    if (!opt_.common.csv.empty() && csv == nullptr) throw std::runtime_error("cannot write '" + opt_.common.csv + "'");
    if (csv != nullptr) {
      std::fprintf(csv, "stage,block,items_per_thread,tile,grid,median_ms,gb_per_s,pct_of_copy,search_ms,verified,"
                        "copy_gb_per_s,backend,m,n,type,key_value,note\n");
    }
    bool all_verified = true;
    for (const auto& r : rows) {
      const double ms = r.time ? r.time->median_ms : -1;
      const double gbs = ms > 0 ? bytes() / (ms * 1e-3) / 1e9 : 0;
      const int tile = r.stage == 5 || r.stage == 6 ? r.cfg.block * r.cfg.items_per_thread : r.cfg.tile;
      all_verified = all_verified && (!r.time || r.verified);
      std::printf("%-5d %6d %6d %6d %9lld %10s %8s %8s %11s %8s  %s\n", r.stage, r.cfg.block,
                  r.stage == 3 || r.stage == 4 ? 0 : r.cfg.items_per_thread, tile, static_cast<long long>(r.cfg.grid),
                  r.time ? fmt::format("{:.4f}", ms).c_str() : "-", r.time ? fmt::format("{:.1f}", gbs).c_str() : "-",
                  r.time ? fmt::format("{:.1f}", 100 * gbs / copy_gbs).c_str() : "-",
                  r.search_ms ? fmt::format("{:.4f}", *r.search_ms).c_str() : "-",
                  r.time ? (r.verified ? "yes" : "NO") : "-", r.note.c_str());
      if (csv != nullptr) {
        std::fprintf(csv, "%d,%d,%d,%d,%lld,%s,%s,%s,%s,%s,%.1f,%s,%lld,%lld,%s,%d,\"%s\"\n", r.stage, r.cfg.block,
                     r.stage == 3 || r.stage == 4 ? 0 : r.cfg.items_per_thread, tile,
                     static_cast<long long>(r.cfg.grid), r.time ? fmt::format("{}", ms).c_str() : "",
                     r.time ? fmt::format("{}", gbs).c_str() : "",
                     r.time ? fmt::format("{}", 100 * gbs / copy_gbs).c_str() : "",
                     r.search_ms ? fmt::format("{}", *r.search_ms).c_str() : "", r.time ? (r.verified ? "yes" : "NO") : "",
                     copy_gbs, wb::backend_name, static_cast<long long>(m_), static_cast<long long>(n_), type_name<K>(),
                     opt_.key_value ? 1 : 0, r.note.c_str());
      }
    }
    if (csv != nullptr) std::fclose(csv);
    return all_verified ? 0 : 1;
  }

  const options& opt_;
  std::vector<K> A_, B_, C_ref_;
  std::vector<value_t> A_val_, B_val_, C_val_ref_;
  std::int64_t m_ = 0, n_ = 0;
  std::string source_;
  wb::device_buffer<K> d_A_, d_B_, d_C_;
  wb::device_buffer<value_t> d_A_val_, d_B_val_, d_C_val_;
  wb::device_buffer<unsigned char> temp_;
  problem<K> dev_;
};

}  // namespace

int main(int argc, char** argv) {
  options opt;
  CLI::App app{"merge: PMPP chapter 12, from the sequential merge to a kernel at memory bandwidth. Every stage is "
               "checked against stage 0 and timed; GB/s counts each element read once and written once."};
  wb::add_common_options(app, opt.common);
  app.add_option("--m", opt.m, "elements of A (default 2^27 on a GPU, 2^16 on the cpu backend)");
  app.add_option("--n", opt.n, "elements of B (same default)");
  app.add_option("--type", opt.type, "key type")->check(CLI::IsMember({"int32", "int64", "float"}))->capture_default_str();
  app.add_option("--dist", opt.dist, "input distribution")
      ->check(CLI::IsMember({"uniform", "duplicates", "all-equal", "a-below-b", "b-below-a", "interleaved", "extremes"}))
      ->capture_default_str();
  app.add_option("--block", opt.cfg.block, "threads per block (0: each stage's default)");
  app.add_option("--tile", opt.cfg.tile, "tile_size of stages 3-4 (0: default 1024)");
  app.add_option("--items-per-thread", opt.cfg.items_per_thread, "outputs per thread of stages 2, 5, 6 (0: default)");
  app.add_option("--grid", opt.cfg.grid, "blocks of stages 2-4 (0: from the size)");
  app.add_flag("--key-value", opt.key_value, "carry an int32 value with every key (stable merge)");
  app.add_option("--a", opt.a_list, "input A given as a sorted list, e.g. 1,3,5");
  app.add_option("--b", opt.b_list, "input B given as a sorted list");
  app.add_option("--a-file", opt.a_file, "input A from a file of whitespace-separated sorted numbers");
  app.add_option("--b-file", opt.b_file, "input B from a file");
  app.add_flag("--trace", opt.trace, "print each thread's output range and co-ranks (a tiny input: m + n <= 64)");
  app.add_option("--svg", opt.svg,
                 fmt::format("with --trace: also draw the merge path, each stage-2 thread's and stage-3 block's "
                             "co-rank on it, as an SVG picture (int32/int64 keys, at most {} elements in A and {} "
                             "in B)",
                             merge::max_svg_side, merge::max_svg_side))
      ->type_name("FILE");
  app.add_flag("--sweep", opt.sweep, "thread-coarsening sweep: items per thread, tile sizes, stage-6 shapes");
  app.get_option("--print")->description(
      fmt::format("print each stage's output on one line (inputs of at most {} elements in all)", wb::max_print_elements));
  app.get_option("--a")->excludes("--a-file");
  app.get_option("--b")->excludes("--b-file");

  return wb::run_main(app, argc, argv, [&] {
    opt.reps_given = app.count("--reps") > 0;
    opt.a_from_file = app.count("--a-file") > 0;
    opt.b_from_file = app.count("--b-file") > 0;
    opt.a_given = app.count("--a") > 0 || opt.a_from_file;
    opt.b_given = app.count("--b") > 0 || opt.b_from_file;
    for (const auto& [value, flag] : {std::pair{opt.m, "--m"}, std::pair{opt.n, "--n"}}) {
      if (app.count(flag) > 0 && (value < 0 || value > max_side)) {
        throw wb::usage_error(fmt::format("{} {}: give a size in 0..2^40", flag, value));
      }
    }
    if (opt.cfg.block < 0 || opt.cfg.tile < 0 || opt.cfg.items_per_thread < 0 || opt.cfg.grid < 0) {
      throw wb::usage_error("--block, --tile, --items-per-thread and --grid must be positive (0: the default)");
    }
    if (opt.sweep && opt.common.compare) throw wb::usage_error("--sweep and --compare do not go together");
    if (app.count("--svg") > 0) {  // checked before any work: a bad path must not cost a run
      if (!opt.trace) throw wb::usage_error("--svg draws the traced merge path: give it with --trace");
      if (opt.type == "float") throw wb::usage_error("--svg draws int32 or int64 keys, not float");
      wb::require_writable_file(opt.svg, "--svg");
    }
    std::vector<std::pair<int, std::string>> known;
    for (const auto& s : merge::stages) known.emplace_back(s.number, s.suite);
    wb::require_known_stages(opt.common.stages, known);
    wb::print_device_info_or_exit();
    if (opt.type == "int64") return merge_run<std::int64_t>(opt).main();
    if (opt.type == "float") return merge_run<float>(opt).main();
    return merge_run<std::int32_t>(opt).main();
  });
}
