// counting: runs the stages of the distribution counting chapter on one input, checks each
// against the specification (stage 0 when N is small, else stage 2), and prints the report.
//
//   counting                                   10^9 uniform int8 items on a GPU (2^18 on the cpu backend)
//   counting --type int64 --n 2^26 --dist few --distinct 2^20
//   counting --input 3,1,6,2,1,3,6 --print     the article's example, every stage's table
//   counting --stage 6 --compare               your stage 6 against the solution's
//   counting --stage 6 --tune                  stage 6's counter layouts and blocks per SM
//   counting --type int64 --stage 7 --path two-level --phases   stage 7's two-level count, step by step
//   counting --type int64 --dist mixture --hot-share 0.5 --stage 7   hot keys and a long tail
//
// The O(N^2) stages (0, 1, 3, 4) are timed on a small sample first (estimate.hpp); when the
// estimate for the whole input is too long, the row says "refused" with that estimate.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "counting.hpp"
#include "data.hpp"
#include "estimate.hpp"
#include "goals.hpp"
#include "harness.hpp"
#include "reference.hpp"
#include "stage7_options.hpp"
#include "stages.hpp"
#include "wb/bandwidth.hpp"
#include "wb/chapter_app.hpp"
#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#if defined(WB_HAVE_BASELINE)
#include "baseline_cub.hpp"
#endif

namespace {

using counting::entry;

struct options {
  wb::common_options common;
  std::int64_t n = -1;  // -1: the default for this backend and type
  std::string type = "int8";
  counting::generated_input gen;  // --dist and what shapes it
  wb::input_options input;
  bool targets = false;
  std::int64_t chunk = 0;  // --chunk: stage 8's items per transfer (0: its default)
  counting::config cfg;
  counting::stage7_options stage7;
  bool tune = false;
  double budget_s = 0;
};

// The chapter's traits for the driver (wb/chapter.hpp): the frequency table of one input.
template <class T>
class counting_chapter {
 public:
  using output = std::vector<entry<T>>;

  counting_chapter(const options& o, std::vector<T> data) : o_(o), data_(std::move(data)), n_(std::ssize(data_)), d_in_(data_) {
    const auto start = std::chrono::steady_clock::now();
    reference_ = counting::reference_table<T>(data_);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("input: %s; %zu distinct values (reference: stage %d, %s)\n", describe().c_str(), reference_.size(),
                counting::reference_stage(n_), counting::human_seconds(seconds).c_str());
  }

  std::string title() const { return "counting: " + describe(); }
  wb::report_layout layout() const { return wb::report_layout::bandwidth(n_ > 0 ? wb::copy_bandwidth_gbs() : 0.0); }

  // --tune: every counter layout and blocks per SM (stage 6), the automatic choice and every
  // path (stage 7), chunk sizes and streams (stage 8); one row each.
  std::vector<std::string> variants(const wb::stage& s) const {
    if (!counting::stage_applies<T>(s.number)) return {};
    std::vector<std::string> names;
    for (const auto& [cfg, name] : configs(s.number)) names.push_back(name);
    return names;
  }

  wb::stage_job<output> job(const wb::stage& s, wb::track t, std::size_t variant) {
    if (counting::traits[static_cast<std::size_t>(s.number)].gpu_only && !wb::backend_is_cuda) {
      throw wb::stage_refused("GPU-only (device-side launches)");
    }
    const counting::config cfg = configs(s.number)[variant].first;
    return wb::with_track(t, [&](auto track) { return make_job<decltype(track)::value>(s.number, cfg); });
  }

  std::vector<wb::stage_job<output>> library() {
    std::vector<wb::stage_job<output>> rows;
    if (n_ == 0) return rows;
#if defined(WB_HAVE_BASELINE)
    rows.push_back(library_job());
#endif
    if (std::is_same_v<T, std::int8_t> && wb::stage_selected(o_.common.stages, 8, counting::stages[8].suite)) {
      // the bare host-to-device copy, stage 8's ceiling
      auto pinned = std::make_shared<counting::pinned_buffer<T>>(data_);
      wb::stage_job<output> copy;
      copy.name = "H2D copy (pinned)";
      copy.work = static_cast<double>(n_) * sizeof(T);
      copy.items = static_cast<double>(n_);
      copy.run = [this, pinned] {
        WB_CHECK(cudaMemcpyAsync(d_in_.data(), pinned->data(), data_.size() * sizeof(T), cudaMemcpyHostToDevice, 0));
      };
      copy.output = [] { return output{}; };
      copy.check = [](const output&) { return std::string(); };
      copy.note = "stage 8's ceiling, not a count";
      copy.max_reps = std::max(3, o_.common.reps / 4);
      copy.printed = false;
      rows.push_back(std::move(copy));
    }
    return rows;
  }

