// From a 256-bin histogram of int8 items to the frequency table, the device side: a block
// writes the table (stage 6's last block calls this directly). See histogram_table.hpp for
// the bin order.
#pragma once

#include <cstdint>

#include "histogram_table.hpp"
#include "wb/kernel.hpp"

namespace counting::detail {

// Called by every thread of ONE block (any multiple of 32 threads up to 1024): writes the
// table of `bins` to `out`. A block-wide exclusive scan of "bin is not empty" gives each
// present value its position. `bins` is read through volatile loads: in stage 6 the block
// that calls this is the last of its grid, and the bins were filled by other blocks' atomics.
__device__ inline void block_write_histogram_table(const std::uint64_t* bins, device_table<std::int8_t> out) {
  __shared__ int warp_totals[32];
  __shared__ int written;  // present values in the rounds before this one
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  const int warps = static_cast<int>(blockDim.x + 31) >> 5;
  if (threadIdx.x == 0) written = 0;
  __syncthreads();
  for (int base = 0; base < histogram_bins; base += static_cast<int>(blockDim.x)) {
    const int rank = base + static_cast<int>(threadIdx.x);  // the value rank - 128
    std::uint64_t count = 0;
    if (rank < histogram_bins) count = *static_cast<const volatile std::uint64_t*>(bins + (rank ^ 0x80));
    const unsigned present = __ballot_sync(0xffffffffu, count > 0);
    if (lane == 0) warp_totals[warp] = __popc(present);
    __syncthreads();
    int position = written + __popc(present & ((1u << lane) - 1u));
    int round_total = 0;
    for (int w = 0; w < warps; ++w) {
      if (w < warp) position += warp_totals[w];
      round_total += warp_totals[w];
    }
    if (count > 0) {
      out.values[position] = static_cast<std::int8_t>(rank - 128);
      out.counts[position] = count;
    }
    __syncthreads();  // everyone has read `written` and warp_totals before they change
    if (threadIdx.x == 0) written += round_total;
    __syncthreads();
  }
  if (threadIdx.x == 0) *out.size = written;
}

}  // namespace counting::detail
