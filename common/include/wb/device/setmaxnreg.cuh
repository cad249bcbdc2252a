// setmaxnreg: moves registers between the warpgroups of a running block (PTX ISA,
// "Miscellaneous Instructions: setmaxnreg", docs.nvidia.com/cuda/parallel-thread-execution/
// #miscellaneous-instructions-setmaxnreg; PTX ISA 8.0, sm_90a only).
//
// Why: a block is launched with one register count for every thread, the largest any of its
// threads needs. In a warp-specialised kernel the producer warpgroup (one thread issuing TMA
// copies) needs few, the consumers (accumulators of wgmma) many: the producer gives registers
// back to the SM's pool (dec) and the consumers take them (inc), so that more accumulators fit
// without spilling. All warps of a warpgroup execute it (.sync.aligned) with the same count, a
// multiple of 8 from 24 to 256; inc waits until the pool has the registers.
// cuda backend, sm_90a only; the cpu backend has no registers to move (common/CPU-BACKEND.md).
#pragma once

#include "wb/runtime.hpp"

#if !defined(WB_BACKEND_CUDA)
#error "wb/device/setmaxnreg.cuh is for the cuda backend (include it under #if defined(WB_BACKEND_CUDA))"
#endif
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "wb/device/setmaxnreg.cuh: setmaxnreg exists on sm_90a only: compile with -gencode=arch=compute_90a,code=sm_90a"
#endif

namespace wb::device {

template <int REGISTERS>
__device__ __forceinline__ void setmaxnreg_dec() {
  static_assert(REGISTERS >= 24 && REGISTERS <= 256 && REGISTERS % 8 == 0, "setmaxnreg: a multiple of 8, 24-256");
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(REGISTERS));
}
template <int REGISTERS>
__device__ __forceinline__ void setmaxnreg_inc() {
  static_assert(REGISTERS >= 24 && REGISTERS <= 256 && REGISTERS % 8 == 0, "setmaxnreg: a multiple of 8, 24-256");
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(REGISTERS));
}

}  // namespace wb::device
