// Asynchronous copies from global to shared memory (cp.async, compute capability 8.0 and
// later), on both backends. The CUDA C++ Programming Guide describes them under
// "Asynchronous Data Copies"; these are the PTX instructions themselves, one line each:
//
//   wb::cp_async_16(smem, gmem, bytes);  // copy 16 bytes (the first `bytes` of them from gmem,
//                                        // 0 to 16, the rest zero-filled) without passing
//                                        // through registers; it completes later
//   wb::cp_async_commit();               // close the group of copies this thread issued
//   wb::cp_async_wait<N>();              // wait until at most N of this thread's groups are
//                                        // still in flight (N = 0: all of them)
//
// A copy is visible to OTHER threads only after the issuing thread waited for its group and a
// barrier (__syncthreads) followed. Both addresses must be 16-byte aligned. With bytes = 0
// nothing is read, but the address must still be a valid one.
//
// On the cpu backend a copy happens at once, so a missing wait cannot show there: racecheck
// on a GPU is the tool for that (common/CPU-BACKEND.md).
#pragma once

#include "wb/runtime.hpp"

#if !defined(WB_BACKEND_CUDA)
#include <cstring>
#endif

namespace wb {

__device__ __forceinline__ void cp_async_16(void* shared_dst, const void* global_src, int src_bytes = 16) {
#if defined(WB_BACKEND_CUDA)
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  // .cg: cache in L2 only (the data is staged in shared memory anyway).
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(global_src), "r"(src_bytes)
               : "memory");
#else
  const int n = src_bytes < 0 ? 0 : (src_bytes > 16 ? 16 : src_bytes);
  std::memcpy(shared_dst, global_src, static_cast<std::size_t>(n));
  std::memset(static_cast<unsigned char*>(shared_dst) + n, 0, static_cast<std::size_t>(16 - n));
#endif
}

__device__ __forceinline__ void cp_async_commit() {
#if defined(WB_BACKEND_CUDA)
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

template <int N>
__device__ __forceinline__ void cp_async_wait() {
#if defined(WB_BACKEND_CUDA)
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

}  // namespace wb
