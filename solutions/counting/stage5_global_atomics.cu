// Stage 5: the histogram with atomics in global memory (int8).
//
// With 256 possible values the frequency table is a histogram: one counter per value, and
// every item adds one to its counter (PMPP §9.2-9.3, Fig. 9.6). Many threads add to the same
// counters at once, so each increment is an atomicAdd. The counters live in global memory,
// so every atomic is a round trip to the L2 cache; when most items have one value (the
// one-hot input) all of them queue on one address and the stage crawls. Stage 6 fixes both.
#include "counting.hpp"
#include "histogram_table.hpp"
#include "wb/kernel.hpp"

namespace counting::WB_TRACK {

namespace {

// bins[(uint8_t)v] counts value v (histogram_table.cuh says why the raw byte is the index).
__global__ void histogram_global_atomics_kernel(const std::int8_t* in, std::int64_t n, std::uint64_t* bins) {
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    atomicAdd(reinterpret_cast<unsigned long long*>(&bins[static_cast<std::uint8_t>(in[i])]), 1ull);
  }
}

}  // namespace

}  // namespace counting::WB_TRACK

#include "stage5_global_atomics_host.inl"  // the host side of stage 5, shared by both tracks
