// Everything a kernel source (.cu) needs, on both backends:
//   - CUDA's built-ins (threadIdx, __syncthreads, __shfl_down_sync, atomicAdd, ...): real on
//     the cuda backend, emulated by fibers on the cpu backend (see common/CPU-BACKEND.md);
//   - wb::launch (instead of <<<...>>>), wb::dynamic_shared<T>() (instead of extern __shared__);
//   - WB_CHECK for runtime calls.
//
// Two conventions keep one source valid for both backends:
//   1. start kernels with wb::launch({grid, block, shared_bytes, stream}, kernel, args...);
//   2. get dynamic shared memory with `T* buf = wb::dynamic_shared<T>();`.
// Static `__shared__ T x[N];` works as usual (one copy per running block on the cpu backend).
#pragma once

#include <cstdint>

#include "wb/check.hpp"
#include "wb/launch.hpp"
#include "wb/runtime.hpp"

namespace wb {

// The block's dynamic shared memory (the third launch parameter), viewed as T[].
// Aligned to 16 bytes. On the cpu backend it is a fresh buffer per block, filled with the
// poison byte 0xA5, so reads of shared memory nobody wrote show up as wrong results.
template <class T>
__device__ __forceinline__ T* dynamic_shared() {
#if defined(WB_BACKEND_CUDA)
  extern __shared__ __align__(16) unsigned char wb_dynamic_shared_bytes[];
  return reinterpret_cast<T*>(wb_dynamic_shared_bytes);
#else
  return reinterpret_cast<T*>(cpu::dynamic_shared_base());
#endif
}

// Global thread index and grid-wide thread count, 64-bit (M12, R5: products of 32-bit
// built-ins overflow once a grid covers more than 2^31 items).
__device__ __forceinline__ std::int64_t global_thread_index() {
  return static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::int64_t grid_thread_count() {
  return static_cast<std::int64_t>(gridDim.x) * blockDim.x;
}

}  // namespace wb
