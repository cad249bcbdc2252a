// Stage 5: a single-pass scan where adjacent tiles synchronise ("domino", PMPP §11.7).
//
// One kernel: every block scans one tile (the coarsened block scan), then waits until the
// tile before it has published its running total, adds its own tile's total and publishes
// the result for the tile after it. The input is read once and the output written once, but
// the running total passes from tile to tile one at a time: a chain of global-memory round
// trips as long as the number of tiles.
//
// S4: a block that waits must wait for a block that is already running, or will run. A GPU
// gives no order between blocks: with tile = blockIdx.x, block 7 may be resident and spinning
// while block 6 waits for a free multiprocessor that block 7 never gives up. The tile index is
// therefore taken from an atomic counter when the block starts: the blocks that have drawn
// tiles 0..i-1 are all running already.
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
  T* s = wb::dynamic_shared<T>();
  __shared__ unsigned tile_shared;
  __shared__ T before_shared;
  if (threadIdx.x == 0) tile_shared = atomicAdd(tile_counter, 1u);  // S4: the order blocks start in
  __syncthreads();
  const unsigned tile = tile_shared;
  const std::int64_t section = static_cast<std::int64_t>(blockDim.x) * items;
  const std::int64_t base = static_cast<std::int64_t>(tile) * section;
  load_section(s, in, base, n, items);
  block_scan_coarsened(s, items);
  if (threadIdx.x == 0) {
    T before{};
    if (tile > 0) {
      // volatile: read memory each time round, not a register the compiler keeps.
      while (static_cast<volatile unsigned*>(flags)[tile - 1] == 0) {
      }
      __threadfence();  // the carry is read after the flag that announced it
      before = static_cast<volatile T*>(carries)[tile - 1];
    }
    static_cast<volatile T*>(carries)[tile] = plus(before, s[section - 1]);
    __threadfence();  // the carry is visible before the flag that announces it
    static_cast<volatile unsigned*>(flags)[tile] = 1;
    before_shared = before;
  }
  __syncthreads();
  store_section(s, out, base, n, items, before_shared, exclusive);
}

}  // namespace scan::WB_TRACK

#include "domino_host.inl"  // the host side of stage 5, shared by both tracks