  void after_report(const wb::report& report) {
    if (o_.targets) counting::print_goals(report, {std::is_same_v<T, std::int8_t>, n_, o_.gen.dist, o_.gen.distinct});
    if (!report.all_verified()) std::printf("\nsome stage gave a WRONG table (see the notes)\n");
  }

  std::string check(const output& got) const { return counting::table_mismatch(reference_, got).value_or(""); }
  std::string show(const output& table) const {
    const std::string text = counting::format_table(table);
    return text.empty() ? "(empty)" : text;
  }
  std::string difference(const output& solution, const output& exercise) const {
    return counting::table_mismatch(solution, exercise).value_or("");
  }

 private:
  std::string describe() const {
    const std::string type = std::is_same_v<T, std::int8_t> ? "int8" : "int64";
    if (o_.input.given()) return fmt::format("{} {} items from {}", n_, type, o_.input.source());
    return fmt::format("{} {} items, {}, seed {}", n_, type, counting::describe(o_.gen), o_.common.seed);
  }

  std::vector<std::pair<counting::config, std::string>> configs(int stage) const {
    std::vector<std::pair<counting::config, std::string>> list;
    counting::config c = o_.cfg;
    if (!o_.tune || stage < 6) return {{c, ""}};
    if (stage == 6) {
      for (int v = 0; v <= 3; ++v) {
        for (int b : {0, 1, 2, 3}) {
          c.variant = v;
          c.blocks_per_sm = b;
          list.push_back({c, fmt::format(" v{} b{}", v, b == 0 ? std::string("max") : std::to_string(b))});
        }
      }
    } else if (stage == 7) {  // every path forced, after the automatic choice
      for (const auto& [path, label] : counting::path_labels) {
        c.hash.path = path;
        list.push_back({c, path == counting::hash_path::automatic ? "" : fmt::format(" {}", label)});
      }
    } else {
      for (std::int64_t chunk : {std::int64_t{1} << 22, std::int64_t{1} << 24, std::int64_t{1} << 26}) {
        for (int streams : {2, 4}) {
          c.chunk_items = chunk;
          c.streams = streams;
          list.push_back({c, fmt::format(" chunk 2^{} x{}", static_cast<int>(std::log2(double(chunk))), streams)});
        }
      }
    }
    return list;
  }

