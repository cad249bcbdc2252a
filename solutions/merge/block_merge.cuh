// Stage 6, block-level pieces: moving a tile between global memory and registers through
// shared memory so that every global access is coalesced ("striped" loads, a merge of
// "blocked" items in registers, stores through shared memory), and the tile kernel.
//
// load_tile_striped, store_tile_blocked and merge_tile (one whole tile by one block) are the
// workbook's shared ones, which the sort chapter's merge sort calls for every tile of every
// merge pass: read them in common/include/wb/device/block_merge.cuh.
#pragma once

#include <cstdint>

#include "co_rank_lower_bound.cuh"
#include "index_math.hpp"
#include "merge.hpp"
#include "thread_merge.cuh"
#include "wb/device/block_merge.cuh"
#include "wb/device/grid_dependency.cuh"
#include "wb/kernel.hpp"

// at_bandwidth_host.inl launches this track's tile kernel early, overlapping the end of the
// partition pass (wb::launch_config's early_start): its every thread waits for that pass to
// complete before it reads the partitions (wait_for_previous_grid).
#define MERGE_TILE_KERNEL_WAITS 1

namespace merge::WB_TRACK {

using wb::device::load_tile_striped;
using wb::device::merge_tile;
using wb::device::same_key;
using wb::device::store_tile_blocked;

// One block merges tile blockIdx.x: C[C_curr, C_curr + BLOCK * ITEMS).
template <class K, int BLOCK, int ITEMS, bool VALUES>
__global__ void __launch_bounds__(BLOCK)
    merge_tile_kernel(const K* __restrict__ A, std::int64_t m, const K* __restrict__ B, std::int64_t n,
                      K* __restrict__ C, const value_t* __restrict__ A_val, const value_t* __restrict__ B_val,
                      value_t* __restrict__ C_val, const std::int64_t* __restrict__ partitions) {
  wb::device::wait_for_previous_grid();
  constexpr int tile_items = BLOCK * ITEMS;
  // The tile's output range and input ranges, from the partition pass (M12: 64-bit).
  const std::int64_t C_curr = static_cast<std::int64_t>(blockIdx.x) * tile_items;
  const std::int64_t C_next = min_of(C_curr + tile_items, m + n);
  const std::int64_t A_curr = partitions[blockIdx.x];
  const std::int64_t A_next = partitions[blockIdx.x + 1];
  const std::int64_t B_curr = C_curr - A_curr;
  const int A_length = static_cast<int>(A_next - A_curr);
  const int B_length = static_cast<int>(C_next - C_curr) - A_length;
  // Load, merge in registers, store (block_merge.cuh).
  merge_tile<BLOCK, ITEMS, VALUES>(A + A_curr, A_length, B + B_curr, B_length, C + C_curr,
                                   VALUES ? A_val + A_curr : nullptr, VALUES ? B_val + B_curr : nullptr,
                                   VALUES ? C_val + C_curr : nullptr, wb::dynamic_shared<K>());
}

}  // namespace merge::WB_TRACK
