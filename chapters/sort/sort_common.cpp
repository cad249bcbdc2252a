// Configuration and workspace sizes shared by every stage of both tracks (sort.hpp).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "onesweep.hpp"
#include "radix_passes.hpp"
#include "scan.hpp"
#include "sort.hpp"
#include "wb/check.hpp"

namespace sort {

namespace {
std::int64_t ceil_div(std::int64_t work, std::int64_t per) { return (work + per - 1) / per; }
using wb::piece_bytes;
}  // namespace

int items_for(int stage, const config& cfg) {
  if (stage <= 3) return 1;
  if (stage == 5) return onesweep::stage_shape(4, false, false).items;
  if (stage == 6) {
    return merge_tiles_for(cfg, 4, false).items;
  }
  if (cfg.items_per_thread > 0) return cfg.items_per_thread;
  return 8;
}

merge_tiles merge_tiles_for(const config& cfg, std::size_t key_bytes, bool with_values) {
#define SORT_MERGE_TILES(BLOCK, SORT_BLOCK, MB4, I4, MB4V, I4V, MB8, I8, MB8V, I8V)                    \
  if (cfg.block == (BLOCK)) {                                                                        \
    const bool wide = key_bytes == 8;                                                                \
    const int merge_block = wide ? (with_values ? (MB8V) : (MB8)) : (with_values ? (MB4V) : (MB4));  \
    const int items = wide ? (with_values ? (I8V) : (I8)) : (with_values ? (I4V) : (I4));            \
    return {std::int64_t{SORT_BLOCK} * items, std::int64_t{merge_block} * items, items};             \
  }
  SORT_MERGE_SHAPES(SORT_MERGE_TILES)
#undef SORT_MERGE_TILES
  throw std::invalid_argument("block size " + std::to_string(cfg.block) + " has no stage-6 shape");
}

int bits_for(int stage, const config& cfg) {
  if (stage <= 2) return 1;
  if (stage == 5) return onesweep_bits;
  return cfg.bits > 0 ? cfg.bits : 4;
}

void validate(const config& cfg) {
  const int b = cfg.block;
  if (b < min_block || b > max_block || !std::has_single_bit(static_cast<unsigned>(b))) {
    // The block scans step by doubling strides; 32 is one warp.
    throw std::invalid_argument("block size " + std::to_string(b) + " is not allowed: use a power of two from 32 to 1024");
  }
  const int items = cfg.items_per_thread;
  if (items != 0 && (items < 1 || items > max_items_per_thread || !std::has_single_bit(static_cast<unsigned>(items)))) {
    throw std::invalid_argument("items per thread " + std::to_string(items) +
                                " is not allowed: use 0 (the stage's default) or a power of two from 1 to " +
                                std::to_string(max_items_per_thread));
  }
  if (cfg.bits != 0 && cfg.bits != 1 && cfg.bits != 2 && cfg.bits != 4 && cfg.bits != 8) {
    throw std::invalid_argument("bits " + std::to_string(cfg.bits) + " is not allowed: use 1, 2, 4 or 8 (0: 4)");
  }
  if (cfg.portion < 0) throw std::invalid_argument("portion " + std::to_string(cfg.portion) + " is negative");
  if (cfg.onesweep_long_tiles_from < 0) {
    throw std::invalid_argument("onesweep_long_tiles_from " + std::to_string(cfg.onesweep_long_tiles_from) +
                                " is negative");
  }
  if (cfg.onesweep_few_digits_from < 0) {
    throw std::invalid_argument("onesweep_few_digits_from " + std::to_string(cfg.onesweep_few_digits_from) +
                                " is negative");
  }
  if (cfg.onesweep_few_digits_blocks < 0) {
    throw std::invalid_argument("onesweep_few_digits_blocks " + std::to_string(cfg.onesweep_few_digits_blocks) +
                                " is negative");
  }
  if (cfg.onesweep_histogram_blocks < 0) {
    throw std::invalid_argument("onesweep_histogram_blocks " + std::to_string(cfg.onesweep_histogram_blocks) +
                                " is negative");
  }
  for (const int stage : {4}) {  // stages 5 and 6 run compiled tile shapes
    if (static_cast<std::int64_t>(b) * items_for(stage, cfg) > max_tile_items) {
      throw std::invalid_argument("block x items per thread = " +
                                  std::to_string(static_cast<std::int64_t>(b) * items_for(stage, cfg)) +
                                  " keys: a tile in shared memory holds at most " + std::to_string(max_tile_items));
    }
  }
}

std::size_t workspace_bytes(std::int64_t n, std::size_t key_bytes, const config& cfg) {
  const auto un = static_cast<std::size_t>(n);
  // Every stage ping-pongs between the output and one more buffer of keys and values.
  const std::size_t buffers = piece_bytes(un * key_bytes) + piece_bytes(un * 4);
  std::size_t most = 0;
  // Stages 1-4: the bucket counts of one pass, digit-major, and the scan's workspace.
  for (const int stage : {1, 2, 3, 4}) {
    const std::int64_t blocks = ceil_div(n, static_cast<std::int64_t>(cfg.block) * items_for(stage, cfg));
    const std::int64_t counts = blocks << bits_for(stage, cfg);
    most = std::max(most, 2 * piece_bytes(static_cast<std::size_t>(counts) * 8) +
                              scan::workspace_bytes(counts, 8, count_scan_config()));
  }
  most = std::max(most, onesweep_workspace_bytes(n, key_bytes, cfg) - buffers);
  // Stage 6: one partition per output tile of a merge pass.
  most = std::max(most, piece_bytes(static_cast<std::size_t>(ceil_div(n, merge_min_tile) + 1) * 8));
  return buffers + most;
}

namespace onesweep {

namespace {

// The stage-5 scratch of the last sort of n > 0 keys in ws.
workspace_pieces scratch_of(const workspace& ws, std::int64_t n, std::size_t key_bytes, bool pairs,
                            const config& cfg) {
  return carve(ws, n, key_bytes, stage_shape(key_bytes, pairs, long_tiles_for(n, cfg)).tile(), cfg);
}

std::vector<pass_plan> read_plan(const workspace& ws, std::int64_t n, std::size_t key_bytes, bool pairs,
                                 const config& cfg) {
  const workspace_pieces w = scratch_of(ws, n, key_bytes, pairs, cfg);
  std::vector<pass_plan> plan(key_bytes);  // one 8-bit digit per byte
  WB_CHECK(cudaMemcpy(plan.data(), w.scratch + w.offsets.plan, plan.size() * sizeof(pass_plan), cudaMemcpyDeviceToHost));
  return plan;
}

}  // namespace

std::vector<pass_mode> pass_modes(const workspace& ws, std::int64_t n, std::size_t key_bytes, bool pairs,
                                  const config& cfg) {
  if (n == 0) return std::vector<pass_mode>(key_bytes, pass_skip);  // nothing ran
  std::vector<pass_mode> modes;
  for (const pass_plan& p : read_plan(ws, n, key_bytes, pairs, cfg)) {
    modes.push_back(static_cast<pass_mode>(p.mode));
  }
  return modes;
}

std::vector<int> pass_digits(const workspace& ws, std::int64_t n, std::size_t key_bytes, bool pairs,
                             const config& cfg) {
  if (n == 0) return std::vector<int>(key_bytes, 0);  // nothing ran
  std::vector<int> digits;
  for (const pass_plan& p : read_plan(ws, n, key_bytes, pairs, cfg)) digits.push_back(p.digits);
  return digits;
}

std::vector<std::int64_t> tiles_taken(const workspace& ws, std::int64_t n, std::size_t key_bytes, bool pairs,
                                      const config& cfg) {
  if (n == 0) return std::vector<std::int64_t>(key_bytes, 0);  // nothing ran
  const workspace_pieces w = scratch_of(ws, n, key_bytes, pairs, cfg);
  const auto portions = static_cast<std::size_t>(w.portions);
  std::vector<unsigned> counters(key_bytes * portions);  // [pass][portion]
  WB_CHECK(cudaMemcpy(counters.data(), w.scratch + w.offsets.counters, counters.size() * sizeof(unsigned),
                      cudaMemcpyDeviceToHost));
  std::vector<std::int64_t> taken(key_bytes, 0);
  for (std::size_t i = 0; i < counters.size(); ++i) taken[i / portions] += counters[i];
  return taken;
}

}  // namespace onesweep

std::int64_t onesweep_tile(std::size_t key_bytes, bool pairs) {
  const auto shape = onesweep::stage_shape(key_bytes, pairs, false);
  return static_cast<std::int64_t>(shape.block) * shape.items;
}

std::size_t onesweep_workspace_bytes(std::int64_t n, std::size_t key_bytes, const config& cfg) {
  const auto un = static_cast<std::size_t>(n);
  // The other buffer of keys and values, then the scratch of onesweep.hpp's layout (sized
  // for the smallest tile any shape uses: the most tiles).
  const std::int64_t tile = std::min({onesweep::smallest_tile, onesweep_tile(key_bytes, false), onesweep_tile(key_bytes, true)});
  const std::int64_t tiles = ceil_div(n, tile);
  const std::int64_t portion_tiles = onesweep::portion_tiles_for(tile, cfg.portion);
  const std::int64_t portions = std::max<std::int64_t>(1, ceil_div(tiles, portion_tiles));
  return piece_bytes(un * key_bytes) + piece_bytes(un * 4) + onesweep::layout_for(tiles, portions).end + 16;
}

}  // namespace sort
