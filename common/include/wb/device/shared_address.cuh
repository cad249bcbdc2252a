// The 32-bit shared-memory address that PTX instructions on shared memory take ([addr] of
// mbarrier, the destination of cp.async.bulk.tensor, the start address in a wgmma descriptor)
// for a generic C++ pointer into shared memory: cvta.to.shared (PTX ISA, "Data Movement and
// Conversion Instructions: cvta"; CUDA's __cvta_generic_to_shared). A shared-memory window is at
// most 228 KiB, so 32 bits hold every address, and a "r" operand is one register instead of two.
//
// cuda backend only: the cpu backend emulates none of the instructions that take these
// addresses (common/CPU-BACKEND.md).
#pragma once

#include <cstdint>

#include "wb/runtime.hpp"

#if !defined(WB_BACKEND_CUDA)
#error "wb/device/shared_address.cuh is for the cuda backend (the cpu backend has no PTX; include it under #if defined(WB_BACKEND_CUDA))"
#endif

namespace wb::device {

__device__ __forceinline__ std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

}  // namespace wb::device
