// An experiment on stage 6: the two consumer warpgroups on two tiles instead of one ("ping-pong").
//
// In the stage's kernel both consumers multiply halves of one tile, so both write their outputs
// at the same time and the tensor cores idle meanwhile. Here consumer c takes the block's tiles
// j = c, c + 2, ... whole (BM rows: BM / 64 wgmmas per k16 step), and the two take turns at the
// ring: while one writes tile j to C, the other already multiplies tile j + 1, whose k-blocks the
// producer loads right behind tile j's.
//
// The turns are what makes it right. A consumer names the phase it waits for by its parity
// alone, so it may only wait for a stage's phase once the phase before it has completed: true
// for the k-blocks of its own tile (it waited for the earlier ones itself), and for the first
// ones of its next tile only once the other consumer has waited for all of its tile's k-blocks.
// So a consumer starts a tile (after its first) at a named barrier (bar.sync, 256 threads) that
// the other consumer passes (bar.arrive) when its tile's last k-block has landed. Each stage is
// read by one consumer: its empty barrier counts that consumer's 4 warps.
#pragma once

#include "hopper.cuh"
#include "hopper_shape.hpp"
#include "tensor_map.hpp"

namespace matmul::experiment {

// A tile of BM x BN for each of two consumer warpgroups (BM / 64 accumulator blocks of BN / 2
// floats a thread: at most 128) and a producer warpgroup.
template <int BM_, int BN_, int STAGES_, int GROUP_>
struct pingpong_shape : hopper_shape<BM_, BN_, STAGES_, GROUP_, true> {
  static constexpr int CONSUMERS = 2, THREADS = 384;
  static constexpr bool MOVES_REGISTERS = true;
  static_assert(BM_ / 64 * BN_ / 2 <= 128, "a consumer's accumulators: at most 128 registers a thread");
};

__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
__device__ __forceinline__ void named_barrier_arrive(int id, int threads) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

template <class S>
__global__ void __launch_bounds__(384, 1)
    pingpong_kernel(const __grid_constant__ CUtensorMap map_A, const __grid_constant__ CUtensorMap map_B, wb::bf16* C,
                    std::int64_t M, std::int64_t N, std::int64_t K, bool pairs) {
  using namespace wb::device;
  using namespace matmul::solution::hopper;
  const ring r = ring_in_shared_memory<S>();
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;
  const int t = static_cast<int>(threadIdx.x) % 128;
  if (threadIdx.x == 0) {
    for (int s = 0; s < S::STAGES; ++s) {
      mbarrier_init(&r.full[s], 1);
      mbarrier_init(&r.empty[s], 4);  // the 4 warps of the one consumer that reads the stage
    }
    fence_barrier_init();
  }
  __syncthreads();
  const std::int64_t tiles_m = wb::ceil_div(M, S::BM), tiles_n = wb::ceil_div(N, S::BN);
  const std::int64_t tiles = tiles_m * tiles_n;
  const auto k_blocks = static_cast<std::uint32_t>(wb::ceil_div(K, S::BK));

  if (warpgroup == 0) {  // the producer, as in the stage: every tile of the block, in order
    setmaxnreg_dec<S::PRODUCER_REGISTERS>();
    if (t != 0) return;
    std::uint32_t n = 0;
    for (std::int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      const tile_coord c = grouped_tile(tile, tiles_m, tiles_n, S::GROUP);
      for (std::uint32_t kb = 0; kb < k_blocks; ++kb, ++n) {
        const ring_position p = ring_at(n, S::STAGES);
        mbarrier_wait(&r.empty[p.stage], p.parity ^ 1u);
        load_stage<S>(r, p.stage, &map_A, &map_B, c, kb);
      }
    }
    return;
  }

  setmaxnreg_inc<S::CONSUMER_REGISTERS>();
  const int consumer = warpgroup - 1;
  const bool releases = threadIdx.x % 32 == 0;
  const std::uint32_t A_base = shared_address(r.A), B_base = shared_address(r.B);
  const std::int64_t my_tiles = tiles > blockIdx.x ? (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
  float acc[S::M_BLOCKS][S::BN / 2];
  for (std::int64_t j = consumer; j < my_tiles; j += 2) {
    const tile_coord c = grouped_tile(blockIdx.x + j * gridDim.x, tiles_m, tiles_n, S::GROUP);
#pragma unroll
    for (int m = 0; m < S::M_BLOCKS; ++m)
#pragma unroll
      for (int i = 0; i < S::BN / 2; ++i) acc[m][i] = 0.0f;
    if (j > 0) named_barrier_sync(1 + consumer, 256);  // the other consumer has seen tile j - 1 land
    auto n = static_cast<std::uint32_t>(j) * k_blocks;  // tile j's first k-block in the ring
    for (std::uint32_t kb = 0; kb < k_blocks; ++kb, ++n) {
      const ring_position p = ring_at(n, S::STAGES);
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
      wgmma_wait<1>();
      if (kb > 0 && releases) mbarrier_arrive(&r.empty[ring_at(n - 1, S::STAGES).stage]);
    }
    if (j + 1 < my_tiles) named_barrier_arrive(2 - consumer, 256);  // the other consumer's turn
    wgmma_wait<0>();
#pragma unroll
    for (int m = 0; m < S::M_BLOCKS; ++m) accumulators_settle(acc[m]);
    if (k_blocks > 0 && releases) mbarrier_arrive(&r.empty[ring_at(n - 1, S::STAGES).stage]);
#pragma unroll
    for (int m = 0; m < S::M_BLOCKS; ++m) {
      store_accumulators(acc[m], C, M, N, c.row * S::BM + 64 * m, c.col * S::BN, t, pairs);
    }
  }
}

// C = A B with the ping-pong kernel on tiles S (N and K multiples of 8, A and B 16-byte aligned).
template <class S>
void launch_pingpong(const bf16_problem& p) {
  const CUtensorMap map_A = make_bf16_tensor_map(p.A, p.M, p.K, p.K * 2, S::BM, 64);
  const CUtensorMap map_B = make_bf16_tensor_map(p.B, p.K, p.N, p.N * 2, 64, 64);
  const bool pairs = p.N % 2 == 0;
  const std::int64_t tiles = wb::ceil_div(p.M, S::BM) * wb::ceil_div(p.N, S::BN);
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>(tiles, wb::multiprocessor_count()));
  wb::launch({dim3(blocks), dim3(S::THREADS), S::SHARED_BYTES}, pingpong_kernel<S>, map_A, map_B, p.C, p.M, p.N, p.K,
             pairs);
}

}  // namespace matmul::experiment
