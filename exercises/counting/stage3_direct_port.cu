// Stage 3 (exercise): the direct GPU port of the article's algorithm. O(N^2): small N only.
//
// The article's outer loop { 1 } becomes the grid: one thread per item, each walking the
// whole input through shared-memory tiles (PMPP §5.4) and counting the items equal to its
// own. Which thread reports a value must not depend on the order threads run in (D12), and
// every thread takes part in every barrier (D6). Two kernels: count the duplicates, then
// write each reported value at its place in the ascending table. The host side is
// chapters/counting/stage3_direct_port_host.inl.
#include "counting.hpp"
#include "wb/kernel.hpp"

namespace counting::WB_TRACK {

namespace {

// counts[i] = the number of items equal to in[i] if i is the first occurrence of its value,
// else 0.
template <class T>
__global__ void count_duplicates_kernel(const T* in, std::int64_t n, std::uint64_t* counts) {
  // TODO(counting/3): thread i counts the items equal to in[i], a shared-memory tile of the
  // input at a time (PMPP §5.4; a tile of blockDim.x items, at most 1024), and decides from the input alone whether i is its value's
  // first occurrence (D12).
}

// For every reported value (counts[i] > 0): its place in the table is its rank among the
// reported values; the table's size grows by one for each.
template <class T>
__global__ void rank_and_write_kernel(const T* in, std::int64_t n, const std::uint64_t* counts,
                                      device_table<T> out) {
  // TODO(counting/3): write each reported value and its count at its rank.
}

}  // namespace

}  // namespace counting::WB_TRACK

#include "stage3_direct_port_host.inl"  // the host side of stage 3, shared by both tracks
