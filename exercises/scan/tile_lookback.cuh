// The decoupled look-back of stage 6 (Merrill & Garland 2016, "Single-pass Parallel Prefix
// Scan with Decoupled Look-back"). Every tile publishes its aggregate (status partial) as
// soon as it has it, and its inclusive prefix (status inclusive) once it knows it; a tile
// finds its exclusive prefix by adding its predecessors' values back to the nearest
// inclusive one.
#pragma once

#include <cstdint>

#include "scan.hpp"
#include "warp_scan.cuh"
#include "wb/kernel.hpp"

namespace scan::WB_TRACK {

enum tile_state : unsigned { tile_invalid = 0, tile_partial = 1, tile_inclusive = 2 };

template <class T, bool Packed = sizeof(T) == 4>
struct tile_status;

// 32-bit values: the status and the value in one 64-bit word, one access each way.
template <class T>
struct tile_status<T, true> {
  unsigned long long* words;  // one per tile, zero (invalid) before the launch

  // This layout's array for `tiles` tiles, carved from the workspace (all of it starts at zero).
  static tile_status carve(carver& pieces, std::int64_t tiles) { return {pieces.take<unsigned long long>(tiles)}; }

  __device__ __forceinline__ void publish(std::int64_t tile, tile_state state, T value) const {
    // TODO(scan/6): one volatile 64-bit store of (state << 32) | the value's 32 bits.
  }
  __device__ __forceinline__ void read(std::int64_t tile, unsigned& state, T& value) const {
    // TODO(scan/6): one volatile 64-bit load, split into state and value.
    state = tile_inclusive;
    value = T{};
  }
};

// 64-bit values: a status word and two value arrays, ordered by fences.
template <class T>
struct tile_status<T, false> {
  unsigned* states;  // one per tile, zero (invalid) before the launch
  T* aggregates;
  T* inclusives;

  // This layout's arrays for `tiles` tiles, carved from the workspace (all of it starts at zero).
  static tile_status carve(carver& pieces, std::int64_t tiles) {
    tile_status s;
    s.states = pieces.take<unsigned>(tiles);
    s.aggregates = pieces.take<T>(tiles);
    s.inclusives = pieces.take<T>(tiles);
    return s;
  }

  __device__ __forceinline__ void publish(std::int64_t tile, tile_state state, T value) const {
    // TODO(scan/6): the value (aggregates or inclusives, by state), __threadfence(), the state.
  }
  __device__ __forceinline__ void read(std::int64_t tile, unsigned& state, T& value) const {
    // TODO(scan/6): the state, then (if not invalid) __threadfence() and the value.
    state = tile_inclusive;
    value = T{};
  }
};

// Called by every lane of one warp once the tile's aggregate has been published (status
// partial; tile 0 publishes nothing before). Looks back, publishes the inclusive prefix;
// returns the tile's exclusive prefix (read it from lane 0).
template <class T>
__device__ T tile_look_back(const tile_status<T>& status, std::int64_t tile, T aggregate) {
  // TODO(scan/6): tile 0 publishes inclusive at once. Others look at 32 predecessors a round
  // until one is inclusive, adding the values from the nearest inclusive one on (Merrill &
  // Garland §4), and publish inclusive.
  return T{};
}

}  // namespace scan::WB_TRACK
