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
// On the cpu backend a copy is what a GPU promises and no more: from its issue until a wait
// completes its group, its 16 destination bytes hold the poison 0xA5 (written at the issue, as
// this thread's store, so the race check sees a copy into bytes another thread still reads);
// the data lands when cp_async_wait completes the group (this thread's stores again: a read by
// another thread needs the wait and a barrier after it). A missing wait reads the poison, or
// races with the landing; a copy never waited for never lands (common/CPU-BACKEND.md).
#pragma once

#include "wb/runtime.hpp"

#if !defined(WB_BACKEND_CUDA)
#include <cstdint>
#include <string>
#endif

namespace wb {

#if !defined(WB_BACKEND_CUDA)
namespace detail {
using async_word = std::uint32_t __attribute__((may_alias));
// A copy's 16 destination bytes as four 32-bit stores (what the race check follows).
inline void async_store(void* dst, const unsigned char (&bytes)[16]) {
  auto* words = static_cast<async_word*>(dst);
  for (int w = 0; w < 4; ++w) {
    std::uint32_t word = 0;
    for (int b = 0; b < 4; ++b) word |= static_cast<std::uint32_t>(bytes[4 * w + b]) << (8 * b);
    words[w] = word;
  }
}
inline void async_land(const wb::cpu::async_copy& c) {
  unsigned char bytes[16] = {};
  const auto* src = static_cast<const unsigned char*>(c.src);
  for (int b = 0; b < c.bytes; ++b) bytes[b] = src[b];
  async_store(c.dst, bytes);
}
}  // namespace detail
#endif

__device__ __forceinline__ void cp_async_16(void* shared_dst, const void* global_src, int src_bytes = 16) {
#if defined(WB_BACKEND_CUDA)
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  // .cg: cache in L2 only (the data is staged in shared memory anyway).
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(global_src), "r"(src_bytes)
               : "memory");
#else
  if (reinterpret_cast<std::uintptr_t>(shared_dst) % 16 != 0 ||
      (src_bytes > 0 && reinterpret_cast<std::uintptr_t>(global_src) % 16 != 0)) {
    wb::cpu::fault("cp.async of 16 bytes: both addresses must be 16-byte aligned");
  }
  const int n = src_bytes < 0 ? 0 : (src_bytes > 16 ? 16 : src_bytes);
  unsigned char poison[16];
  for (unsigned char& b : poison) b = 0xA5;
  detail::async_store(shared_dst, poison);  // undefined until the wait
  wb::cpu::async_copy_issue({shared_dst, global_src, n});
#endif
}

__device__ __forceinline__ void cp_async_commit() {
#if defined(WB_BACKEND_CUDA)
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#else
  wb::cpu::async_copy_commit();
#endif
}

template <int N>
__device__ __forceinline__ void cp_async_wait() {
#if defined(WB_BACKEND_CUDA)
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#else
  wb::cpu::async_copy c;
  while (wb::cpu::async_copy_due(N, &c)) detail::async_land(c);
#endif
}

}  // namespace wb
