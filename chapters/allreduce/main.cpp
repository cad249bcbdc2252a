// allreduce: every stage of the chapter on one input per GPU, checked against stage 0, timed
// against NCCL, reported with algorithm and bus bandwidth (the nccl-tests definitions).
//
//   allreduce                                every visible GPU (two ranks on one GPU), 2^26 int32 per
//                                            GPU (the cpu backend: 2 emulated devices, 2^16)
//   allreduce --gpus 3 --devices 1 --type float   three ranks on one GPU (logical devices)
//   allreduce --input "1,2,3;4,5,6" --print  one vector per GPU, ';' between GPUs
//   allreduce --trace --svg ring.svg         the ring's schedule, as text and as a picture
//   allreduce --sweep --csv sweep.csv        every stage and NCCL from 8 B to 1 GiB per GPU
//   allreduce --app histogram | distinct     stage 6: the counting chapter split across GPUs
//   allreduce --track exercise | --compare   your stages, or yours beside the solution's
//
// algbw = bytes per GPU / time; busbw = algbw * 2 (G - 1) / G, what each GPU's link must carry
// in the best algorithm, comparable across G (nccl-tests' PERFORMANCE.md).#include <fmt/format.h>

#include "allreduce_chapter.hpp"
#include "application.hpp"
#include "sweep.hpp"
#include "trace.hpp"
#include "wb/chapter_app.hpp"

namespace {

using namespace allreduce;

constexpr wb::backend_default default_n{std::int64_t{1} << 26, std::int64_t{1} << 16};

// --input "1,2,3;4,5,6": one vector per rank.
template <class T>
std::vector<std::vector<T>> parse_input(const std::string& text) {
  std::vector<std::vector<T>> vectors;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = text.find(';', start);
    vectors.push_back(wb::parse_list<T>(text.substr(start, end - start), fmt::format("--input, GPU {}", vectors.size())));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  for (const auto& v : vectors) {
    if (v.size() != vectors[0].size()) throw wb::usage_error("--input: every GPU's vector must have the same length");
  }
  if (vectors.size() > static_cast<std::size_t>(max_ranks)) throw wb::usage_error(fmt::format("--input: at most {} GPUs", max_ranks));
  return vectors;
}

template <class T>
int run(options& opt) {
  std::vector<std::vector<T>> inputs;
  std::string source;
  if (opt.input_given) {
    if (opt.n >= 0) throw wb::usage_error("--n and --input: the input sets n");
    inputs = parse_input<T>(opt.input);
    if (opt.gpus > 0 && opt.gpus != static_cast<int>(inputs.size())) {
      throw wb::usage_error(fmt::format("--gpus {} but --input gives {} vectors", opt.gpus, inputs.size()));
    }
    opt.gpus = static_cast<int>(inputs.size());
    source = "--input";
  }
  const int visible = wb::backend_is_cuda ? wb::visible_devices() : max_ranks;
  // Every visible GPU, and at least two ranks: on one GPU, two logical devices.
  const int G = opt.gpus > 0 ? opt.gpus : wb::backend_is_cuda ? std::clamp(visible, 2, max_ranks) : 2;
  const int D = opt.devices > 0 ? opt.devices : std::min(G, visible);
  if (D > visible) throw wb::usage_error(fmt::format("--devices {}: {} GPUs visible", D, visible));
  if (D > G) throw wb::usage_error(fmt::format("--devices {} for {} ranks: at most one GPU per rank", D, G));
  if (opt.trace) {
    const std::int64_t n = opt.input_given ? static_cast<std::int64_t>(inputs[0].size()) : std::max<std::int64_t>(opt.n, 0);
    const std::int64_t chunk = resolve(opt.cfg, n, sizeof(T), G).chunk_bytes / static_cast<std::int64_t>(sizeof(T));
    const auto plan = WB_WITH_TRACK(allreduce, wb::track_named(opt.common.track), { return tr::ring_schedule(G, n, chunk); });
    return ring_trace(plan, G, n, chunk, opt.svg);  // exit 1 when the schedule does not compute the sum
  }
  if (!opt.input_given && opt.app.empty()) {
    const std::int64_t n = wb::size_or(opt.n, default_n);
    if (static_cast<std::uint64_t>(n) * sizeof(T) > max_message_bytes) {
      throw wb::usage_error(fmt::format("--n {}: at most 1 GiB per GPU ({} elements of {})", n, max_message_bytes / sizeof(T), opt.type));
    }
    if (opt.common.print) wb::require_printable(static_cast<std::uint64_t>(n), "each GPU's vector");
    const auto d = parse_distribution(opt.dist);
    wb::require_memory(static_cast<std::uint64_t>(n) * sizeof(T) * 3, static_cast<std::uint64_t>(n) * sizeof(T) * (2 * G + 2),
                       fmt::format("an all-reduce of {} {} per GPU", n, opt.type));
    if (!opt.sweep) inputs = make_inputs<T>(G, n, *d, opt.common.seed);
    source = fmt::format("{}, seed {}", opt.dist, opt.common.seed);
  } else if (opt.common.print) {
    wb::require_printable(inputs.empty() ? 0 : inputs[0].size(), "each GPU's vector");
  }
  if (!wb::backend_is_cuda) wb::emulate_devices(D);
  wb::print_device_info_or_exit();
  team t(G, D);
  if (!opt.app.empty()) return run_application(t, opt);
  if (opt.sweep) return run_sweep<T>(t, opt);
  allreduce_chapter<T> chapter(t, opt, std::move(inputs), source);
  return wb::run_chapter(chapter, stages, opt.common);
}

}  // namespace

