// Launch geometry and checks shared by every stage of both tracks (see reduction.hpp).
#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

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

}  // namespace reduction
