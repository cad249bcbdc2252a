// Stage 6: Hopper. The tensor memory accelerator (TMA) copies tiles into a ring of shared
// memory stages and signals mbarriers; wgmma multiplies a warpgroup's 64-row block straight
// from shared memory; a producer warpgroup keeps the ring full while consumer warpgroups
// multiply; persistent blocks walk the tiles in an order that keeps them in L2.
//
// specialized (the default): 128 threads per 64 rows of the tile and 128 more. Warpgroup 0 is
//   the producer: it hands most of its registers to the consumers (setmaxnreg, with two of
//   them) and one of its threads loops over the block's tiles and k-blocks: wait until the
//   next stage is empty, announce the bytes on the stage's full barrier, start the TMA copies
//   of A's BM x 64 and B's 64 x BN k-block. The other warpgroups are consumers, one per 64
//   rows of the tile: wait until the stage is full, issue four wgmma m64nBNk16 (one per 16 of
//   the 64 k), keep them in flight while the next stage's are issued, and release a stage once
//   its wgmmas are done. After a tile's last k-block they write their 64 x BN outputs to C
//   while the producer already fills the ring with the next tile. The tile (128 x 256 for
//   large problems, smaller ones where those would leave SMs idle) is the host's choice
//   (hopper_shape.hpp): write the kernel for any S.
// simple: 128 threads, one block per 128 x 128 tile; one warpgroup does both jobs: thread 0
//   starts the copies, every thread waits, the warpgroup multiplies and waits for its wgmmas,
//   a __syncthreads, and thread 0 refills the stage just read. The same pieces, no overlap
//   between the loads' waits and the multiplies beyond the ring's depth.
// The layouts (wgmma_layout.cuh) and the bookkeeping (pipeline.cuh) are checked on the cpu
// backend; the kernels need an sm_90 GPU (the instructions, one small function each: the shared
// Hopper layer, common/include/wb/device/ mbarrier.cuh, tma.cuh, wgmma.cuh, setmaxnreg.cuh).
#pragma once
#include "wb/bf16.hpp"
#include "wb/kernel.hpp"

#include "hopper_shape.hpp"
#include "matmul.hpp"
#include "pipeline.cuh"
#include "tile_grid.hpp"
#include "wgmma_layout.cuh"

#if defined(WB_BACKEND_CUDA)
#include "wb/device/mbarrier.cuh"
#include "wb/device/setmaxnreg.cuh"
#include "wb/device/shared_address.cuh"
#include "wb/device/tma.cuh"
#include "wb/device/wgmma.cuh"

namespace matmul::WB_TRACK::hopper {

using namespace wb::device;  // the Hopper instructions (mbarrier_wait, tma_load_2d, wgmma_bf16, ...)

// The block's ring, from a 1024-byte boundary of shared memory: STAGES A tiles, STAGES B
// tiles, then the full and empty barriers.
struct ring {
  unsigned char* A;
  unsigned char* B;
  std::uint64_t* full;
  std::uint64_t* empty;
};
template <class S>
__device__ __forceinline__ ring ring_in_shared_memory() {
  unsigned char* base = wb::dynamic_shared<unsigned char>();
  base += (S::ALIGN - shared_address(base) % S::ALIGN) % S::ALIGN;
  ring r;
  r.A = base;
  r.B = base + S::STAGES * S::A_TILE_BYTES;
  r.full = reinterpret_cast<std::uint64_t*>(r.B + S::STAGES * S::B_TILE_BYTES);
  r.empty = r.full + S::STAGES;
  return r;
}

// One thread: the TMA copies of k-block kb of tile (row, col) into `stage`, announced on its
// full barrier (A: one 64 x BM box; B: BN / 64 boxes of 64 x 64).
template <class S>
__device__ __forceinline__ void load_stage(const ring& r, int stage, const CUtensorMap* map_A, const CUtensorMap* map_B,
                                           const tile_coord& tile, std::uint32_t kb) {
  // TODO(matmul/6): announce STAGE_BYTES on the stage's full barrier (mbarrier_arrive_expect_tx),
  // then one tma_load_2d for A at (column kb * BK, row tile.row * BM) and one per 64-column box
  // of B at (column tile.col * BN + 64 b, row kb * BK).
}

// Thread t of a warpgroup writes its accumulators of a 64 x (2 R) block at (row0, col0) of C as
// bf16, in pairs of neighbouring columns (one 4-byte store) when `pairs`.
template <int R>
__device__ __forceinline__ void store_accumulators(const float (&d)[R], wb::bf16* C, std::int64_t M, std::int64_t N,
                                                   std::int64_t row0, std::int64_t col0, int t, bool pairs) {
  // TODO(matmul/6): register i holds row accumulator_row(t, i), column accumulator_col(t, i).
}

template <class S>
__global__ void __launch_bounds__(S::THREADS, 1)
    matmul_hopper_specialized_kernel(const __grid_constant__ CUtensorMap map_A,
                                     const __grid_constant__ CUtensorMap map_B, wb::bf16* C, std::int64_t M,
                                     std::int64_t N, std::int64_t K, bool pairs) {
  // TODO(matmul/6): thread 0 initialises every stage's full barrier (count 1) and empty barrier
  // (count: one per consumer warp), fence_barrier_init, __syncthreads. Warpgroup 0, the
  // producer: setmaxnreg_dec (when S::MOVES_REGISTERS), then thread 0 walks the block's tiles
  // (blockIdx.x, + gridDim.x, ... in grouped_tile order) and their k-blocks: wait for the
  // stage's empty barrier (parity ^ 1), load_stage. Warpgroups 1 .. S::CONSUMERS, the
  // consumers: setmaxnreg_inc (when S::MOVES_REGISTERS); per tile zero the S::BN / 2
  // accumulators, per k-block wait for the full barrier, wgmma_fence, four wgmma_bf16
  // (a_descriptor for your 64 rows, b_descriptor), commit, wgmma_wait<1>, and release the
  // previous k-block's stage (lane 0 of each warp arrives on its empty barrier); after the last
  // k-block wgmma_wait<0>, accumulators_settle, release, store_accumulators.
}

template <class S>
__global__ void __launch_bounds__(S::THREADS)
    matmul_hopper_simple_kernel(const __grid_constant__ CUtensorMap map_A, const __grid_constant__ CUtensorMap map_B,
                                wb::bf16* C, std::int64_t M, std::int64_t N, std::int64_t K, bool pairs) {
  // TODO(matmul/6): one warpgroup, one tile: thread 0 initialises the full barriers and starts
  // the first STAGES k-blocks; per k-block every thread waits for its full barrier, the
  // warpgroup issues wgmma_bf16 (m64n128k16) for each 64-row block, commits and waits for them, a
  // __syncthreads, and thread 0 refills the stage with k-block kb + STAGES. Then
  // store_accumulators for each 64-row block.
}

}  // namespace matmul::WB_TRACK::hopper
#endif  // WB_BACKEND_CUDA
