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
// Below sm_90 it does nothing. On the cpu backend launches run one after the other, so there is
// nothing to wait for, but the emulator checks the rule: a kernel launched with early_start
// fails if one of its threads returns without having called wait_for_previous_grid().
#pragma once

#include "wb/runtime.hpp"

namespace wb::device {

__device__ __forceinline__ void wait_for_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#elif defined(WB_BACKEND_CPU)
  wb::cpu::grid_dependency_wait();  // marks the thread: an early-started kernel's threads must all wait
#endif
}

}  // namespace wb::device
