// Stage 6: a single-pass scan at the memory ceiling (Merrill & Garland 2016): a dynamic tile
// index, 16-byte loads and stores, the scan in registers and shuffles, the decoupled
// look-back. Each item is read once and written once, as in a copy.
#include <cstdint>

#include "block_scan.cuh"
#include "scan.hpp"
#include "tile_lookback.cuh"
#include "warp_scan.cuh"
#include "wb/kernel.hpp"

namespace scan::WB_TRACK {

// 16 bytes as a vector or as items.
template <class T>
union vector16 {
  uint4 raw;
  T item[16 / sizeof(T)];
};

// One tile of blockDim.x * V * (16 / sizeof(T)) items per block. tile_counter and the tile
// states are zero before the launch. `aligned`: in and out are 16-byte aligned.
template <class T, int V>
__global__ void __launch_bounds__(1024) single_pass_kernel(const T* in, T* out, std::int64_t n, bool exclusive,
                                                           bool aligned, unsigned* tile_counter,
                                                           tile_status<T> status) {
  // TODO(scan/6): draw the tile from tile_counter; load V 16-byte vectors a thread
  // (item by item for a partial tile or a misaligned input); scan them in the warp
  // (warp_scan.cuh) and the block (block_scan.cuh); warp 0 finds the tile's prefix with
  // tile_exclusive_prefix; add the prefixes and store.
}

}  // namespace scan::WB_TRACK

#include "single_pass_host.inl"  // the host side of stage 6, shared by both tracks
