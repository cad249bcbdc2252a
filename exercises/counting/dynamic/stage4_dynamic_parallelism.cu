// Stage 4 (exercise): the article's dynamic parallelism, done right for CUDA 12+ (GPU only).
//
// The DCA article ("Using the code") builds the counting from kernels that launch
// kernels: cdpCountChunkKernel takes a chunk, and for each item launches cdpCountIfKernel
// to count that item's value over the chunk; cdpMergeReduction / cdpMergeAllReduction merge
// the chunk tables; the host loop cdpDistCountLaunch feeds the chunks. Its defects:
//   D5   cudaDeviceSynchronize() in device code: removed in CUDA 12 (compute_90 and later),
//        so none of it compiles today;
//   D6   __syncthreads() inside branches not every thread takes, and the shared counter of
//        cdpCountIfKernel zeroed by thread 0 while other threads may already add to it;
//   D7   cdpCountIfKernel compares only the items threadIdx.x < nSize of ONE block;
//   D8   a value is kept only if 0 < count < nSize: one that fills its chunk is dropped;
//   D9   cdpMergeAllReduction compares an entry's .value with the other entry's .freq;
//   D12  the "counted already?" check reads other threads' shared entries with no barrier
//        after their writes (and zeroed entries look like value 0);
//   D13  the chunk kernels skip a chunk that ends past the input (`if (nEnd <= nSize)`), and
//        the recursive one stops after CUDA_MAX_DEPTH chunks.
//
// The same idea, rebuilt:
//   parent grid (launched by the host): one block per chunk (D13: every chunk, the last one
//     shorter); each thread takes items of the chunk, decides from the input whether its item
//     is the first occurrence of its value in the chunk (D12), and if so launches a child
//     count-if grid for that value into the fire-and-forget stream (no stream creation, no
//     waiting);
//   child grid count_if_kernel: counts the value over the whole chunk with a grid-stride
//     loop (D7), a shared counter zeroed BEFORE a barrier that every thread reaches (D6);
//   merge (a TAIL LAUNCH from the parent): runs when the parent grid and every child it
//     launched are done, which is what the article wanted from cudaDeviceSynchronize (D5);
//     it adds up the chunk tables entry by entry, comparing values with values (D9) and
//     keeping every entry with a count (D8); it tail-launches the ranking, which writes the
//     table in ascending order.
// It works, and it is slow: one child launch per (chunk, distinct value) pair, each doing a
// few thousand comparisons, and merges that are quadratic again. The benchmark shows by how
// much; stages 5-7 show what to do instead.
//
// This file is compiled with relocatable device code (-rdc, linked with cudadevrt) because
// kernels launch kernels; chapters/counting/CMakeLists.txt keeps that to this file's own
// library. On the cpu backend the emulator runs no device-side launches: the stage throws
// stage_refused, while its building blocks (count_if_value, merge_chunk_tables) run as
// ordinary host-launched kernels on both backends, and the checks of D6-D9 use them.
#include "chunks.hpp"
#include "counting.hpp"
#include "wb/kernel.hpp"

namespace counting::WB_TRACK {

namespace {

constexpr int child_block = 128;
constexpr int child_max_blocks = 16;
constexpr int merge_block = 256;
constexpr std::int64_t pending_launches = (std::int64_t{1} << 17) + 16;

// The child: *count += #{ i < n : in[i] == value }.
template <class T>
__global__ void count_if_kernel(const T* in, std::int64_t n, T value, std::uint64_t* count) {
  // TODO(counting/4, D6, D7): add the number of items equal to `value` among all n to *count:
  // a per-block count in shared memory first, one atomic per block into *count.
}

// Ranks the merged entries: merged[i] > 0 marks the first chunk entry of a value, holding the
// value's total. Its rank among those entries is its place in the table.
template <class T>
__global__ void rank_kernel(const T* slot_value, const std::uint64_t* merged, std::int64_t n,
                            device_table<T> out, const int* launch_error) {
  // TODO(counting/4): a failed child launch (launch_error, when not null, holds its error)
  // makes the size -error; otherwise each marked entry goes to its rank, as in stage 3.
}

// The merge of the chunk tables (cdpMergeReduction / cdpMergeAllReduction): slot i is an
// entry of chunk i / chunk when slot_count[i] > 0. For the first chunk holding a value, add
// up that value's counts over all chunks into merged[i]; every other slot gets 0.
template <class T, bool tail_launch_rank>
__global__ void merge_kernel(const T* slot_value, const std::uint64_t* slot_count, std::int64_t n,
                             std::int64_t chunk, std::uint64_t* merged, device_table<T> out,
                             const int* launch_error) {
  // TODO(counting/4, D8, D9): merge the chunk tables by value. With tail_launch_rank (cuda
  // backend), the rank comes next as this grid's tail launch.
}

#if defined(WB_BACKEND_CUDA)
// The parent: block c handles chunk c.
template <class T>
__global__ void parent_kernel(const T* in, std::int64_t n, std::int64_t chunk, T* slot_value,
                              std::uint64_t* slot_count, std::uint64_t* merged, device_table<T> out,
                              int* launch_error, unsigned merge_blocks) {
  // TODO(counting/4, D5, D12, D13): block c counts chunk c: every first occurrence of a value
  // in the chunk launches a child grid (count_if_kernel) that counts it, without waiting;
  // what needs the children's counts (merge_kernel, then rank_kernel) is launched to run
  // after this grid and all its children are done (cudaStreamTailLaunch).
}
#endif

}  // namespace

}  // namespace counting::WB_TRACK

#include "stage4_dynamic_parallelism_host.inl"  // the host side of stage 4, shared by both tracks
