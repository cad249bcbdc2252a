// Stage 6: a merge at memory bandwidth - the step after the book.
//
// What stages 2-5 still pay for, and what this stage does instead:
//   - co-rank searches in global memory on the merge's critical path (every block of stages
//     3-5 waits for its thread 0)  ->  a separate partition pass co-ranks every tile boundary
//     once, all in parallel (partition.cuh), with a search whose steps do not depend on the
//     data (co_rank_lower_bound.cuh);
//   - one block walking over many tiles, with barriers between loads and merges  ->  one
//     block per tile, its inputs known from the partitions, loaded in one coalesced sweep
//     with ITEMS loads in flight per thread (block_merge.cuh);
//   - sequential merges writing straight to global memory, each thread far from its
//     neighbours (uncoalesced)  ->  the merge runs in registers (thread_merge.cuh) and the
//     outputs leave through shared memory, coalesced.
// Every element is read once and written once: the floor is the device's copy bandwidth.
#include "wb/kernel.hpp"

#include "block_merge.cuh"
#include "co_rank_lower_bound.cuh"
#include "merge.hpp"
#include "partition.cuh"
#include "thread_merge.cuh"

namespace merge::WB_TRACK {

// ---- The partition pass, host side: one thread per tile boundary (your kernel in
// partition.cuh); the workspace is the partitions. The solution runs a faster, sampled pass
// here (solutions/merge/partition.cuh). The tiles' launch and the entry point:
// at_bandwidth_host.inl.

template <class K>
std::size_t partition_pass_temp_bytes(std::int64_t m, std::int64_t n, const config& cfg) {
  return static_cast<std::size_t>(cfg.grid + 1) * sizeof(std::int64_t);  // one per tile boundary
}

template <class K>
void partition_pass(const problem<K>& p, const config& cfg, void* temp, std::int64_t* partitions) {
  merge_path_partitions(p.A, p.m, p.B, p.n, std::int64_t{cfg.block} * cfg.items_per_thread, partitions);
}

}  // namespace merge::WB_TRACK

#include "at_bandwidth_host.inl"  // the host side of stage 6, shared by both tracks
