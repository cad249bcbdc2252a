// Programmatic dependent launch (Hopper and later; CUDA C++ Programming Guide, "Programmatic
// Dependent Launch and Synchronization"). A kernel launched with wb::launch_config's
// early_start has its blocks scheduled as soon as the blocks of the kernel ahead of it in the
// stream have all returned, before that kernel is complete and its writes are flushed: the
// launch overlaps the end of the kernel ahead instead of following it.
//
//   wait_for_previous_grid()  every thread, before it reads anything earlier work wrote:
//                             returns once the kernel ahead is complete and its writes are
//                             visible (at once for a kernel launched without early_start).
//
// (PTX's griddepcontrol.launch_dependents would let the next kernel in earlier still, once
// every block of this one has started; the workbook does not use it.)
//
// Below sm_90, and on the cpu backend (launches run one after the other), it does nothing.
#pragma once

#include "wb/runtime.hpp"

namespace wb::device {

__device__ __forceinline__ void wait_for_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

}  // namespace wb::device
