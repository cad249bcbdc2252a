// Stage 5: a single-pass scan where adjacent tiles synchronise ("domino", PMPP §11.7).
//
// One kernel: every block scans one tile, waits until the tile before it has published its
// running total, adds its own tile's total and publishes the result for the tile after it.
#include <cstdint>

#include "coarsened_block_scan.cuh"
#include "scan.hpp"
#include "wb/kernel.hpp"

namespace scan::WB_TRACK {

// One block per tile, blockDim.x * items * sizeof(T) bytes of dynamic shared memory.
// tile_counter and flags are zero before the launch.
template <class T>
__global__ void domino_kernel(const T* in, T* out, std::int64_t n, int items, bool exclusive, unsigned* tile_counter,
                              unsigned* flags, T* carries) {
  // TODO(scan/5): the adjacent-block synchronisation of PMPP §11.7: take the tile from
  // tile_counter (not blockIdx.x: S4), scan it, wait for flags[tile - 1], publish
  // carries[tile] and flags[tile] (with a fence between), add the carry to the outputs.
}

}  // namespace scan::WB_TRACK

#include "domino_host.inl"  // the host side of stage 5, shared by both tracks
