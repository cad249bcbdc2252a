// mbarrier: a barrier object of 8 bytes in shared memory that counts arrivals and, since
// Hopper, bytes of asynchronous copies (PTX ISA, "Parallel Synchronization and Communication
// Instructions: mbarrier", docs.nvidia.com/cuda/parallel-thread-execution/
// #parallel-synchronization-and-communication-instructions-mbarrier; expect_tx, try_wait and
// the .shared::cta forms from PTX ISA 7.8/8.0, sm_90).
//
// Why not __syncthreads: a __syncthreads waits for every thread of the block at one point of the
// program. An mbarrier separates arriving from waiting, so a producer can arrive and move on
// while consumers wait, and the tensor memory accelerator (TMA, wb/device/tma.cuh) can "arrive"
// with the bytes it writes: a thread that waits on the barrier sees those bytes in shared memory.
//
// A barrier goes through phases 0, 1, 2, ...: a phase completes when `count` arrivals have been
// made (the count given to mbarrier_init) and every byte announced in it with
// mbarrier_arrive_expect_tx has landed; the next phase then begins with the same count.
// Waiters name the phase by its parity (phase % 2): a thread that waits for round r of a
// producer-consumer ring waits for parity r & 1. A fresh barrier is in phase 0, and a wait for
// parity 1 (the phase "before" it) returns at once: a producer's first wait on an "empty"
// barrier does not block.
//
//   mbarrier_init(bar, count)          one thread, before any other use; then
//   fence_barrier_init()               by that thread, and a __syncthreads() before others use it
//   mbarrier_arrive(bar)               one arrival
//   mbarrier_arrive_expect_tx(bar, n)  one arrival, and n more bytes for this phase to wait for
//   mbarrier_try_wait(bar, parity)     has the phase of that parity completed? (waits a short,
//                                      hardware-chosen time before it answers no)
//   mbarrier_wait(bar, parity)         until it has; a trap after about 10 s instead of a hang
//
// Arrivals release and waits acquire at CTA scope (the instructions' default .release/.acquire
// .cta): what a thread wrote before it arrived is visible to the threads the wait lets through.
// cuda backend, sm_90 and later only (the cpu backend emulates no mbarrier: common/CPU-BACKEND.md).
#pragma once

#include <cstdint>

#include "wb/device/shared_address.cuh"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#error "wb/device/mbarrier.cuh: expect_tx and try_wait need sm_90 or later"
#endif

namespace wb::device {

// One thread, before any use; then fence_barrier_init and a __syncthreads().
__device__ __forceinline__ void mbarrier_init(std::uint64_t* bar, std::uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(count) : "memory");
}

// Makes initialised barriers visible to the other threads and to the TMA unit (the async proxy)
// (PTX ISA, "membar / fence": fence.mbarrier_init, sm_90). The __syncthreads() after it orders
// the other threads' first use after the initialisation.
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// Arrives (one of the phase's `count`) and announces `bytes` more to wait for in this phase.
// The thread that starts a TMA copy calls it for the copy's bytes (zero-filled parts of the box
// included), before or after issuing the copy: the byte count may go below zero for a moment.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(std::uint64_t* bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes)
               : "memory");
}

// One arrival. The state the instruction returns (for mbarrier.test_wait) is not used: waits
// name the phase by its parity instead ("_" discards it).
__device__ __forceinline__ void mbarrier_arrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(bar)) : "memory");
}

// True when the phase with parity `parity` has completed. Unlike test_wait, try_wait may
// suspend the thread for a while (a time the hardware picks) before answering false, so a loop
// over it does not spin at full speed.
__device__ __forceinline__ bool mbarrier_try_wait(std::uint64_t* bar, std::uint32_t parity) {
  std::uint32_t done = 0;
  asm volatile(
      "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
      : "=r"(done)
      : "r"(shared_address(bar)), "r"(parity)
      : "memory");
  return done != 0;
}

// Waits until the phase with parity `parity` has completed. A wrong count, parity or byte
// total would wait forever: after about 10 seconds (2^34 cycles) the kernel stops with a trap
// instead (a launch error, not a hang). No printf here: a function call inside a consumer's
// loop would make the compiler serialize the wgmmas around it.
__device__ __forceinline__ void mbarrier_wait(std::uint64_t* bar, std::uint32_t parity) {
  const std::uint32_t address = shared_address(bar);
  std::uint32_t done = 0;
  long long start = 0;
  for (;;) {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(address), "r"(parity)
        : "memory");
    if (done) return;
    if (start == 0) {
      start = clock64();
    } else if (clock64() - start > (1ll << 34)) {
      __trap();
    }
  }
}

}  // namespace wb::device
