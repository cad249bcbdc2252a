// The reduction chapter's stages: one table used by the tests (suite names, progress
// report), the executable (--stage, report rows) and the README.
#pragma once

#include <array>
#include <cstdint>

#include "wb/stage.hpp"
#include "reduction.hpp"

namespace reduction {

inline constexpr std::array<wb::stage, 6> stages = {{
    {0, "reduction/0 sequential", "sequential sum: the specification",
     "CUDA Handbook §12.2 (the sum every kernel must match)",
     "sequential.cpp",
     {"Add the items one after the other on the host. Integers: accumulate in 64 bits (R5). "
       "float: accumulate in double. double: keep a compensation term (Neumaier's variant of "
       "Kahan summation) so small items are not lost next to large ones.",
      "", ""}},
    {1, "reduction/1 two-pass", "two-pass reduction, log-step tree in shared memory",
     "CUDA Handbook §12.2, listing 12-1",
     "two_pass.cu",
     {"Each thread sums a grid-stride slice of the input into a 64-bit-safe accumulator, stores "
       "it in shared memory, then the block halves the active threads each step (active >>= 1, "
       "not >= 1: R1) with a __syncthreads() after every step. Thread 0 writes the block's "
       "partial; the host launches the same kernel again on the partials with one block.",
      "", ""}},
    {2, "reduction/2 warp-synchronous", "warp-synchronous tail (fixed)",
     "CUDA Handbook §12.2, listing 12-2",
     "warp_synchronous.cu warp_reduce_sync.cuh",
     {"Stop the __syncthreads() tree at 64 partials, then let warp 0 finish. Since Volta the "
       "lanes of a warp are not in lock-step (R3): put a __syncwarp() after every step, and let "
       "only lanes below the step's offset read, so a 32-thread block never reads past its 32 "
       "partials (R4).",
      "", ""}},
    {3, "reduction/3 unrolled", "fully unrolled tree, block size as a template parameter",
     "CUDA Handbook §12.2, listings 12-3 and 12-4",
     "unrolled.cu block_reduce_unrolled.cuh",
     {"Make the block size a template parameter kThreads and write every tree step as `if "
       "constexpr (kThreads >= 2*s)`, so the compiler removes the loop and the steps the block "
       "does not need. The host switch instantiates 32..1024 and rejects the rest (R4).",
      "", ""}},
    {4, "reduction/4 shuffle", "warp shuffles instead of shared memory",
     "past the book: __shfl_down_sync (CUDA Programming Guide, warp shuffle functions)",
     "shuffle.cu warp_reduce_shuffle.cuh",
     {"Sum within each warp with __shfl_down_sync at offsets 16, 8, 4, 2, 1 (lane 0 ends with "
       "the warp's sum); lane 0 of each warp writes it to shared memory; after one "
       "__syncthreads() warp 0 sums those the same way. One barrier per block instead of "
       "log2(block).",
      "", ""}},
    {5, "reduction/5 at-bandwidth", "at bandwidth: 16-byte loads, one pass",
     "past the book: vector loads, memory-level parallelism, last-block-done (threadfence)",
     "at_bandwidth.cu",
     {"Read the input as 16-byte vectors (int4, float4, longlong2, double2) with a scalar head "
       "and tail for a misaligned start and a ragged end; a block reads a tile of 4 x blockDim.x "
       "vectors in a row, each thread issuing its 4 loads before adding any (tiles grid-stride "
       "over the blocks); launch only as many blocks as fit on the GPU. Each block writes its "
       "partial, __threadfence(), then takes a ticket with atomicAdd: the block that draws the "
       "last ticket sums the partials and resets the ticket.",
      "", ""}},
}};

}  // namespace reduction
