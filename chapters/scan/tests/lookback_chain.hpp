// The look-back across blocks (lookback_chain.cu): block b holds tile b's value and finds the
// sum of the tiles before it with this track's tile_look_back; returns each tile's
// inclusive prefix. One block of 32 threads per tile.
#pragma once

#include <cstdint>
#include <vector>

#include "scan.hpp"

namespace scan::testing {

// Bytes of one per-tile array of the tile status, whatever its layout (at most 16 a tile).
template <class T>
constexpr std::size_t piece_bytes_for(std::int64_t tiles) {
  return wb::piece_bytes(static_cast<std::size_t>(tiles) * 16);
}

template <class T>
std::vector<T> lookback_chain(const std::vector<T>& values);

}  // namespace scan::testing
