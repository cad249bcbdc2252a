// Stage 4: the article's dynamic parallelism, done right for CUDA 12+ (GPU only).
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
  __shared__ unsigned long long block_count;
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();  // D6: zeroed before anyone adds; every thread reaches this barrier
  unsigned long long mine = 0;
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {  // D7: all n items
    if (in[i] == value) ++mine;
  }
  if (mine != 0) atomicAdd(&block_count, mine);
  __syncthreads();  // D6: outside any branch
  if (threadIdx.x == 0 && block_count != 0) atomicAdd(reinterpret_cast<unsigned long long*>(count), block_count);
}

// Ranks the merged entries: merged[i] > 0 marks the first chunk entry of a value, holding the
// value's total. Its rank among those entries is its place in the table.
template <class T>
__global__ void rank_kernel(const T* slot_value, const std::uint64_t* merged, std::int64_t n,
                            device_table<T> out, const int* launch_error) {
  if (launch_error != nullptr && *launch_error != 0) {  // a child launch failed: say so
    if (wb::global_thread_index() == 0) *out.size = -static_cast<std::int64_t>(*launch_error);
    return;
  }
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    if (merged[i] == 0) continue;
    const T v = slot_value[i];
    std::int64_t rank = 0;
    for (std::int64_t j = 0; j < n; ++j) rank += (merged[j] != 0 && slot_value[j] < v) ? 1 : 0;
    out.values[rank] = v;
    out.counts[rank] = merged[i];
    atomicAdd(reinterpret_cast<unsigned long long*>(out.size), 1ull);
  }
}

// The merge of the chunk tables (cdpMergeReduction / cdpMergeAllReduction): slot i is an
// entry of chunk i / chunk when slot_count[i] > 0. For the first chunk holding a value, add
// up that value's counts over all chunks into merged[i]; every other slot gets 0.
template <class T, bool tail_launch_rank>
__global__ void merge_kernel(const T* slot_value, const std::uint64_t* slot_count, std::int64_t n,
                             std::int64_t chunk, std::uint64_t* merged, device_table<T> out,
                             const int* launch_error) {
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    std::uint64_t total = 0;
    if (slot_count[i] > 0) {  // D8: an entry is kept when it has a count, also when it fills its chunk
      const T v = slot_value[i];
      const std::int64_t chunk_begin = i / chunk * chunk;
      bool first = true;
      for (std::int64_t j = 0; j < chunk_begin && first; ++j) {
        if (slot_count[j] > 0 && slot_value[j] == v) first = false;  // D9: value against value
      }
      if (first) {
        total = slot_count[i];
        for (std::int64_t j = chunk_begin + chunk; j < n; ++j) {
          if (slot_count[j] > 0 && slot_value[j] == v) total += slot_count[j];  // D9
        }
      }
    }
    merged[i] = total;
  }
  (void)out, (void)launch_error;  // used by the tail launch only
#if defined(WB_BACKEND_CUDA)
  if constexpr (tail_launch_rank) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      // Runs after every block of this grid is done (merged[] complete).
      rank_kernel<T><<<gridDim.x, blockDim.x, 0, cudaStreamTailLaunch>>>(slot_value, merged, n, out, launch_error);
      // Nothing runs after a failed tail launch to report it: say so here (a negative size),
      // never leave the zeroed size of an empty table.
      const cudaError_t e = cudaGetLastError();
      if (e != cudaSuccess) *out.size = -static_cast<std::int64_t>(e);
    }
  }
#endif
}

#if defined(WB_BACKEND_CUDA)
// The parent: block c handles chunk c.
template <class T>
__global__ void parent_kernel(const T* in, std::int64_t n, std::int64_t chunk, T* slot_value,
                              std::uint64_t* slot_count, std::uint64_t* merged, device_table<T> out,
                              int* launch_error, unsigned merge_blocks) {
  const chunk_range r = chunk_bounds(blockIdx.x, chunk, n);  // D13: the last chunk too
  const std::int64_t length = r.end - r.begin;
  for (std::int64_t i = r.begin + threadIdx.x; i < r.end; i += blockDim.x) {
    const T v = in[i];
    bool first = true;  // D12: from the input, which nobody writes
    for (std::int64_t j = r.begin; j < i && first; ++j) first = in[j] != v;
    slot_count[i] = 0;  // visible to the child: written before the launch
    if (first) {
      slot_value[i] = v;
      const std::int64_t blocks = wb::ceil_div(length, child_block);
      // D5: launch and go on. Nobody waits here; the tail launch below runs when this grid
      // and all of its children have finished. (Device-side launches use <<<...>>>: wb::launch
      // is a host function. Each one's error is read with cudaGetLastError right after.)
      count_if_kernel<T><<<static_cast<unsigned>(blocks < child_max_blocks ? blocks : child_max_blocks), child_block,
                           0, cudaStreamFireAndForget>>>(in + r.begin, length, v, &slot_count[i]);
      const cudaError_t e = cudaGetLastError();
      if (e != cudaSuccess) atomicCAS(launch_error, 0, static_cast<int>(e));
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    merge_kernel<T, true><<<merge_blocks, merge_block, 0, cudaStreamTailLaunch>>>(slot_value, slot_count, n, chunk,
                                                                                 merged, out, launch_error);
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) *out.size = -static_cast<std::int64_t>(e);  // no merge, no rank: report it here
  }
}
#endif

}  // namespace

}  // namespace counting::WB_TRACK

#include "stage4_dynamic_parallelism_host.inl"  // the host side of stage 4, shared by both tracks
