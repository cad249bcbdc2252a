// Stage 5 (exercise): the histogram with atomics in global memory (int8), PMPP §9.2-9.3.
//
// With 256 possible values the frequency table is a histogram: one counter per value, and
// every item adds one to its counter. Many threads add to the same counters at once, so each
// increment must be atomic (PMPP Fig. 9.6). The host side (zero the bins, launch, turn the
// bins into the table) is chapters/counting/stage5_global_atomics_host.inl.
#include "counting.hpp"
#include "histogram_table.hpp"
#include "wb/kernel.hpp"

namespace counting::WB_TRACK {

namespace {

// bins[(uint8_t)v] counts value v (histogram_table.cuh says why the raw byte is the index).
__global__ void histogram_global_atomics_kernel(const std::int8_t* in, std::int64_t n, std::uint64_t* bins) {
  // TODO(counting/5): every item adds one to its value's counter, atomically; a fixed-size
  // grid covers any n.
}

}  // namespace

}  // namespace counting::WB_TRACK

#include "stage5_global_atomics_host.inl"  // the host side of stage 5, shared by both tracks
