// The data --trace prints and --svg draws (trace.cpp computes it, trace_svg.cpp draws it): the
// online softmax's steps of one row, and stage 3's blocks with the K/V tiles each streams.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "attention.hpp"

namespace attention::trace_data {

// "5" or "3-7": a range of keys or queries.
inline std::string span_text(std::int64_t first, std::int64_t last) {
  if (last < first) return "none";
  return first == last ? fmt::format("{}", first) : fmt::format("{}-{}", first, last);
}

// One step of the online softmax over keys [first, end) of a row: a key (stage 2) or the keys
// of a K/V tile the row sees (stage 3); empty when the row sees none of the tile (m and l stay).
struct softmax_step {
  std::int64_t first = 0, end = 0;
  float step_max = -INFINITY;  // the key's score, or the tile's max
  float m_old = -INFINITY, m = -INFINITY, alpha = 1.0f, l = 0.0f;
};

// Stage 3's work, as its launcher shapes it (tiled_shape): a block per BR queries of a (batch,
// head), the K/V tiles it streams and how each is treated under the mask.
enum class tile_kind { whole, masked, skipped };
inline const char* kind_name(tile_kind k) {
  return k == tile_kind::whole ? "whole" : k == tile_kind::masked ? "masked" : "skipped";
}

struct kv_tile {
  std::int64_t first = 0, last = 0;  // keys first..last (the tile's rows past kv_seq are zeros)
  tile_kind kind = tile_kind::whole;
};

struct query_block {
  std::int64_t index = 0, bh = 0, i0 = 0, i1 = 0;  // block index, (batch, head), queries i0..i1
  std::int64_t block_end = 0;                     // its last query sees keys up to block_end - 1
  std::vector<kv_tile> tiles;
};

struct tiled_trace {
  std::vector<query_block> blocks;
  std::vector<softmax_step> first_row;  // block 0's first query, tile by tile
};

// Draws (a) stage 3's tiling of the first (batch, head) and (b) one row's online softmax, key by
// key (`keys`, stage 2) and tile by tile (`tiled.first_row`, stage 3), into `file` (trace_svg.cpp).
void draw_trace(const dims& d, const std::vector<softmax_step>& keys, const tiled_trace& tiled,
                const std::string& file);

}  // namespace attention::trace_data
