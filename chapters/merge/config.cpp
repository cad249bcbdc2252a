// Defaults and checks of the merge stages' launch configuration (see config.hpp).
#include "config.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "wb/check.hpp"
#include "wb/runtime.hpp"

namespace merge {
namespace {

constexpr std::int64_t max_grid = 2147483647;  // gridDim.x limit
constexpr int max_block = 1024;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

[[noreturn]] void refuse(int stage, const std::string& what) {
  throw std::invalid_argument("stage " + std::to_string(stage) + ": " + what);
}

void check_block(int stage, int block) {
  if (block < 1 || block > max_block) {
    refuse(stage, "--block " + std::to_string(block) + " is outside 1..1024 threads per block");
  }
}

void check_grid(int stage, std::int64_t grid, const char* why) {
  if (grid > max_grid) {
    refuse(stage, "this needs " + std::to_string(grid) + " blocks (" + why +
                      "), more than a grid may have (2^31-1); choose larger blocks or more items per thread");
  }
}

void check_shared(int stage, std::size_t bytes, const char* field) {
  const std::size_t limit = max_shared_bytes_per_block();
  if (bytes > limit) {
    refuse(stage, std::string(field) + " needs " + std::to_string(bytes) +
                      " bytes of shared memory per block; this device allows " + std::to_string(limit));
  }
}

}  // namespace

const std::vector<std::pair<int, int>>& at_bandwidth_shapes() {
#define MERGE_SHAPE_PAIR(block, items) {block, items},
  static const std::vector<std::pair<int, int>> shapes = {MERGE_AT_BANDWIDTH_SHAPES(MERGE_SHAPE_PAIR)};
#undef MERGE_SHAPE_PAIR
  return shapes;
}

std::size_t max_shared_bytes_per_block() {
  int device = 0;
  WB_CHECK(cudaGetDevice(&device));
  int optin = 0;
  WB_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  // Leave room for the kernels' few static __shared__ variables.
  return optin > 1024 ? static_cast<std::size_t>(optin) - 1024 : 0;
}

std::size_t shared_bytes(int stage, const config& c, std::size_t key_bytes, bool with_values) {
  const auto tile = static_cast<std::size_t>(c.tile);
  switch (stage) {
    case 3:
    case 4:  // A_S and B_S, tile_size keys each (values are read from global memory)
      return 2 * tile * key_bytes;
    case 5:  // the block's exact A and B parts, tile keys together
      return static_cast<std::size_t>(c.block) * static_cast<std::size_t>(c.items_per_thread) * key_bytes;
    case 6: {  // one tile of keys, reused for the values
      const std::size_t items = static_cast<std::size_t>(c.block) * static_cast<std::size_t>(c.items_per_thread);
      return items * std::max(key_bytes, with_values ? sizeof(std::int32_t) : std::size_t{0});
    }
    default:
      return 0;
  }
}

config resolve(int stage, const config& requested, std::int64_t total, std::size_t key_bytes, bool with_values) {
  config c = requested;
  if (c.block < 0 || c.tile < 0 || c.items_per_thread < 0 || c.grid < 0) {
    refuse(stage, "block, tile, items per thread and grid must be positive (0 picks the default)");
  }
  const std::int64_t work = std::max<std::int64_t>(total, 1);
  switch (stage) {
    case 2: {  // basic: each thread merges ceil((m+n)/threads) outputs
      if (c.block == 0) c.block = 256;
      if (c.items_per_thread == 0) c.items_per_thread = 8;
      check_block(stage, c.block);
      if (c.grid == 0) {
        c.grid = ceil_div(work, static_cast<std::int64_t>(c.block) * c.items_per_thread);
        check_grid(stage, c.grid, "one thread per items_per_thread outputs");
      }
      check_grid(stage, c.grid, "--grid");
      break;
    }
    case 3:
    case 4: {  // tiled and circular: a fixed grid, each block walks over its tiles
      if (c.block == 0) c.block = 128;
      if (c.tile == 0) c.tile = 1024;
      check_block(stage, c.block);
      check_shared(stage, shared_bytes(stage, c, key_bytes, with_values), ("--tile " + std::to_string(c.tile)).c_str());
      if (c.grid == 0) c.grid = std::min<std::int64_t>(ceil_div(work, c.tile), 8 * static_cast<std::int64_t>(wb::multiprocessor_count()));
      check_grid(stage, c.grid, "--grid");
      break;
    }
    case 5: {  // coarsened: one exact tile of block * items_per_thread outputs per block
      if (c.block == 0) c.block = 128;
      if (c.items_per_thread == 0) c.items_per_thread = 8;
      check_block(stage, c.block);
      if (c.items_per_thread > 4096) refuse(stage, "--items-per-thread is limited to 4096");
      check_shared(stage, shared_bytes(stage, c, key_bytes, with_values),
                   ("--block x --items-per-thread = " + std::to_string(std::int64_t{c.block} * c.items_per_thread)).c_str());
      c.grid = ceil_div(work, static_cast<std::int64_t>(c.block) * c.items_per_thread);
      check_grid(stage, c.grid, "one block per tile");
      break;
    }
    case 6: {  // at bandwidth: compiled shapes only
      const std::size_t item_bytes = key_bytes + (with_values ? sizeof(std::int32_t) : 0);
      const auto& shapes = at_bandwidth_shapes();
      if (c.block == 0 && c.items_per_thread == 0) {
        c.block = 512;
        // 4-byte keys with 4-byte values take 11 (measured on an H100: 512 x 11 merged pairs 0.27 ms
        // faster than 512 x 7 with the same partition kernel: the values' gather and store come
        // after the keys', so more items per thread keep more of them in flight).
        const bool int32_pairs = with_values && key_bytes == 4;
        c.items_per_thread = item_bytes <= 4 ? 15 : int32_pairs ? 11 : item_bytes <= 8 ? 7 : 5;
      } else if (c.items_per_thread == 0) {  // the largest compiled item count for this block
        for (const auto& [b, items] : shapes) {
          if (b == c.block) c.items_per_thread = std::max(c.items_per_thread, items);
        }
      } else if (c.block == 0) {
        for (const auto& [b, items] : shapes) {
          if (items == c.items_per_thread) c.block = std::max(c.block, b);
        }
      }
      const bool compiled = std::find(shapes.begin(), shapes.end(), std::pair{c.block, c.items_per_thread}) != shapes.end();
      if (!compiled) {
        std::string list;
        for (const auto& [b, items] : shapes) list += (list.empty() ? "" : ", ") + std::to_string(b) + "x" + std::to_string(items);
        const auto shown = [](int v) { return v == 0 ? std::string("(any)") : std::to_string(v); };
        refuse(stage, "no kernel is compiled for --block " + shown(requested.block) + " --items-per-thread " +
                          shown(requested.items_per_thread) +
                          " (a thread's items live in registers, so each shape is compiled); compiled block x items: " +
                          list);
      }
      check_shared(stage, shared_bytes(stage, c, key_bytes, with_values), "the tile");
      c.grid = ceil_div(work, static_cast<std::int64_t>(c.block) * c.items_per_thread);
      check_grid(stage, c.grid, "one block per tile");
      break;
    }
    default:
      refuse(stage, "has no launch configuration");
  }
  return c;
}

}  // namespace merge
