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
//   (hopper_shape.hpp).
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
  std::uint64_t* full = &r.full[stage];
  mbarrier_arrive_expect_tx(full, S::STAGE_BYTES);
  const int k = static_cast<int>(kb) * S::BK;
  tma_load_2d(r.A + stage * S::A_TILE_BYTES, map_A, full, k, static_cast<int>(tile.row * S::BM));
#pragma unroll
  for (int b = 0; b < S::B_BOXES; ++b) {
    tma_load_2d(r.B + stage * S::B_TILE_BYTES + b * S::B_BOX_BYTES, map_B, full,
                static_cast<int>(tile.col * S::BN + b * 64), k);
  }
}

// Thread t of a warpgroup writes its accumulators of a 64 x (2 R) block at (row0, col0) of C as
// bf16, in pairs of neighbouring columns (one 4-byte store) when `pairs`.
template <int R>
__device__ __forceinline__ void store_accumulators(const float (&d)[R], wb::bf16* C, std::int64_t M, std::int64_t N,
                                                   std::int64_t row0, std::int64_t col0, int t, bool pairs) {
#pragma unroll
  for (int i = 0; i < R; i += 2) {
    const std::int64_t row = row0 + accumulator_row(t, i);
    const std::int64_t col = col0 + accumulator_col(t, i);
    if (row >= M) continue;
    wb::bf16* out = C + row * N + col;
    if (pairs && col + 1 < N) {
      *reinterpret_cast<__nv_bfloat162*>(out) = __floats2bfloat162_rn(d[i], d[i + 1]);
    } else {
      if (col < N) out[0] = wb::to_bf16(d[i]);
      if (col + 1 < N) out[1] = wb::to_bf16(d[i + 1]);
    }
  }
}

template <class S>
__global__ void __launch_bounds__(S::THREADS, 1)
    matmul_hopper_specialized_kernel(const __grid_constant__ CUtensorMap map_A,
                                     const __grid_constant__ CUtensorMap map_B, wb::bf16* C, std::int64_t M,
                                     std::int64_t N, std::int64_t K, bool pairs) {
  static_assert(S::SPECIALIZED, "one producer and BM / 64 consumer warpgroups");
  const ring r = ring_in_shared_memory<S>();
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;
  const int t = static_cast<int>(threadIdx.x) % 128;
  if (threadIdx.x == 0) {
    for (int s = 0; s < S::STAGES; ++s) {
      mbarrier_init(&r.full[s], 1);  // the producer's arrive (plus the TMA's bytes)
      mbarrier_init(&r.empty[s], S::CONSUMERS * 4);  // one arrive per consumer warp
    }
    fence_barrier_init();
  }
  __syncthreads();

  const std::int64_t tiles_m = wb::ceil_div(M, S::BM), tiles_n = wb::ceil_div(N, S::BN);
  const std::int64_t tiles = tiles_m * tiles_n;
  const auto k_blocks = static_cast<std::uint32_t>(wb::ceil_div(K, S::BK));

  if (warpgroup == 0) {  // ---- the producer
    if constexpr (S::MOVES_REGISTERS) setmaxnreg_dec<S::PRODUCER_REGISTERS>();
    if (t != 0) return;
    std::uint32_t n = 0;  // k-blocks through the ring so far
    for (std::int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      const tile_coord c = grouped_tile(tile, tiles_m, tiles_n, S::GROUP);
      for (std::uint32_t kb = 0; kb < k_blocks; ++kb, ++n) {
        const ring_position p = ring_at(n, S::STAGES);
        mbarrier_wait(&r.empty[p.stage], p.parity ^ 1u);  // the consumers are done with this stage
        load_stage<S>(r, p.stage, &map_A, &map_B, c, kb);
      }
    }
    return;
  }

  // ---- the consumers: warpgroup 1 + i multiplies rows 64 i .. 64 i + 63 of each tile
  if constexpr (S::MOVES_REGISTERS) setmaxnreg_inc<S::CONSUMER_REGISTERS>();
  const int consumer = warpgroup - 1;
  const bool releases = threadIdx.x % 32 == 0;  // lane 0 of each consumer warp arrives on `empty`
  const std::uint32_t A_base = shared_address(r.A), B_base = shared_address(r.B);
  float acc[S::BN / 2];
  std::uint32_t n = 0;
  for (std::int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const tile_coord c = grouped_tile(tile, tiles_m, tiles_n, S::GROUP);
#pragma unroll
    for (int i = 0; i < S::BN / 2; ++i) acc[i] = 0.0f;
    for (std::uint32_t kb = 0; kb < k_blocks; ++kb, ++n) {
      const ring_position p = ring_at(n, S::STAGES);
      mbarrier_wait(&r.full[p.stage], p.parity);  // the TMA's bytes have landed
      const std::uint32_t A_tile = A_base + p.stage * S::A_TILE_BYTES;
      const std::uint32_t B_tile = B_base + p.stage * S::B_TILE_BYTES;
      wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < S::BK / 16; ++kk) {
        wgmma_bf16(acc, a_descriptor(A_tile, 64 * consumer, kk), b_descriptor(B_tile, kk));
      }
      wgmma_commit();
      // At most this k-block's group is still running: the previous one's stage is read.
      wgmma_wait<1>();
      if (kb > 0 && releases) mbarrier_arrive(&r.empty[ring_at(n - 1, S::STAGES).stage]);
    }
    wgmma_wait<0>();
    accumulators_settle(acc);
    if (k_blocks > 0 && releases) mbarrier_arrive(&r.empty[ring_at(n - 1, S::STAGES).stage]);
    store_accumulators(acc, C, M, N, c.row * S::BM + 64 * consumer, c.col * S::BN, t, pairs);
  }
}

