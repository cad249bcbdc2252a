// Stage 6: a single-pass scan at the memory ceiling (Merrill & Garland 2016): a dynamic tile
// index, 16-byte loads and stores, the scan in registers and shuffles, the decoupled
// look-back. Each item is read once and written once, as in a copy.
#include <cstdint>

#include "bulk_copy.cuh"
#include "scan.hpp"
#include "tile_lookback.cuh"
#include "warp_scan.cuh"
#include "wb/kernel.hpp"

namespace scan::WB_TRACK {

// Tiles of blockDim.x * V * (16 / sizeof(T)) items; `tiles` of them, the last one possibly
// partial. tile_counter and the tile states are zero before the launch. `aligned`: in and out
// are 16-byte aligned (full tiles then move by bulk copies and 16-byte stores; otherwise every
// tile goes item by item). `stages` (2 to 8) shared-memory buffers of one tile each are the
// launch's dynamic shared memory (wb::dynamic_shared). The grid is persistent: as many blocks
// as fit on the GPU at once, each taking tile after tile.
template <class T, int V>
__global__ void __launch_bounds__(1024) single_pass_kernel(const T* in, T* out, std::int64_t n, std::int64_t tiles,
                                                           bool exclusive, bool aligned, int stages,
                                                           unsigned* tile_counter, tile_status<T> status) {
  // TODO(scan/6): thread 32 (thread 0 in a one-warp block) claims `stages` tiles from
  // tile_counter, one per stage, and starts their bulk copies (bulk_copy.cuh); the block
  // publishes the first tile's aggregate. Then, tile after tile: sum the NEXT tile (wait for
  // its copy), scan this one in registers (warp_scan.cuh), __syncthreads(); the claimer refills
  // this tile's stage; warp 0 publishes the next tile's aggregate (partial), then looks back
  // for this one (tile_look_back); __syncthreads(); add the prefixes and store. A tile that
  // does not move in bulk (the last, partial one, or a misaligned input) is read item by item.
}

}  // namespace scan::WB_TRACK

#include "single_pass_host.inl"  // the host side of stage 6, shared by both tracks
