// TMA: the tensor memory accelerator copies a box of a tensor in global memory into shared
// memory on its own, and reports the bytes to an mbarrier (PTX ISA, "Data Movement and
// Conversion Instructions: cp.async.bulk.tensor", docs.nvidia.com/cuda/parallel-thread-execution/
// #data-movement-and-conversion-instructions-cp-async-bulk-tensor; PTX ISA 8.0, sm_90).
//
// Why: one thread issues a copy of a whole tile (up to 256 x 256 elements per box dimension)
// with one instruction: no address arithmetic, no registers holding the data in flight, no
// bounds checks (parts of the box outside the tensor are filled with zeros), and, with a
// swizzled tensor map, the layout in shared memory the tensor cores read without bank conflicts.
// What the box is (the tensor's address, sizes, row pitch, box sizes, swizzle) is a tensor map
// built on the host (wb/tensor_map.hpp) and passed to the kernel as a
// `const __grid_constant__ CUtensorMap` parameter; the copy takes its address.
//
//   tma_load_2d(dst, map, bar, column, row)           a box of a 2D tensor
//   tma_load_3d(dst, map, bar, column, row, plane)    a box of a 3D tensor
//   fence_proxy_async_shared()                        shared memory written by threads, then read
//                                                     or overwritten by the async proxy (TMA, wgmma)
//
// The copy is one thread's work; its bytes "complete_tx" on `bar`, whose phase must expect
// them (wb::device::mbarrier_arrive_expect_tx with the box's bytes, wb::tensor_box_bytes on the
// host), and the threads that read the box wait on that phase. Coordinates are in elements,
// innermost first (the column), and signed: a box may start before the tensor, too. The
// destination must be 128-byte aligned, and aligned to the swizzle's repeat (1024 bytes for the
// 128-byte swizzle) so that the pattern starts at the box's first row (wb/device/wgmma_layout.hpp
// has the pattern).
// cuda backend, sm_90 and later only (the cpu backend emulates no TMA: common/CPU-BACKEND.md).
#pragma once

#include <cstdint>

#include <cuda.h>  // CUtensorMap (a type only: the driver library is not linked)

#include "wb/device/shared_address.cuh"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#error "wb/device/tma.cuh: cp.async.bulk.tensor needs sm_90 or later"
#endif

namespace wb::device {

// The box of `map` whose first element is (column, row) into shared memory at `shared_dst`,
// its bytes counted on `bar`. (.shared::cluster with the block's own address: the block's own
// shared memory, the form sm_90 has for the mbarrier completion.)
__device__ __forceinline__ void tma_load_2d(void* shared_dst, const CUtensorMap* map, std::uint64_t* bar, int column,
                                            int row) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
          shared_address(shared_dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(column), "r"(row), "r"(shared_address(bar))
      : "memory");
}

// The same for a 3D tensor map: the box whose first element is (column, row, plane).
__device__ __forceinline__ void tma_load_3d(void* shared_dst, const CUtensorMap* map, std::uint64_t* bar, int column,
                                            int row, int plane) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(
          shared_address(shared_dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(column), "r"(row), "r"(plane), "r"(shared_address(bar))
      : "memory");
}

// Orders this thread's earlier accesses to shared memory through ordinary loads and stores (the
// generic proxy) before later accesses by the async proxy (PTX ISA, "membar / fence":
// fence.proxy.async, "Memory Consistency Model: Proxies"; sm_90): shared memory a block's
// threads wrote that a wgmma then reads, or a TMA store then copies out. Every writing thread
// fences, then the block synchronises (or arrives on a barrier) before the async operation
// starts. (Copies *into* shared memory by the TMA need no fence: their mbarrier makes them
// visible.)
__device__ __forceinline__ void fence_proxy_async_shared() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

}  // namespace wb::device
