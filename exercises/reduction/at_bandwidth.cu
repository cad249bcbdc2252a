// Stage 5 (exercise): a reduction at the memory ceiling. A sum does one add per item loaded,
// so once the block's reduction is cheap (stage 4) the question is how fast the input comes
// in. Three changes from stage 4:
//   1. 16-byte loads (int4, float4, longlong2, double2);
//   2. 4 independent loads issued before the first add (bytes in flight = bandwidth x
//      latency: Little's law), the block's loads together covering one contiguous tile;
//   3. one pass: each block leaves its partial in global memory and the block that finishes
//      last sums the partials (last-block-done, as in the CUDA samples' threadFenceReduction).
// Uses block_sum from stage 4 (warp_reduce_shuffle.cuh).
#include <algorithm>
#include <cstdint>

#include "reduction.hpp"
#include "warp_reduce_shuffle.cuh"
#include "wb/exercise.hpp"
#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

// TODO(stage 5): write the kernel, then set this to true.
constexpr bool kImplemented = false;

inline constexpr int kLoadsInFlight = 4;

// The 16-byte vector of each input type, and the sum of its lanes as S.
template <class T>
struct vector16;
template <>
struct vector16<std::int32_t> {
  using type = int4;
};
template <>
struct vector16<float> {
  using type = float4;
};
template <>
struct vector16<std::int64_t> {
  using type = longlong2;
};
template <>
struct vector16<double> {
  using type = double2;
};

template <class S>
__device__ __forceinline__ S lanes_sum(const int4& v) {
  return (static_cast<S>(v.x) + static_cast<S>(v.y)) + (static_cast<S>(v.z) + static_cast<S>(v.w));
}
template <class S>
__device__ __forceinline__ S lanes_sum(const float4& v) {
  return (v.x + v.y) + (v.z + v.w);
}
template <class S>
__device__ __forceinline__ S lanes_sum(const longlong2& v) {
  return static_cast<S>(v.x) + static_cast<S>(v.y);
}
template <class S>
__device__ __forceinline__ S lanes_sum(const double2& v) {
  return v.x + v.y;
}

template <class T, class S>
__global__ void at_bandwidth_kernel(S* out, S* partials, unsigned int* ticket,
                                    const T* __restrict__ in, std::int64_t n) {
  using V = typename vector16<T>::type;
  constexpr std::int64_t kLanes = sizeof(V) / sizeof(T);
  const std::int64_t tid = wb::global_thread_index();
  const std::int64_t threads = wb::grid_thread_count();
  // TODO(stage 5):
  //  1. Split [0, n) into a scalar head (the items before the first 16-byte boundary: `in`
  //     may be misaligned, e.g. in + 1), whole vectors of kLanes items (body = the V*
  //     after the head), and a scalar tail of fewer than kLanes items. Threads below the
  //     head's and the tail's length add one item of each.
  //  2. The body, a tile at a time: a tile is kLoadsInFlight * blockDim.x vectors in a row.
  //     Block b takes tiles b, b + gridDim.x, ... while every block still gets a whole
  //     tile; thread t loads vectors t, t + blockDim.x, ... of the tile into V v[k] (all
  //     of them before adding any), then adds lanes_sum<S>(v[k]). The vectors left over
  //     (less than a tile per block) go one at a time, grid-stride over all threads.
  //  3. sum = block_sum(sum).
  //  4. Last-block-done: thread 0 stores the block's sum in partials[blockIdx.x],
  //     __threadfence(), draws a ticket with atomicAdd(ticket, 1u) and tells the block
  //     (a __shared__ bool, then __syncthreads()) whether it drew gridDim.x - 1. That last
  //     block __threadfence()s, sums partials[0 .. gridDim.x) (volatile loads: the other
  //     blocks' stores are in L2), block_sum, and thread 0 writes *out and resets *ticket
  //     to 0 for the next launch.
  (void)tid;
  (void)threads;
  (void)kLanes;
  (void)out;
  (void)partials;
  (void)ticket;
  (void)in;
  (void)n;
}

template <class T>
void sum_at_bandwidth(const T* in, std::int64_t n, sum_t<T>* out, const workspace<T>& ws,
                      const config& cfg) {
  using S = sum_t<T>;
  validate(cfg);
  if (!kImplemented) wb::not_implemented("reduction/5 at-bandwidth");
  constexpr std::int64_t kItemsPerThread = kLoadsInFlight * (16 / sizeof(T));
  std::int64_t blocks = grid_blocks(n, cfg, cfg.block * kItemsPerThread);
  if (cfg.blocks == 0) {
    // One wave: no more blocks than the GPU runs at once for this kernel.
    int per_sm = 0;
    int device = 0;
    int sms = 0;
    WB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, at_bandwidth_kernel<T, S>, cfg.block, 0));
    WB_CHECK(cudaGetDevice(&device));
    WB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    blocks = std::max<std::int64_t>(1, std::min<std::int64_t>(blocks, std::int64_t{per_sm} * sms));
  }
  require_partials(ws.capacity, blocks, "sum_at_bandwidth");

  wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(cfg.block)}, at_bandwidth_kernel<T, S>, out,
             ws.partials, ws.ticket, in, n);
}

REDUCTION_INSTANTIATE_DEVICE_STAGE(sum_at_bandwidth)

}  // namespace reduction::WB_TRACK
