// Launch geometry, checks and the tree trace shared by every stage of both tracks (see
// reduction.hpp).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "reduction.hpp"
#include "wb/check.hpp"
#include "wb/runtime.hpp"

namespace reduction {

namespace {
// (like wb::ceil_div, which lives in wb/launch.hpp: kernel sources only)
std::int64_t ceil_div(std::int64_t work, std::int64_t per) { return (work + per - 1) / per; }

int current_device_attribute(cudaDeviceAttr attribute) {
  int device = 0;
  int value = 0;
  WB_CHECK(cudaGetDevice(&device));
  WB_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
  return value;
}
}  // namespace

void validate(const config& cfg) {
  const int b = cfg.block;
  if (b < min_block || b > max_block) {
    // R4: below one warp the warp-synchronous tail (listing 12-2, 12-3) reads past the
    // partials, and the shuffles would need a partial mask; no reason to use such a block.
    throw std::invalid_argument("block size " + std::to_string(b) +
                                " is out of range: use a power of two from 32 to 1024");
  }
  if (!std::has_single_bit(static_cast<unsigned>(b))) {
    // R2: the log-step tree halves the active threads each step; with 96 threads the step
    // from 3 to 1 drops a partial. The book says so in its text and checks it nowhere.
    throw std::invalid_argument("block size " + std::to_string(b) +
                                " is not a power of two: the log-step tree needs 32, 64, 128, "
                                "256, 512 or 1024 threads");
  }
  if (cfg.blocks < 0 || cfg.blocks > max_blocks) {
    throw std::invalid_argument("block count " + std::to_string(cfg.blocks) +
                                " is out of range: use 1 to " + std::to_string(max_blocks) +
                                ", or 0 for enough to fill the GPU");
  }
}

std::int64_t resident_blocks(int block) {
  // Asked once per process: the device does not change under a running program.
  static const std::int64_t sms = std::max(current_device_attribute(cudaDevAttrMultiProcessorCount), 1);
  static const std::int64_t threads_per_sm =
      std::max(current_device_attribute(cudaDevAttrMaxThreadsPerMultiProcessor), 32);
  constexpr std::int64_t max_blocks_per_sm = 32;  // Volta to Hopper
  const std::int64_t per_sm = std::clamp<std::int64_t>(threads_per_sm / std::max(block, 1), 1, max_blocks_per_sm);
  return sms * per_sm;
}

std::int64_t grid_blocks(std::int64_t n, const config& cfg, std::int64_t items_per_block) {
  if (cfg.blocks > 0) return cfg.blocks;
  const std::int64_t cover = ceil_div(std::max<std::int64_t>(n, 1), items_per_block);
  return std::clamp<std::int64_t>(cover, 1, std::min(resident_blocks(cfg.block), max_blocks));
}

std::int64_t max_grid_blocks(std::int64_t n, const config& cfg) {
  // One item a thread per sweep gives the most blocks of any stage.
  return grid_blocks(n, cfg, cfg.block);
}

std::int64_t two_pass_blocks(std::int64_t n, const config& cfg, std::int64_t partials_capacity, const char* stage) {
  validate(cfg);
  const std::int64_t blocks = grid_blocks(n, cfg, cfg.block);
  require_partials(partials_capacity, blocks, stage);
  return blocks;
}

void require_partials(std::int64_t capacity, std::int64_t blocks, const char* stage) {
  if (blocks > capacity) {
    throw std::invalid_argument(std::string(stage) + ": the workspace holds " +
                                std::to_string(capacity) + " partial sums, the grid needs " +
                                std::to_string(blocks) +
                                " (allocate it with workspace_buffer for this n and config)");
  }
}

std::int64_t rounding_depth(std::int64_t n, const config& cfg) {
  if (n <= 1) return n;
  const std::int64_t blocks = grid_blocks(n, cfg, cfg.block * max_items_per_thread_sweep);
  // Stage 5 may launch fewer blocks than the thread limit allows when registers limit its
  // occupancy (at most by 2 on Hopper at 64 registers a thread); a margin of 4.
  const std::int64_t threads = std::max<std::int64_t>(1, blocks * cfg.block / (cfg.blocks > 0 ? 1 : 4));
  const std::int64_t per_thread = ceil_div(n, threads) + max_items_per_thread_sweep;
  const std::int64_t trees = 2 * 2 * 10;  // two passes, each at most 2 x log2(1024) steps
  const std::int64_t second_pass = ceil_div(blocks, min_block);
  return std::min(n, per_thread + trees + second_pass);
}

// ---------------------------------------------------------------------------------------
// The tree trace
// ---------------------------------------------------------------------------------------

namespace {
// a + b as the GPU adds: integers wrap (unsigned arithmetic), floating point rounds.
template <class S>
S wrapping_add(S a, S b) {
  if constexpr (std::is_integral_v<S>) {
    return static_cast<S>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
  } else {
    return a + b;
  }
}
template <class S>
std::string value_text(S v) {
  if constexpr (std::is_floating_point_v<S>) return fmt::format("{:g}", v);
  else return fmt::format("{}", v);
}
}  // namespace

template <class T>
std::string trace_tree(std::span<const T> in, int block) {
  using S = sum_t<T>;
  if (block < 1 || !std::has_single_bit(static_cast<unsigned>(block)))
    throw std::invalid_argument("trace_tree: the block must be a power of two");
  // partials[t]: thread t's grid-stride sum (one block: the grid's stride is the block).
  std::vector<S> partials(static_cast<std::size_t>(block), S{});
  for (std::size_t i = 0; i < in.size(); ++i) {
    auto& p = partials[i % static_cast<std::size_t>(block)];
    p = wrapping_add(p, static_cast<S>(in[i]));
  }
  // The rows first, to size the columns.
  std::vector<std::pair<std::string, std::vector<S>>> rows{{"load", partials}};
  for (int s = block / 2; s >= 1; s /= 2) {
    for (int t = 0; t < s; ++t) partials[t] = wrapping_add(partials[t], partials[t + s]);  // t < s reads t + s >= s
    rows.push_back({fmt::format("offset {}", s), std::vector<S>(partials.begin(), partials.begin() + s)});
  }
  std::size_t width = fmt::format("t{}", block - 1).size();
  for (const auto& [label, values] : rows)
    for (const S& v : values) width = std::max(width, value_text(v).size());
  for (const T& x : in) width = std::max(width, value_text(static_cast<S>(x)).size());
  const auto cell = [&](const std::string& text) { return fmt::format(" {:>{}}", text, width); };

  std::string out = fmt::format(
      "Log-step tree of stages 1 and 2 (CUDA Handbook §12.2): {} items, one block of {} threads\n"
      "thread t first adds in[t], in[t + {}], ...; at each step every thread t < offset adds partials[t + offset]\n",
      in.size(), block, block);
  std::string head = fmt::format("{:<24}", "thread");
  for (int t = 0; t < block; ++t) head += cell(fmt::format("t{}", t));
  out += head + "\n";
  for (std::size_t sweep = 0; sweep * static_cast<std::size_t>(block) < std::max<std::size_t>(in.size(), 1); ++sweep) {
    std::string line = fmt::format("{:<24}", fmt::format("in[{}..]", sweep * static_cast<std::size_t>(block)));
    for (std::size_t i = sweep * static_cast<std::size_t>(block); i < std::min(in.size(), (sweep + 1) * static_cast<std::size_t>(block)); ++i)
      line += cell(value_text(static_cast<S>(in[i])));
    out += line + "\n";
  }
  bool tail_marked = false;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const int offset = k == 0 ? block : block >> k;
    if (k > 0 && offset <= 32 && !tail_marked) {
      // listing 12-2: the steps from offset 32 on run in warp 0 alone
      out += "-- stage 2 from here: warp 0 alone, __syncwarp() between steps (stage 1: __syncthreads() after every step)\n";
      tail_marked = true;
    }
    std::string line = fmt::format("{:<24}", rows[k].first);
    for (const S& v : rows[k].second) line += cell(value_text(v));
    out += line + "\n";
  }
  out += fmt::format("{} additions in the tree for {} threads; the block's sum: {}\n", block - 1, block,
                     value_text(rows.back().second.front()));
  return out;
}

