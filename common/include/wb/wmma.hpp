// WMMA, CUDA's warp-level tensor-core API (nvcuda::wmma: fragment, load_matrix_sync, mma_sync,
// store_matrix_sync, fill_fragment), on both backends: <mma.h> on the cuda backend, the
// emulation in wb/cpu/wmma.hpp (bfloat16 inputs, float accumulators) on the cpu backend.
#pragma once

#include "wb/bf16.hpp"

#if defined(WB_BACKEND_CUDA)
#include <mma.h>
#else
#include "wb/cpu/wmma.hpp"
#endif