template <class S>
__global__ void __launch_bounds__(S::THREADS)
    matmul_hopper_simple_kernel(const __grid_constant__ CUtensorMap map_A, const __grid_constant__ CUtensorMap map_B,
                                wb::bf16* C, std::int64_t M, std::int64_t N, std::int64_t K, bool pairs) {
  static_assert(!S::SPECIALIZED, "one warpgroup for every 64-row block of the tile");
  const ring r = ring_in_shared_memory<S>();
  const int t = static_cast<int>(threadIdx.x);
  if (t == 0) {
    for (int s = 0; s < S::STAGES; ++s) mbarrier_init(&r.full[s], 1);
    fence_barrier_init();
  }
  __syncthreads();
  const tile_coord tile = tile_of_block(blockIdx.x, wb::ceil_div(N, S::BN));
  const auto k_blocks = static_cast<std::uint32_t>(wb::ceil_div(K, S::BK));
  if (t == 0) {
    for (std::uint32_t kb = 0; kb < k_blocks && kb < static_cast<std::uint32_t>(S::STAGES); ++kb) {
      load_stage<S>(r, static_cast<int>(kb), &map_A, &map_B, tile, kb);
    }
  }
  const std::uint32_t A_base = shared_address(r.A), B_base = shared_address(r.B);
  float acc[S::M_BLOCKS][S::BN / 2];
#pragma unroll
  for (int m = 0; m < S::M_BLOCKS; ++m)
#pragma unroll
    for (int i = 0; i < S::BN / 2; ++i) acc[m][i] = 0.0f;
  for (std::uint32_t kb = 0; kb < k_blocks; ++kb) {
    const ring_position p = ring_at(kb, S::STAGES);
    mbarrier_wait(&r.full[p.stage], p.parity);
    const std::uint32_t A_tile = A_base + p.stage * S::A_TILE_BYTES;
    const std::uint32_t B_tile = B_base + p.stage * S::B_TILE_BYTES;
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < S::BK / 16; ++kk) {
#pragma unroll
      for (int m = 0; m < S::M_BLOCKS; ++m) {
        wgmma_bf16(acc[m], a_descriptor(A_tile, 64 * m, kk), b_descriptor(B_tile, kk));
      }
    }
    wgmma_commit();
    wgmma_wait<0>();
    __syncthreads();  // every warp's wgmmas have read the stage: it may be refilled
    if (t == 0 && kb + S::STAGES < k_blocks) load_stage<S>(r, p.stage, &map_A, &map_B, tile, kb + S::STAGES);
  }
#pragma unroll
  for (int m = 0; m < S::M_BLOCKS; ++m) {
    accumulators_settle(acc[m]);
    store_accumulators(acc[m], C, M, N, tile.row * S::BM + 64 * m, tile.col * S::BN, t, pairs);
  }
}

}  // namespace matmul::WB_TRACK::hopper
#endif  // WB_BACKEND_CUDA
