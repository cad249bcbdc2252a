// An experiment on stage 6: two blocks in a cluster share B's k-blocks (TMA multicast).
//
// The blocks of a cluster of 2 (one GPC, each on its own SM) take the two tiles of a pair: tile
// rows 2i and 2i + 1 of one tile column, which need the same k-blocks of B. Each block's producer
// loads its own A box and half of B's boxes, multicast into both blocks' shared memory: per
// k-block a block reads 16 KiB of A and 16 KiB of B from L2 instead of 16 + 32 KiB.
//
// What changes in the ring: every stage of both blocks is written by both producers, so a
// producer may refill stage s only when the consumers of BOTH blocks are done with it: each
// consumer warp arrives on the empty barrier of its own block and of the other (16 arrivals a
// phase). A block's full barrier counts its own producer's arrival and every byte, from either
// producer (a byte of the other's multicast may land before this block announced the phase: the
// barrier's byte count goes below zero for a moment, and the phase cannot complete without the
// arrival). Before any of this, both blocks' barriers must exist (a cluster barrier after their
// initialisation), and no block may exit while the other may still write into it or arrive on
// its barriers (a cluster barrier at the end, which every thread reaches).
#pragma once

#include <algorithm>

#include "hopper.cuh"
#include "hopper_shape.hpp"
#include "tensor_map.hpp"
#include "wb/device/shared_address.cuh"