template <class T>
sum_t<T> tree_sum(std::span<const T> in, int block) {
  using S = sum_t<T>;
  if (block < 1 || !std::has_single_bit(static_cast<unsigned>(block)))
    throw std::invalid_argument("tree_sum: the block must be a power of two");
  std::vector<S> partials(static_cast<std::size_t>(block), S{});
  for (std::size_t i = 0; i < in.size(); ++i) {
    auto& p = partials[i % static_cast<std::size_t>(block)];
    p = wrapping_add(p, static_cast<S>(in[i]));
  }
  for (int s = block / 2; s >= 1; s /= 2)
    for (int t = 0; t < s; ++t) partials[t] = wrapping_add(partials[t], partials[t + s]);
  return partials[0];
}

template std::string trace_tree<std::int32_t>(std::span<const std::int32_t>, int);
template std::string trace_tree<std::int64_t>(std::span<const std::int64_t>, int);
template std::string trace_tree<float>(std::span<const float>, int);
template std::string trace_tree<double>(std::span<const double>, int);
template sum_t<std::int32_t> tree_sum<std::int32_t>(std::span<const std::int32_t>, int);
template sum_t<std::int64_t> tree_sum<std::int64_t>(std::span<const std::int64_t>, int);
template sum_t<float> tree_sum<float>(std::span<const float>, int);
template sum_t<double> tree_sum<double>(std::span<const double>, int);

}  // namespace reduction
