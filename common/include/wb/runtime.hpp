// The CUDA runtime API for both backends.
//
// cuda backend: the real <cuda_runtime.h>.
// cpu backend:  the emulator's subset with the same names (cudaMalloc, cudaMemcpy, events,
//               streams, ...), so host code is identical for both backends. On the cpu
//               backend host and "device" pointers are the same memory.
#pragma once

#if defined(WB_BACKEND_CUDA)
#include <cuda_runtime.h>
#elif defined(WB_BACKEND_CPU)
#include "wb/cpu/emulation.hpp"
#else
#error "Define WB_BACKEND_CUDA or WB_BACKEND_CPU (the build does this for every target)"
#endif

namespace wb {

// Which backend this translation unit was built for, for messages and reports.
#if defined(WB_BACKEND_CUDA)
inline constexpr const char* backend_name = "cuda";
inline constexpr bool backend_is_cuda = true;
#else
inline constexpr const char* backend_name = "cpu";
inline constexpr bool backend_is_cuda = false;
#endif

}  // namespace wb
