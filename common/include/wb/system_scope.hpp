// Memory operations between kernels on different GPUs (and the host): flags in peer memory.
//
//   wb::peer_store(peer_out + i, sum);              // a plain store into another GPU's memory
//   __syncthreads();                                // every thread of the block has stored
//   if (threadIdx.x == 0) wb::sys::store_release(peer_flag, epoch);   // then announce it
//   ...
//   wb::sys::wait_at_least(my_flag, epoch);         // acquire: what was announced is visible
//
// A flag tells another GPU that data is ready. Two orders make that true (the CUDA memory
// model, PTX ISA "Memory Consistency Model"): the writer's data must be visible before its flag
// (a RELEASE store, or __threadfence_system() then the store), and the reader must not read the
// data before it has seen the flag (an ACQUIRE load). The scope must be the SYSTEM: a fence or
// release of GPU scope (__threadfence()) orders nothing for another GPU.
//
// cuda backend: cuda::atomic_ref with thread_scope_system (ld.acquire.sys, st.release.sys,
// ld/st.relaxed.sys); wb::peer_store is a plain store. wait_at_least gives up after 10 seconds
// with a message and a trap (the launch fails), so a signal that never comes is an error, not
// a machine that hangs.
// cpu backend: the emulator's model (common/CPU-BACKEND.md, "Several devices"): peer stores
// wait in the block's store buffer until its next release or system fence (or the kernel's
// end), so a flag written without one arrives before its data every time; a thread spinning on
// a flag lets the other devices' kernels run; a wait nothing can end is reported.
#pragma once

#include <cstdint>
#include <type_traits>

#include "wb/runtime.hpp"

#if defined(WB_BACKEND_CUDA)
#include <cstdio>

#include <cuda/atomic>
#else
#include <cstring>
#include <source_location>
#endif

namespace wb::sys {

template <class T>
inline constexpr bool is_flag_type = std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);

#if defined(WB_BACKEND_CUDA)

template <class T>
__device__ __forceinline__ cuda::atomic_ref<T, cuda::thread_scope_system> system_ref(const T* p) {
  return cuda::atomic_ref<T, cuda::thread_scope_system>(*const_cast<T*>(p));
}
template <class T>
__device__ __forceinline__ T load_acquire(const T* p) {
  static_assert(is_flag_type<T>, "a flag is a 4- or 8-byte integer");
  return system_ref(p).load(cuda::memory_order_acquire);
}
template <class T>
__device__ __forceinline__ T load_relaxed(const T* p) {
  static_assert(is_flag_type<T>, "a flag is a 4- or 8-byte integer");
  return system_ref(p).load(cuda::memory_order_relaxed);
}
template <class T>
__device__ __forceinline__ void store_release(T* p, T value) {
  static_assert(is_flag_type<T>, "a flag is a 4- or 8-byte integer");
  system_ref(p).store(value, cuda::memory_order_release);
}
template <class T>
__device__ __forceinline__ void store_relaxed(T* p, T value) {
  static_assert(is_flag_type<T>, "a flag is a 4- or 8-byte integer");
  system_ref(p).store(value, cuda::memory_order_relaxed);
}
__device__ __forceinline__ void fence() { __threadfence_system(); }

__device__ __forceinline__ std::uint64_t global_timer_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Acquire loads of *flag until it is at least `value`; returns what it read.
template <class T>
__device__ __forceinline__ T wait_at_least(const T* flag, T value) {
  T seen = load_acquire(flag);
  if (seen >= value) return seen;
  const std::uint64_t start = global_timer_ns();
  for (unsigned spins = 1;; ++spins) {
    seen = load_acquire(flag);
    if (seen >= value) return seen;
    if (spins % 1024 == 0 && global_timer_ns() - start > 10'000'000'000ull) {
      printf("wb::sys::wait_at_least: block %u thread %u waited 10 s for the flag at %p to reach %llu (it reads %llu): "
             "a signal that never comes\n",
             blockIdx.x, threadIdx.x, static_cast<const void*>(flag), static_cast<unsigned long long>(value),
             static_cast<unsigned long long>(seen));
      __trap();
    }
  }
}

#else  // cpu backend

template <class T>
inline T load_acquire(const T* p, std::source_location where = std::source_location::current()) {
  static_assert(is_flag_type<T>, "a flag is a 4- or 8-byte integer");
  return static_cast<T>(cpu::sys_load(p, sizeof(T), true, where));
}
template <class T>
inline T load_relaxed(const T* p, std::source_location where = std::source_location::current()) {
  static_assert(is_flag_type<T>, "a flag is a 4- or 8-byte integer");
  return static_cast<T>(cpu::sys_load(p, sizeof(T), false, where));
}
template <class T>
inline void store_release(T* p, T value, std::source_location where = std::source_location::current()) {
  static_assert(is_flag_type<T>, "a flag is a 4- or 8-byte integer");
  cpu::sys_store(p, sizeof(T), static_cast<std::uint64_t>(value), true, where);
}
template <class T>
inline void store_relaxed(T* p, T value, std::source_location where = std::source_location::current()) {
  static_assert(is_flag_type<T>, "a flag is a 4- or 8-byte integer");
  cpu::sys_store(p, sizeof(T), static_cast<std::uint64_t>(value), false, where);
}
inline void fence() { cpu::sys_fence(); }

template <class T>
inline T wait_at_least(const T* flag, T value, std::source_location where = std::source_location::current()) {
  for (;;) {
    const T seen = load_acquire(flag, where);
    if (seen >= value) return seen;
  }
}

#endif

}  // namespace wb::sys

namespace wb {

// A plain store into another GPU's memory (through NVLink or PCIe once peer access is on).
// Weak: nothing orders it before later stores until a release or a system fence.
#if defined(WB_BACKEND_CUDA)
template <class T>
__device__ __forceinline__ void peer_store(T* p, const T& value) {
  *p = value;
}
#else
template <class T>
inline void peer_store(T* p, const T& value, std::source_location where = std::source_location::current()) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 16, "peer_store moves 1 to 16 bytes");
  cpu::peer_store(p, &value, sizeof(T), where);
}
#endif

}  // namespace wb
