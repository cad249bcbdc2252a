// Stage 3: the direct GPU port of the article's algorithm. O(N^2): small N only.
//
// The article's outer loop { 1 } becomes the grid: one thread per item. Each thread walks
// the whole input (through shared-memory tiles, PMPP §5.4, so a block reads each tile from
// global memory once) and counts the items equal to its own. Which thread reports a value?
// The article checks a table that other threads are writing at the same moment
// (cdpCountChunkKernel reads ppdSHCountVec entries of lower threads with no barrier after
// their writes, and the zeroed entries look like value 0): a race (D12). Here the thread of
// the FIRST occurrence reports, and "first" is read off the input, which nobody writes:
//
//     first(i)  =  no j < i with in[j] == in[i]
//
// so the result does not depend on the order threads run in. A second kernel places each
// reported value at its rank among the reported values (how many are smaller), which puts
// the table in ascending order without a sort. Both kernels do N^2 comparisons: at 10^6 items
// that is 10^12, and the point of this stage is to show why the algorithm must change.
#include "counting.hpp"
#include "wb/kernel.hpp"

namespace counting::WB_TRACK {

namespace {

constexpr int max_tile = 1024;

// counts[i] = the number of items equal to in[i] if i is the first occurrence of its value,
// else 0. Every thread of the block takes part in every tile load and barrier, including
// threads past the end of the input (the article's kernels call __syncthreads() inside
// branches that not every thread takes: D6).
template <class T>
__global__ void count_duplicates_kernel(const T* in, std::int64_t n, std::uint64_t* counts) {
  __shared__ T tile[max_tile];
  const std::int64_t i = wb::global_thread_index();
  const bool active = i < n;
  const T mine = active ? in[i] : T{};
  std::uint64_t count = 0;
  bool first = true;
  for (std::int64_t base = 0; base < n; base += blockDim.x) {
    const std::int64_t j = base + threadIdx.x;
    if (j < n) tile[threadIdx.x] = in[j];
    __syncthreads();
    const int len = static_cast<int>(n - base < blockDim.x ? n - base : blockDim.x);
    for (int k = 0; k < len; ++k) {
      if (tile[k] == mine) {
        ++count;
        if (base + k < i) first = false;  // D12: decided from the input alone
      }
    }
    __syncthreads();  // the tile is overwritten next round
  }
  if (active) counts[i] = first ? count : 0;
}

// For every reported value: its rank among the reported values is its place in the table.
template <class T>
__global__ void rank_and_write_kernel(const T* in, std::int64_t n, const std::uint64_t* counts,
                                      device_table<T> out) {
  __shared__ T tile[max_tile];
  __shared__ bool tile_reported[max_tile];
  const std::int64_t i = wb::global_thread_index();
  const bool reported = i < n && counts[i] > 0;
  const T mine = i < n ? in[i] : T{};
  std::int64_t rank = 0;
  for (std::int64_t base = 0; base < n; base += blockDim.x) {
    const std::int64_t j = base + threadIdx.x;
    if (j < n) {
      tile[threadIdx.x] = in[j];
      tile_reported[threadIdx.x] = counts[j] > 0;
    }
    __syncthreads();
    const int len = static_cast<int>(n - base < blockDim.x ? n - base : blockDim.x);
    for (int k = 0; k < len; ++k) rank += (tile_reported[k] && tile[k] < mine) ? 1 : 0;
    __syncthreads();
  }
  if (reported) {
    out.values[rank] = mine;
    out.counts[rank] = counts[i];
    atomicAdd(reinterpret_cast<unsigned long long*>(out.size), 1ull);
  }
}

}  // namespace

}  // namespace counting::WB_TRACK

#include "stage3_direct_port_host.inl"  // the host side of stage 3, shared by both tracks