  template <wb::track Track>
  wb::stage_job<output> make_job(int stage, const counting::config& cfg) {
    const counting::input<T> in{std::span<const T>(data_), d_in_.data()};
    const double budget = o_.budget_s > 0 ? o_.budget_s : (wb::backend_is_cuda ? 20.0 : 5.0);
    std::string estimated;
    if (counting::traits[static_cast<std::size_t>(stage)].quadratic) {
      estimated = counting::require_quadratic_budget(n_, static_cast<double>(reference_.size()), budget, [&](std::int64_t items) {
        counting::input<T> part{in.host.subspan(0, static_cast<std::size_t>(items)), in.device};
        counting::stage_runner<Track, T> small(stage, part, cfg);
        small.run();
        small.result();
        const auto t0 = std::chrono::steady_clock::now();
        small.run();
        small.result();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      });
    }
    auto runner = std::make_shared<counting::stage_runner<Track, T>>(stage, in, cfg);
    wb::stage_job<output> job;
    job.work = static_cast<double>(n_) * sizeof(T);
    job.items = static_cast<double>(n_);
    job.prepare = [runner] {
      runner->poison();
      (void)counting::take_stage_note();
    };
    job.run = [runner, estimated] {
      try {
        runner->run_timed();
      } catch (const counting::stage_refused& e) {
        if (estimated.empty()) throw;
        throw counting::stage_refused(std::string(e.what()) + " (estimated " + estimated + ")");
      }
    };
    job.output = [runner] { return runner->result(); };
    job.remark = [](const output&) { return counting::take_stage_note(); };  // stage 7: the path it took, and why
    job.on_host = counting::traits[static_cast<std::size_t>(stage)].host;
    // Long stages get fewer repetitions: about 10 s each at most; a stage that takes over 2 s is
    // reported from the checked run alone (up to its last kernel's end, not the copy of its table).
    job.long_stage = {2, 10, 0.5};
    if (stage == 8) job.note = "from pinned host memory";
    return job;
  }

#if defined(WB_HAVE_BASELINE)
  // CUB: a histogram of the 256 values (int8), or a radix sort and a run-length encode (int64).
  wb::stage_job<output> library_job() {
    wb::stage_job<output> job;
    job.is_baseline = true;
    job.work = static_cast<double>(n_) * sizeof(T);
    job.items = static_cast<double>(n_);
    if constexpr (std::is_same_v<T, std::int8_t>) {
      job.name = "CUB HistogramEven";
      auto bins = std::make_shared<wb::device_buffer<unsigned>>(256);
      auto temp = std::make_shared<wb::device_buffer<unsigned char>>(counting::baseline::cub_histogram_temp_bytes(n_));
      job.run = [this, bins, temp] { counting::baseline::cub_histogram(d_in_.data(), n_, bins->data(), temp->data(), temp->size()); };
      job.output = [bins] {
        const auto h = bins->to_host();  // h[b]: items whose raw byte is b
        output table;
        for (int v = -128; v <= 127; ++v) {
          if (const unsigned c = h[static_cast<std::uint8_t>(v)]; c > 0) table.push_back({static_cast<T>(v), c});
        }
        return table;
      };
    } else {
      job.name = "CUB sort + RLE";
      const auto size = static_cast<std::size_t>(n_);
      auto sorted = std::make_shared<wb::device_buffer<T>>(size);
      auto keys = std::make_shared<wb::device_buffer<T>>(size);
      auto counts = std::make_shared<wb::device_buffer<std::uint64_t>>(size);
      auto runs = std::make_shared<wb::device_buffer<std::int64_t>>(1);
      auto temp = std::make_shared<wb::device_buffer<unsigned char>>(counting::baseline::cub_sort_rle_temp_bytes(n_));
      job.run = [=, this] {
        counting::baseline::cub_sort_rle(d_in_.data(), n_, sorted->data(), keys->data(), counts->data(), runs->data(),
                                         temp->data(), temp->size());
      };
      job.output = [=] {
        const auto k = static_cast<std::size_t>(runs->to_host()[0]);
        const auto hk = keys->to_host(k);  // the runs only: CUB writes k of the n slots
        const auto hc = counts->to_host(k);
        output table;
        for (std::size_t i = 0; i < k; ++i) table.push_back({hk[i], hc[i]});
        return table;
      };
    }
    return job;
  }
#endif

