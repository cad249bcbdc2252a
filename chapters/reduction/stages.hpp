// The reduction chapter's stages: one table read by the checks (suite names, progress
// report), the executable (--stage, report rows), the README and the `wb` program (list,
// check, hint). Plain C++: no CUDA and no kernel headers, so any host program can include it.
#pragma once

#include <array>

#include "wb/stage.hpp"

namespace reduction {

inline constexpr std::array<wb::stage, 6> stages = {{
    {0, "reduction/0 sequential", "sequential sum: the specification",
     "CUDA Handbook §12.2 (the sum every kernel must match)", "sequential.cpp",
     {"A sum is only as good as its accumulator. The book adds ints into an int (defect R5); "
      "choose, for each input type, an accumulator that cannot lose the answer.",
      "Integers: add in 64 bits whatever the input width. float: add in double and round once "
      "at the end. double: there is nothing wider, so keep the rounding error of every addition "
      "in a second variable (compensated summation) and add it back at the end.",
      "if constexpr (std::is_integral_v<T>): a std::uint64_t sum of "
      "static_cast<std::uint64_t>(static_cast<std::int64_t>(x)) (unsigned: wraps like the GPU "
      "instead of overflowing), returned as sum_t<T>. float: double sum, return "
      "static_cast<float>(sum). double, Neumaier's variant of Kahan: t = sum + x; if |sum| >= |x| "
      "then c += (sum - t) + x, else c += (x - t) + sum; sum = t; return sum + c."}},
    {1, "reduction/1 two-pass", "two-pass reduction, log-step tree in shared memory",
     "CUDA Handbook §12.2, listing 12-1", "two_pass.cu",
     {"Listing 12-1: many blocks each reduce their share of the input to one partial sum; a "
      "second launch of the same kernel, with one block, reduces the partials to the answer.",
      "Each thread first adds up a grid-stride slice of the input (coalesced, 64-bit indices), "
      "stores its sum in shared memory, then the block runs a log-step tree: the lower half of "
      "the active threads adds the upper half, the active count halves, a barrier after every "
      "step, until partials[0] holds the block's sum. The host launches it over the input, then "
      "once more over the partials with a single block.",
      "Kernel: S sum = 0 (S = sum_t<T>, 64 bits for int32: R5); for (i = "
      "wb::global_thread_index(); i < n; i += wb::grid_thread_count()) sum += in[i]; "
      "partials[tid] = sum; __syncthreads(); for (active = blockDim.x >> 1; active > 0; active "
      ">>= 1) { if (tid < active) partials[tid] += partials[tid + active]; __syncthreads(); } "
      "(the book prints `>= 1`: R1); if (tid == 0) out[blockIdx.x] = partials[0]. Host: the "
      "second pass is wb::launch({dim3(1), dim3(cfg.block), shared}, two_pass_kernel<S, S>, "
      "out, static_cast<const S*>(ws.partials), blocks)."}},
    {2, "reduction/2 warp-synchronous", "warp-synchronous tail (fixed)",
     "CUDA Handbook §12.2, listing 12-2", "warp_synchronous.cu warp_reduce_sync.cuh",
     {"Listing 12-2: the tree's last steps involve fewer than 32 threads, yet each pays a "
      "block-wide barrier. Hand them to one warp, which needs no __syncthreads().",
      "Run stage 1's tree only while more than 64 partials are left, then let warp 0 finish the "
      "last 64 (or 32) alone. The book trusts the warp's lanes to run in lock-step; since Volta "
      "they do not (R3), so each warp step still needs a warp-level barrier, and a 32-thread "
      "block must not read past its 32 partials (R4).",
      "Kernel: the tree loop with `active > 32`, then if (tid < 32) warp_tail_sum(partials, "
      "tid, blockDim.x). warp_tail_sum: for (offset = block_threads >= 64 ? 32 : 16; offset > 0; "
      "offset >>= 1) { if (lane < offset) partials[lane] += partials[lane + offset]; "
      "__syncwarp(); } (no volatile: __syncwarp() also orders the shared-memory accesses)."}},
    {3, "reduction/3 unrolled", "fully unrolled tree, block size as a template parameter",
     "CUDA Handbook §12.2, listings 12-3 and 12-4", "block_reduce_unrolled.cuh unrolled.cu",
     {"Listings 12-3 and 12-4: when the block size is a compile-time constant, the compiler can "
      "remove the tree's loop and every step the block does not need.",
      "Write each step of the tree (block-wide for offsets 512 down to 64, then warp 0 alone for "
      "32 down to 1) as a step guarded by a compile-time test on kThreads. On the host, a switch "
      "over the block sizes picks the instantiation. The book's switch also dispatches 1..16 "
      "threads (R4) and has no default (R6: any other size launches nothing, silently).",
      "block_sum_unrolled: if constexpr (kThreads >= 1024) { if (tid < 512) partials[tid] += "
      "partials[tid + 512]; __syncthreads(); } and the same for 512, 256, 128; then if (tid < "
      "32) { if constexpr (kThreads >= 64) { partials[tid] += partials[tid + 32]; __syncwarp(); "
      "} then for 16, 8, 4, 2, 1: if (tid < offset) partials[tid] += partials[tid + offset]; "
      "__syncwarp(); }. sum_unrolled: case 32, 64, 128, 256, 512, 1024: return "
      "sum_unrolled_with<K>(in, n, out, partials, blocks); default: throw "
      "std::invalid_argument(...)."}},
    {4, "reduction/4 shuffle", "warp shuffles instead of shared memory",
     "past the book: __shfl_down_sync (CUDA Programming Guide, warp shuffle functions)",
     "warp_reduce_shuffle.cuh",
     {"A warp shuffle hands a value from one lane's register to another's: a warp can sum its "
      "32 values with no shared memory and no race to reason about.",
      "Sum each warp with five shuffles (each lane adds the value some lanes above it, the "
      "distance halving each step) so lane 0 holds the warp's sum. For the block: lane 0 of each "
      "warp leaves its sum in a small shared array, one __syncthreads(), and warp 0 sums those "
      "the same way. One barrier per block instead of log2(block). Optional: 64-bit integer "
      "sums with __reduce_add_sync, which only takes 32-bit values.",
      "warp_sum_shuffle: for (offset = 16; offset > 0; offset >>= 1) v += "
      "__shfl_down_sync(kFullWarp, v, offset). block_sum: __shared__ S warp_sums[32]; lane = "
      "threadIdx.x % 32, warp = threadIdx.x / 32; v = warp_sum(v); if (lane == 0) "
      "warp_sums[warp] = v; __syncthreads(); if (warp == 0) { v = lane < blockDim.x / 32 ? "
      "warp_sums[lane] : S(0); v = warp_sum(v); } return v. Optional warp_sum_redux: split v into "
      "hi (top 32 bits), mid and lo (16 bits each), __reduce_add_sync each, return (sum_hi << "
      "32) + (sum_mid << 16) + sum_lo."}},
    {5, "reduction/5 at-bandwidth", "at bandwidth: 16-byte loads, one pass",
     "past the book: vector loads, memory-level parallelism, last-block-done (threadfence)",
     "at_bandwidth.cu",
     {"A sum does one add per item loaded: once the block's epilogue is cheap, the speed is how "
      "many bytes are in flight (Little's law), and a second launch is pure overhead.",
      "Read the input as 16-byte vectors, several loads issued before the first add, each block "
      "reading a contiguous tile; cover a misaligned start and a ragged end with scalar loads. "
      "Then one pass: each block leaves its partial in global memory, and the block that "
      "finishes last (it learns so from an atomic ticket) sums the partials.",
      "Split [0, n) into a scalar head up to the first 16-byte boundary, vector16<T> vectors, "
      "and a scalar tail. A tile is kLoadsInFlight x blockDim.x vectors in a row; block b takes "
      "tiles b, b + gridDim.x, ...; thread t loads V v[k] = p[k * blockDim.x] for all k before "
      "adding lanes_sum<S>(v[k]); leftover vectors grid-stride, one each. sum = block_sum(sum). "
      "Thread 0: partials[blockIdx.x] = sum; __threadfence(); is_last = atomicAdd(ticket, 1u) == "
      "gridDim.x - 1 (a __shared__ bool); __syncthreads(). The last block: __threadfence(), sums "
      "the partials with volatile loads, block_sum, thread 0 writes *out and sets *ticket = 0."}},
}};

}  // namespace reduction
