// Stage 6's bulk copy from global to shared memory and the barrier it completes on, shared by
// both tracks (like single_pass_host.inl): Hopper's copy engine for one contiguous block of
// bytes (PTX cp.async.bulk) and an mbarrier that counts the bytes arriving (PTX ISA 8.0,
// "Data movement: cp.async.bulk" and "Parallel synchronization: mbarrier"). One thread
// starts a copy and goes on; the threads that read the bytes wait on the barrier first.
//
// The cpu backend has neither: there the copy happens at once (a memcpy in the thread that
// starts it) and the barrier is always complete, which keeps the order of a correct program.
#pragma once

#include <cstring>

#include "wb/kernel.hpp"

namespace scan {

// 16 bytes as a vector or as items: a 16-byte load, store or copied piece of a tile.
template <class T>
union vector16 {
  uint4 raw;
  T item[16 / sizeof(T)];
};

// One barrier per shared-memory buffer, itself in shared memory. Each copy into the buffer
// completes one phase of its barrier: phases 0, 1, 2, ... (a waiter names the phase's parity).
struct copy_barrier {
  unsigned long long word;
};

#if defined(WB_BACKEND_CUDA)
namespace detail {
__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
}  // namespace detail

// Before Hopper (compute capability 9.0) there is no bulk copy: there the thread that starts a
// copy makes it at once, 16 bytes at a time, and the barrier is always complete; the stage
// reads the bytes only after a __syncthreads(), which makes them visible to the block.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define SCAN_BULK_COPY_BY_THREAD 1
#endif

// One thread, before the block's first use of the barrier (then a __syncthreads()).
__device__ __forceinline__ void copy_barrier_init(copy_barrier* bar) {
#if defined(SCAN_BULK_COPY_BY_THREAD)
  bar->word = 0;
#else
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(detail::shared_address(bar)) : "memory");
  // Make the initialised barrier visible to the copy engine (the async proxy).
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

// One thread: copy `bytes` (a multiple of 16; both addresses 16-byte aligned) from global
// memory to shared memory; the barrier's current phase completes when they have all arrived.
__device__ __forceinline__ void bulk_copy_to_shared(void* shared_dst, const void* global_src, unsigned bytes,
                                                    copy_barrier* bar) {
#if defined(SCAN_BULK_COPY_BY_THREAD)
  (void)bar;
  for (unsigned i = 0; i < bytes / 16; ++i) {
    static_cast<uint4*>(shared_dst)[i] = static_cast<const uint4*>(global_src)[i];
  }
#else
  const unsigned b = detail::shared_address(bar);
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes) : "memory");
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   detail::shared_address(shared_dst)),
               "l"(global_src), "r"(bytes), "r"(b)
               : "memory");
#endif
}

// Every thread that reads the copied bytes: wait until phase `phase` of the barrier has
// completed (the phase's parity is what the hardware compares).
__device__ __forceinline__ void copy_barrier_wait(copy_barrier* bar, unsigned phase) {
#if defined(SCAN_BULK_COPY_BY_THREAD)
  (void)bar;
  (void)phase;
#else
  const unsigned b = detail::shared_address(bar);
  unsigned done = 0;
  while (!done) {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(b), "r"(phase & 1u)
        : "memory");
  }
#endif
}
#else
__device__ __forceinline__ void copy_barrier_init(copy_barrier* bar) { bar->word = 0; }
__device__ __forceinline__ void bulk_copy_to_shared(void* shared_dst, const void* global_src, unsigned bytes,
                                                    copy_barrier*) {
  std::memcpy(shared_dst, global_src, bytes);
}
__device__ __forceinline__ void copy_barrier_wait(copy_barrier*, unsigned) {}
#endif

}  // namespace scan