int main(int argc, char** argv) {
  options opt;
  wb::chapter_app app{"allreduce: the element-wise sum of every GPU's vector on every GPU, stage by stage (peer copies, "
                      "a ring, direct peer access, NCCL)",
                      opt.common};
  CLI::App& cli = app.cli();
  cli.add_option("--gpus", opt.gpus, "ranks, one vector each (default: every visible GPU, at least 2: ranks share a GPU where there are fewer; the cpu backend: 2)")
      ->check(CLI::Range(1, max_ranks));
  cli.add_option("--devices", opt.devices, "GPUs to spread the ranks over (default: one per rank; fewer: logical devices)")
      ->check(CLI::Range(1, max_ranks));
  app.size("--n", opt.n, "elements per GPU, up to 1 GiB", max_message_bytes, default_n);
  app.type_option<std::int32_t, std::int64_t, float>(opt.type, "element type");
  app.choice("--dist", opt.dist, {"uniform", "small", "extremes"}, "generated vectors: uniform (integers wrap around), small, extremes");
  cli.add_option("--input", opt.input, "explicit vectors, ';' between GPUs: \"1,2,3;4,5,6\"");
  wb::add_size_option(cli, "--chunk", opt.cfg.chunk_bytes, "stage 3: bytes per piece (default: 1/16 of a segment, at least 256 KiB)");
  wb::add_size_option(cli, "--blocks", opt.cfg.blocks, "stage 4: blocks per GPU (default: enough, at most one per SM)");
  wb::add_size_option(cli, "--threads", opt.cfg.threads, "stage 4: threads per block (default 512)");
  cli.add_flag("--sweep", opt.sweep, "every stage and NCCL at every message size from 8 B to --sweep-max, doubling");
  wb::add_size_option(cli, "--sweep-max", opt.sweep_max, "largest message of --sweep in bytes (default 1 GiB)", max_message_bytes);
  app.trace(opt.trace, &opt.svg, "the ring's schedule (stage 3): which segment moves where at every step",
            fmt::format("with --trace: also draw it to this SVG file (at most {} GPUs)", max_svg_ranks));
  cli.add_option("--app", opt.app, "stage 6: histogram (int8 items) or distinct (int64 keys), split across the GPUs")
      ->check(CLI::IsMember({"histogram", "distinct"}));
  wb::add_size_option(cli, "--items", opt.items, "--app: items in all (default 2^32 int8 / 2^27 int64; cpu backend 2^16)",
                      std::uint64_t{1} << 34);
  wb::add_size_option(cli, "--distinct", opt.distinct, "--app distinct: distinct keys (default 2^20)", std::uint64_t{1} << 34);
  cli.add_option("--exchange", opt.exchange, "--app distinct: how rows reach their owner: nccl or peer (default: both)")
      ->check(CLI::IsMember({"nccl", "peer"}));
  cli.add_flag("--phases", opt.phases,
               "--app distinct: after every call, each rank's steps timed by CUDA events on its stream (and counting's "
               "stage 7 steps), on stderr");
  app.after_parse([&] {
    opt.input_given = app.given("--input");
    if (opt.trace && (opt.gpus > max_svg_ranks) && !opt.svg.empty()) throw wb::usage_error("--svg: at most 8 GPUs");
    if (!opt.app.empty() && (opt.sweep || opt.trace || opt.input_given)) {
      throw wb::usage_error("--app runs stage 6 on data of its own: not with --sweep, --trace or --input");
    }
    if (opt.sweep && (opt.trace || opt.input_given)) throw wb::usage_error("--sweep makes its own vectors: not with --trace or --input");
    if (opt.app.empty() && (app.given("--items") || app.given("--distinct") || app.given("--exchange"))) {
      throw wb::usage_error("--items, --distinct and --exchange are for --app");
    }
    if (opt.phases && opt.app != "distinct") throw wb::usage_error("--phases times the steps of --app distinct: give it too");
  });
  app.validate([&] { resolve(opt.cfg, 1, 4, std::max(opt.gpus, 1)); }, "");  // its messages name their flags
  return app.run<std::int32_t, std::int64_t, float>(argc, argv, opt.type, stages, [&]<class T>() { return run<T>(opt); });
}