  const options& o_;
  std::vector<T> data_;
  std::int64_t n_;
  wb::device_buffer<T> d_in_;
  output reference_;
};

template <class T>
int run(options& o) {
  constexpr bool int8 = std::is_same_v<T, std::int8_t>;
  // Every check of the command line comes before the input is made (10^9 items by default).
  const bool explicit_input = o.input.given();
  std::int64_t n = o.n >= 0 || explicit_input ? std::max<std::int64_t>(o.n, 0)
                   : wb::backend_is_cuda     ? (int8 ? 1'000'000'000 : std::int64_t{1} << 26)
                                             : std::int64_t{1} << 18;
  if (!explicit_input) counting::require_generable<T>(o.gen, n);
  if (o.gen.sorted && explicit_input) throw wb::usage_error("--sorted sorts generated input, not --input or --input-file");
  // --print shows every stage's table: refused before any work for an input too long to read.
  if (o.common.print && !explicit_input) wb::require_printable(static_cast<std::uint64_t>(n), "the input");
  const std::uint64_t bytes = wb::bytes_for(static_cast<std::uint64_t>(n), sizeof(T) * 3, "the input");
  wb::require_memory(bytes, bytes, "counting");

  std::vector<T> data = explicit_input ? wb::read_input<T>(o.input, o.n >= 0)
                                       : counting::generate<T>(o.gen, static_cast<std::size_t>(n), o.common.seed);
  n = std::ssize(data);
  if (o.common.print) wb::require_printable(static_cast<std::uint64_t>(n), "the input");
  // A chunk longer than the input would only allocate staging buffers nobody fills.
  if (o.chunk > 0) o.cfg.chunk_items = std::min<std::int64_t>(o.chunk, std::max<std::int64_t>(n, 1));
  counting_chapter<T> chapter(o, std::move(data));
  return wb::run_chapter(chapter, counting::stages, o.common);
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  wb::chapter_app app{"Distribution counting: the article's algorithm, fixed, and what a GPU should do instead", o.common};
  CLI::App& cli = app.cli();
  app.size("--n", o.n, "items (e.g. 1000000, 1e9, 2^30); default 10^9 int8 / 2^26 int64 on a GPU, 2^18 on the cpu backend",
           1'000'000'000'000);
  app.type_option<std::int8_t, std::int64_t>(o.type, "item type");
  app.choice("--dist", o.gen.dist, {"uniform", "one-hot", "few", "all-distinct", "zipf", "mixture"},
             "generated data: uniform, one-hot (every item the same), few, all-distinct (int64), zipf, mixture (int64: "
             "hot keys and a tail)");
  wb::add_size_option(cli, "--distinct", o.gen.distinct, "distinct values for --dist few and zipf, e.g. 2^20");
  const std::vector<CLI::Option*> mixture_only = {
      cli.add_option("--hot-share", o.gen.hot_share, "--dist mixture: the share of the items on the hot keys")
          ->check(CLI::Range(0.0, 1.0))
          ->capture_default_str(),
      wb::add_size_option(cli, "--hot-keys", o.gen.hot_keys, "--dist mixture: the hot keys, e.g. 16")->capture_default_str(),
      wb::add_size_option(cli, "--tail-values", o.gen.tail_values,
                          "--dist mixture: the values the tail draws from, e.g. 2^16 (default: every tail item distinct)")};
  cli.add_flag("--sorted", o.gen.sorted, "sort the generated input ascending");
  app.input(o.input, "the items themselves, comma separated (e.g. 3,1,6,2,1,3,6)",
            "read the items from a file (whitespace separated, # comments)");
  cli.add_option("--variant", o.cfg.variant, "stage 6's counter layout: 0 16-bit atomics, 1 16-bit plain, 2 8-bit plain, 3 per-warp")
      ->check(CLI::Range(0, 3));
  cli.add_option("--blocks-per-sm", o.cfg.blocks_per_sm, "stage 6's resident blocks per SM (0: as many as fit)")
      ->check(CLI::Range(0, 32));
  wb::add_size_option(cli, "--chunk", o.chunk, "stage 8's items per transfer (default 2^24)", std::uint64_t{1} << 31)
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 31));
  cli.add_option("--streams", o.cfg.streams, "stage 8's streams")->check(CLI::Range(1, 16))->capture_default_str();
  counting::add_stage7_options(cli, o.stage7);
  cli.add_flag("--tune", o.tune, "stage 6: every counter layout and blocks per SM; stage 7: the automatic choice and every path; stage 8: chunk sizes and streams");
  cli.add_flag("--targets", o.targets, "after the report, the chapter's goals (set for an H100) against this run's times");
  cli.get_option("--print")->description(fmt::format(
      "print every stage's table (inputs of at most {} items)", wb::max_print_elements));
  cli.add_option("--budget", o.budget_s, "seconds an O(N^2) stage may take before it is refused (default 20 on a GPU, 5 on the cpu backend)")
      ->check(CLI::Range(0.0, 1e6));
  app.after_parse([&] {
    for (const CLI::Option* option : mixture_only)
      if (option->count() > 0 && o.gen.dist != "mixture") throw wb::usage_error(option->get_name() + " goes with --dist mixture");
    // Stage 7 estimates the distinct keys itself (cfg.hash.expected_distinct stays 0): --distinct
    // only shapes the generated input.
    o.cfg.hash = o.stage7.resolved();
  });
  app.validate([&] { counting::validate(o.cfg); }, "");  // its messages name their flags
  return app.run<std::int8_t, std::int64_t>(argc, argv, o.type, counting::stages, [&]<class T>() {
    wb::print_device_info_or_exit();
    return run<T>(o);
  });
}
