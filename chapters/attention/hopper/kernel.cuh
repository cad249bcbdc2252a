// Stage 5, the kernel: FlashAttention-3's warp specialisation (Shah et al. 2024, §3.1). A block
// works on items of 64 x CONSUMERS queries of one (batch, head) (one, or several drawn one after
// the other: scheduler.cuh); warpgroup 0 produces (one thread draws the items and issues the TMA
// copies of K and V), warpgroups 1.. consume (consumer.cuh). With two consumers the
// producer hands registers to them (setmaxnreg): the consumers hold S (BN / 2 floats), P (BN / 4
// registers) and O (d / 2 floats) at once, the producer almost nothing.
#pragma once

#include <cstdint>

#include <cuda.h>

#include "attention.hpp"
#include "consumer.cuh"
#include "producer.cuh"
#include "scheduler.cuh"
#include "shape.cuh"
#include "wb/device/mbarrier.cuh"
#include "wb/device/setmaxnreg.cuh"
#include "wb/device/shared_address.cuh"
#include "wb/kernel.hpp"

namespace attention::WB_TRACK::hopper {

template <class S>
__global__ void __launch_bounds__(S::THREADS, 1)
    attention_hopper_kernel(const __grid_constant__ CUtensorMap map_K, const __grid_constant__ CUtensorMap map_V,
                            const float* Q, float* O, dims d, float scale_log2, std::int64_t query_tiles,
                            bool vector_q, bool pairs_o) {
  // Shared memory from a 1024-byte boundary: Q tiles, the K ring, the V ring, the barriers, the
  // item slots.
  unsigned char* base = wb::dynamic_shared<unsigned char>();
  base += (S::ALIGN - wb::device::shared_address(base) % S::ALIGN) % S::ALIGN;
  std::uint64_t* bars = reinterpret_cast<std::uint64_t*>(base + S::BARRIER_OFFSET);
  const tile_ring K{base + S::K_OFFSET, bars, bars + S::STAGES};
  const tile_ring V{base + S::V_OFFSET, bars + 2 * S::STAGES, bars + 3 * S::STAGES};
  const item_channel items_in{reinterpret_cast<unsigned long long*>(base + S::ITEM_OFFSET), bars + 4 * S::STAGES,
                              bars + 4 * S::STAGES + 2};
  if (threadIdx.x == 0) {
    for (int s = 0; s < S::STAGES; ++s) {
      wb::device::mbarrier_init(&K.full[s], 1);  // the producer's arrive, plus the TMA's bytes
      wb::device::mbarrier_init(&V.full[s], 1);
      wb::device::mbarrier_init(&K.empty[s], 4 * S::CONSUMERS);  // one arrive per consumer warp
      wb::device::mbarrier_init(&V.empty[s], 4 * S::CONSUMERS);
    }
    for (int s = 0; s < 2; ++s) {
      wb::device::mbarrier_init(&items_in.full[s], 1);
      wb::device::mbarrier_init(&items_in.empty[s], 4 * S::CONSUMERS);
    }
    wb::device::fence_barrier_init();
  }
  __syncthreads();

  const std::int64_t items = query_tiles * d.batch * d.heads;
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;
  const int t = static_cast<int>(threadIdx.x) % 128;
  std::uint32_t n = 0;  // tiles through the rings so far
  if (warpgroup == 0) {  // ---- the producer: one thread draws the items and loads their tiles
    if constexpr (S::MOVES_REGISTERS) wb::device::setmaxnreg_dec<S::PRODUCER_REGISTERS>();
    if (t == 0) {
      std::int64_t item = blockIdx.x;
      for (std::uint32_t k = 0;; ++k) {
        publish_item(items_in, k, item);
        if (item >= items) break;
        const block_work w = work_of_block(item, query_tiles, d.seq, d.kv_seq, d.causal, S::BLOCK_QUERIES, S::BN);
        produce<S>(K, V, &map_K, &map_V, w, n);
        n += static_cast<std::uint32_t>(w.tiles);
        item = draw_item<S::PERSISTENT>(items);
      }
      scheduler_done<S::PERSISTENT>();
    }
    return;
  }
  // ---- consumer c: queries q0 + 64 c .. q0 + 64 c + 63 of each item
  if constexpr (S::MOVES_REGISTERS) wb::device::setmaxnreg_inc<S::CONSUMER_REGISTERS>();
  const int consumer = warpgroup - 1;
  unsigned char* q = base + consumer * S::Q_BYTES;
  for (std::uint32_t k = 0;; ++k) {
    const std::int64_t item = receive_item(items_in, k, t % 32);
    if (item >= items) break;
    const block_work w = work_of_block(item, query_tiles, d.seq, d.kv_seq, d.causal, S::BLOCK_QUERIES, S::BN);
    const std::int64_t row0 = w.q0 + S::BM * consumer;
    if (k > 0) named_sync(1 + consumer, 128);  // every warp's wgmmas are done with the last Q
    load_q<S>(q, Q, w.bh, row0, d.seq, t, consumer, vector_q);
    float o[S::D / 2];
    row_state st;
    consume<S>(o, st, wb::device::shared_address(q), K, V, w, n, row0, d, scale_log2, t, consumer);
    n += static_cast<std::uint32_t>(w.tiles);
    finish_sums(st);
    store_o<S>(o, st, O, w.bh, row0, d.seq, t, pairs_o);
  }
}

}  // namespace attention::WB_TRACK::hopper
