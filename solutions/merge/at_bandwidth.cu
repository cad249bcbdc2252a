// Stage 6: a merge at memory bandwidth - the step after the book.
//
// What stages 2-5 still pay for, and what this stage does instead:
//   - co-rank searches in global memory on the merge's critical path (every block of stages
//     3-5 waits for its thread 0)  ->  a separate partition pass co-ranks every tile boundary
//     once, all in parallel (partition.cuh), with a search whose steps do not depend on the
//     data (co_rank_lower_bound.cuh), run first on small copies of every 512th element of A
//     and B that stay in L2, then in the full arrays within 512 positions;
//   - one block walking over many tiles, with barriers between loads and merges  ->  one
//     block per tile, its inputs known from the partitions, loaded in one coalesced sweep
//     with ITEMS loads in flight per thread (block_merge.cuh: merge_tile_kernel);
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

// ---- The partition pass, host side: which kernels co-rank the tile boundaries, and the
// workspace they need. Here the sampled pass of partition.cuh (the plain pass when the tile
// size is not a multiple of 32). The tiles' launch and the entry point: at_bandwidth_host.inl.

namespace {

// The temporary storage: one partition per tile boundary, then (sampled pass) the two grids.
struct temp_layout {
  std::size_t partitions_bytes;
  std::size_t samples_offset;  // A_s, then B_s
  std::size_t bytes;
};

template <class K>
temp_layout layout_temp(std::int64_t m, std::int64_t n, const config& cfg) {
  temp_layout l{};
  l.partitions_bytes = static_cast<std::size_t>(cfg.grid + 1) * sizeof(std::int64_t);
  l.samples_offset = (l.partitions_bytes + 255) / 256 * 256;
  l.bytes = l.partitions_bytes;
  const int log2_step = sampled_partition_log2_step(std::int64_t{cfg.block} * cfg.items_per_thread);
  if (log2_step > 0) {
    const auto samples = static_cast<std::size_t>(a_samples(m, log2_step) + b_samples(n, log2_step));
    l.bytes = l.samples_offset + samples * sizeof(K);
  }
  return l;
}

}  // namespace

template <class K>
std::size_t partition_pass_temp_bytes(std::int64_t m, std::int64_t n, const config& cfg) {
  return layout_temp<K>(m, n, cfg).bytes;
}

template <class K>
void partition_pass(const problem<K>& p, const config& cfg, void* temp, std::int64_t* partitions) {
  const temp_layout l = layout_temp<K>(p.m, p.n, cfg);
  const std::int64_t tile_items = std::int64_t{cfg.block} * cfg.items_per_thread;
  const int log2_step = sampled_partition_log2_step(tile_items);
  if (log2_step > 0) {  // every compiled shape: the sampled pass (partition.cuh)
    K* A_s = reinterpret_cast<K*>(static_cast<unsigned char*>(temp) + l.samples_offset);
    K* B_s = A_s + a_samples(p.m, log2_step);
    const std::int64_t most = max_of(a_samples(p.m, log2_step), b_samples(p.n, log2_step));
    // Both kernels start early (Hopper on: scheduled as the blocks of the kernel ahead return)
    // and wait for it first thing, so a short merge is not three launch gaps long.
    if (most > 0) {
      static const std::int64_t fill = std::int64_t{wb::multiprocessor_count()} * 8;  // blocks of 256: 8 per SM
      wb::launch_config sample_launch{static_cast<unsigned>(min_of(ceil_div(most, std::int64_t{256}), fill)), 256};
      sample_launch.early_start = true;
      wb::launch(sample_launch, sample_grid_kernel<K>, p.A, p.m, p.B, p.n, log2_step, A_s, B_s);
    }
    const std::int64_t num_partitions = cfg.grid + 1;
    wb::launch_config partition_launch{static_cast<unsigned>(ceil_div(num_partitions, std::int64_t{256})), 256};
    partition_launch.early_start = true;
    wb::launch(partition_launch, coarse_fine_partition_kernel<K>, p.A, p.m, p.B, p.n, static_cast<const K*>(A_s),
               static_cast<const K*>(B_s), log2_step, tile_items, num_partitions, partitions);
  } else {
    merge_path_partitions(p.A, p.m, p.B, p.n, tile_items, partitions);
  }
}

}  // namespace merge::WB_TRACK

#include "at_bandwidth_host.inl"  // the host side of stage 6, shared by both tracks