namespace matmul::experiment {

// The instructions the cluster adds (PTX ISA: "Data movement: cp.async.bulk.tensor" with
// .multicast::cluster, mapa, mbarrier arrive on shared::cluster, barrier.cluster).
__device__ __forceinline__ std::uint32_t cluster_rank() {
  std::uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  return rank;
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
// Arrives on the barrier at the same place in block `rank`'s shared memory.
__device__ __forceinline__ void mbarrier_arrive_in(std::uint64_t* bar, std::uint32_t rank) {
  asm volatile(
      "{ .reg .b32 remote; mapa.shared::cluster.u32 remote, %0, %1; mbarrier.arrive.shared::cluster.b64 _, [remote]; }" ::
          "r"(wb::device::shared_address(bar)),
      "r"(rank)
      : "memory");
}
// The TMA copy of a box into the same place of every block in `mask`, each block's `bar` (same
// place) counting its bytes.
__device__ __forceinline__ void tma_load_2d_multicast(void* shared_dst, const CUtensorMap* map, std::uint64_t* bar,
                                                      int column, int row, std::uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(wb::device::shared_address(shared_dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(wb::device::shared_address(bar)), "r"(column), "r"(row),
      "h"(mask)
      : "memory");
}

template <class S>
__global__ void __launch_bounds__(S::THREADS, 1)
    cluster_kernel(const __grid_constant__ CUtensorMap map_A, const __grid_constant__ CUtensorMap map_B, wb::bf16* C,
                   std::int64_t M, std::int64_t N, std::int64_t K, bool pairs) {
  using namespace wb::device;
  using namespace matmul::solution::hopper;
  static_assert(S::SPECIALIZED && S::CONSUMERS == 2 && S::B_BOXES % 2 == 0, "two consumers; B's boxes split in two");
  const ring r = ring_in_shared_memory<S>();
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;
  const int t = static_cast<int>(threadIdx.x) % 128;
  const std::uint32_t rank = cluster_rank();
  if (threadIdx.x == 0) {
    for (int s = 0; s < S::STAGES; ++s) {
      mbarrier_init(&r.full[s], 1);
      mbarrier_init(&r.empty[s], 2 * S::CONSUMERS * 4);  // every consumer warp of both blocks
    }
    fence_barrier_init();
  }
  cluster_sync();  // both blocks' barriers exist before either block's copies or arrivals reach them

  const std::int64_t tiles_m = wb::ceil_div(M, S::BM), tiles_n = wb::ceil_div(N, S::BN);
  const std::int64_t pairs_m = wb::ceil_div(tiles_m, std::int64_t{2});
  const std::int64_t tile_pairs = pairs_m * tiles_n;
  const std::int64_t cluster = blockIdx.x / 2, clusters = gridDim.x / 2;
  const auto k_blocks = static_cast<std::uint32_t>(wb::ceil_div(K, S::BK));

  if (warpgroup == 0) {  // the producer: its A box, half of B's boxes to both blocks
    setmaxnreg_dec<S::PRODUCER_REGISTERS>();
    if (t == 0) {
      std::uint32_t n = 0;
      for (std::int64_t pair = cluster; pair < tile_pairs; pair += clusters) {
        const tile_coord pc = grouped_tile(pair, pairs_m, tiles_n, S::GROUP / 2);
        const tile_coord c{2 * pc.row + rank, pc.col};  // a row past M reads zeros, stores nothing
        for (std::uint32_t kb = 0; kb < k_blocks; ++kb, ++n) {
          const ring_position p = ring_at(n, S::STAGES);
          mbarrier_wait(&r.empty[p.stage], p.parity ^ 1u);  // both blocks are done with the stage
          std::uint64_t* full = &r.full[p.stage];
          mbarrier_arrive_expect_tx(full, S::STAGE_BYTES);
          const int k = static_cast<int>(kb) * S::BK;
          tma_load_2d(r.A + p.stage * S::A_TILE_BYTES, &map_A, full, k, static_cast<int>(c.row * S::BM));
#pragma unroll
          for (int h = 0; h < S::B_BOXES / 2; ++h) {
            const int b = static_cast<int>(rank) * (S::B_BOXES / 2) + h;
            tma_load_2d_multicast(r.B + p.stage * S::B_TILE_BYTES + b * S::B_BOX_BYTES, &map_B, full,
                                  static_cast<int>(c.col * S::BN + b * 64), k, 0b11);
          }
        }
      }
    }
  } else {  // the consumers, as in the stage; a stage is released to both blocks' producers
    setmaxnreg_inc<S::CONSUMER_REGISTERS>();
    const int consumer = warpgroup - 1;
    const bool releases = threadIdx.x % 32 == 0;
    const std::uint32_t A_base = shared_address(r.A), B_base = shared_address(r.B);
    float acc[S::BN / 2];
    std::uint32_t n = 0;
    for (std::int64_t pair = cluster; pair < tile_pairs; pair += clusters) {
      const tile_coord pc = grouped_tile(pair, pairs_m, tiles_n, S::GROUP / 2);
      const tile_coord c{2 * pc.row + rank, pc.col};
#pragma unroll
      for (int i = 0; i < S::BN / 2; ++i) acc[i] = 0.0f;
      for (std::uint32_t kb = 0; kb < k_blocks; ++kb, ++n) {
        const ring_position p = ring_at(n, S::STAGES);
        mbarrier_wait(&r.full[p.stage], p.parity);
        const std::uint32_t A_tile = A_base + p.stage * S::A_TILE_BYTES;
        const std::uint32_t B_tile = B_base + p.stage * S::B_TILE_BYTES;
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < S::BK / 16; ++kk) {
          wgmma_bf16(acc, a_descriptor(A_tile, 64 * consumer, kk), b_descriptor(B_tile, kk));
        }
        wgmma_commit();
        wgmma_wait<1>();
        if (kb > 0 && releases) {
          std::uint64_t* empty = &r.empty[ring_at(n - 1, S::STAGES).stage];
          mbarrier_arrive_in(empty, 0);
          mbarrier_arrive_in(empty, 1);
        }
      }
      wgmma_wait<0>();
      accumulators_settle(acc);
      if (k_blocks > 0 && releases) {
        std::uint64_t* empty = &r.empty[ring_at(n - 1, S::STAGES).stage];
        mbarrier_arrive_in(empty, 0);
        mbarrier_arrive_in(empty, 1);
      }
      store_accumulators(acc, C, M, N, c.row * S::BM + 64 * consumer, c.col * S::BN, t, pairs);
    }
  }
  __syncwarp();  // the producer's lane 0 rejoins its warp: the cluster barrier is per whole warp
  cluster_sync();  // every thread of both blocks: neither leaves while the other may still need it
}

// C = A B with clusters of 2 sharing B (N and K multiples of 8, A and B 16-byte aligned).
template <class S>
void launch_cluster(const bf16_problem& p) {
  const CUtensorMap map_A = make_bf16_tensor_map(p.A, p.M, p.K, p.K * 2, S::BM, 64);
  const CUtensorMap map_B = make_bf16_tensor_map(p.B, p.K, p.N, p.N * 2, 64, 64);
  const bool pairs = p.N % 2 == 0;
  const std::int64_t tile_pairs = wb::ceil_div(wb::ceil_div(p.M, S::BM), std::int64_t{2}) * wb::ceil_div(p.N, S::BN);
  const auto kernel = cluster_kernel<S>;
  WB_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                static_cast<int>(S::SHARED_BYTES)));
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = 2;
  attribute[0].val.clusterDim.y = 1;
  attribute[0].val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(2);
  config.blockDim = dim3(S::THREADS);
  config.dynamicSmemBytes = S::SHARED_BYTES;
  config.attrs = attribute;
  config.numAttrs = 1;
  int clusters = 0;  // how many clusters of 2 fit the GPU at once (GPCs have odd numbers of SMs)
  WB_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
  if (clusters < 1) throw std::runtime_error("no cluster of 2 blocks fits this GPU");
  config.gridDim = dim3(static_cast<unsigned>(2 * std::min<std::int64_t>(tile_pairs, clusters)));
  WB_CHECK(cudaLaunchKernelEx(&config, kernel, map_A, map_B, p.C, p.M, p.N, p.K, pairs));
  WB_CHECK(cudaGetLastError());
}

}  // namespace matmul::experiment
