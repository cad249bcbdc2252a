// Stage 5: a reduction at the memory ceiling. A sum does one add per item loaded, so once the
// block's reduction is cheap (stage 4) the only question left is how fast the input comes in.
// Three changes from stage 4, each aimed at keeping more bytes in flight per instruction:
//   1. 16-byte loads (int4, float4, longlong2, double2): a quarter of the load instructions
//      of int32 loads, each warp request a full 512 bytes;
//   2. 4 independent loads issued before the first add, so each thread has 64 bytes in
//      flight (Little's law: bytes in flight = bandwidth x latency), the block's loads
//      together covering one contiguous tile (as CUB's block loads do);
//   3. one pass: the grid is only as large as fits on the GPU at once, each block leaves its
//      partial in global memory, and the block that finishes last (last-block-done, as in
//      the CUDA samples' threadFenceReduction) sums the partials. No second launch, no
//      second pass over a partials array from a cold start.
#include <cstdint>

#include "reduction.hpp"
#include "vector16.cuh"
#include "warp_reduce_shuffle.cuh"
#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

inline constexpr int kLoadsInFlight = 4;

template <class S>
__device__ __forceinline__ S load_volatile(const S* p) {
  return *static_cast<const volatile S*>(p);
}

template <class T, class S>
__global__ void at_bandwidth_kernel(S* out, S* partials, unsigned int* ticket,
                                    const T* __restrict__ in, std::int64_t n) {
  using V = typename vector16<T>::type;
  constexpr std::int64_t kLanes = sizeof(V) / sizeof(T);
  static_assert(kLoadsInFlight * kLanes <= max_items_per_thread_sweep);
  const std::int64_t tid = wb::global_thread_index();
  const std::int64_t threads = wb::grid_thread_count();

  // [0, n) = a scalar head up to the first 16-byte boundary (when `in` is not aligned, e.g.
  // in + 1), whole vectors, a scalar tail of fewer than kLanes items.
  const std::int64_t misaligned = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(in) % sizeof(V));
  const std::int64_t head = misaligned == 0 ? 0 : min(n, static_cast<std::int64_t>((sizeof(V) - misaligned) / sizeof(T)));
  const V* body = reinterpret_cast<const V*>(in + head);
  const std::int64_t vectors = (n - head) / kLanes;
  const std::int64_t tail = head + vectors * kLanes;

  S sum = 0;  // R5: 64 bits for int32 input
  if (tid < head) sum += in[tid];
  if (tail + tid < n) sum += in[tail + tid];

  // The body, a tile at a time. A tile is kLoadsInFlight x blockDim.x vectors in a row (16 KiB
  // for 256 threads); thread t loads vectors t, t + blockDim.x, t + 2 blockDim.x, ... of it,
  // all of them before adding any, each load coalesced across the warp. Block b takes tiles
  // b, b + gridDim.x, b + 2 gridDim.x, ... (a grid-stride loop over tiles) while every block
  // still gets a whole tile; what is left, less than a tile per block, goes one vector at a
  // time to every thread of the grid, so no block gets more than a few vectors extra.
  const std::int64_t tile = kLoadsInFlight * static_cast<std::int64_t>(blockDim.x);
  const std::int64_t rounds = vectors / (tile * gridDim.x);
  for (std::int64_t r = 0; r < rounds; ++r) {
    const V* p = body + (r * gridDim.x + blockIdx.x) * tile + threadIdx.x;
    V v[kLoadsInFlight];
    for (int k = 0; k < kLoadsInFlight; ++k) v[k] = p[k * blockDim.x];
    for (int k = 0; k < kLoadsInFlight; ++k) sum += lanes_sum<S>(v[k]);
  }
  for (std::int64_t i = rounds * tile * gridDim.x + tid; i < vectors; i += threads) sum += lanes_sum<S>(body[i]);

  sum = block_sum(sum);

  // Last-block-done. Thread 0 publishes the block's partial, fences so that every block
  // sees the partial before it sees the ticket, then takes a ticket. Whoever draws the
  // last ticket knows every partial is written.
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sum;
    __threadfence();
    const unsigned int drawn = atomicAdd(ticket, 1u);
    is_last = drawn == gridDim.x - 1;
  }
  __syncthreads();  // also separates the two block_sum calls
  if (!is_last) return;

  // The last block: sum the partials. Volatile loads go to L2 (where the other blocks'
  // fenced stores are), never to a stale line in this multiprocessor's L1.
  __threadfence();
  S total = 0;
  for (std::int64_t b = threadIdx.x; b < gridDim.x; b += blockDim.x) total += load_volatile(partials + b);
  total = block_sum(total);
  if (threadIdx.x == 0) {
    *out = total;
    *ticket = 0;  // ready for the next launch
  }
}

}  // namespace reduction::WB_TRACK

#include "at_bandwidth_host.inl"  // the host side (one wave, one launch), shared by both tracks
