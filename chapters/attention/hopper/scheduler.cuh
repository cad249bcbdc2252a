// Stage 5, which work item a block takes next (FlashAttention-3, Shah et al. 2024, §3.1; its
// persistent kernels). A work item is 64 x CONSUMERS queries of one (batch, head),
// numbered as work_of_block orders them (shape.cuh: a head's items together, and with the
// causal mask its longest first).
//
// One block per item (PERSISTENT false): the block takes item blockIdx.x and ends; the
// hardware starts the next block as one finishes, longest first. Persistent: one block per SM;
// each takes item blockIdx.x first, then the next one nobody has taken (an atomicAdd on a
// counter in global memory), so a block that drew short items takes more of them. The block's
// producer draws the items and passes them to its consumers through two slots in shared
// memory, each with a `full` and an `empty` mbarrier: it can announce the next item (and start
// loading its tiles) while the consumers still finish the last one, which hides their first
// tiles' loads behind the last one's softmax and stores. The last block to finish resets the
// counters, so the next launch (in stream order) finds them at zero.
#pragma once

#include <cstdint>

#include "wb/device/mbarrier.cuh"

namespace attention::WB_TRACK::hopper {

// [0]: items drawn beyond the first gridDim.x; [1]: blocks whose producer is done.
__device__ unsigned int scheduler_counters[2];

struct item_channel {
  unsigned long long* slot;  // [2]
  std::uint64_t* full;   // [2]: one arrival, the producer's
  std::uint64_t* empty;  // [2]: one arrival per consumer warp
};

// The producer: the k-th item of the block (k = 0, 1, ...) goes into slot k % 2; items
// (past the last one) tells the consumers to stop.
__device__ __forceinline__ void publish_item(const item_channel& ch, std::uint32_t k, std::int64_t item) {
  const std::uint32_t s = k % 2, parity = (k / 2) & 1u;
  wb::device::mbarrier_wait(&ch.empty[s], parity ^ 1u);
  // An atomic store and atomic loads: the mbarrier orders them already; atomics also tell
  // compute-sanitizer's racecheck, which does not follow ordinary stores through an mbarrier.
  atomicExch(&ch.slot[s], static_cast<unsigned long long>(item));
  wb::device::mbarrier_arrive(&ch.full[s]);  // releases the store to the consumers' wait
}

// The producer's next item: the next untaken one (persistent), or none.
template <bool PERSISTENT>
__device__ __forceinline__ std::int64_t draw_item(std::int64_t items) {
  if constexpr (PERSISTENT) return static_cast<std::int64_t>(gridDim.x) + atomicAdd(&scheduler_counters[0], 1u);
  return items;
}

// The producer, after its last item: the last block resets the counters for the next launch.
template <bool PERSISTENT>
__device__ __forceinline__ void scheduler_done() {
  if constexpr (PERSISTENT) {
    __threadfence();  // this block's draws come before its "done"
    if (atomicAdd(&scheduler_counters[1], 1u) == gridDim.x - 1) {
      atomicExch(&scheduler_counters[0], 0u);
      atomicExch(&scheduler_counters[1], 0u);
    }
  }
}

// A consumer thread: the k-th item; lane 0 of each warp frees the slot once the warp has read it.
__device__ __forceinline__ std::int64_t receive_item(const item_channel& ch, std::uint32_t k, int lane) {
  const std::uint32_t s = k % 2, parity = (k / 2) & 1u;
  wb::device::mbarrier_wait(&ch.full[s], parity);
  const auto item = static_cast<std::int64_t>(atomicAdd(&ch.slot[s], 0ull));
  __syncwarp();
  if (lane == 0) wb::device::mbarrier_arrive(&ch.empty[s]);
  return item;
}

}  // namespace attention::WB_TRACK::hopper
