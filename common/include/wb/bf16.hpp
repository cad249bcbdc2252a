// bfloat16 for kernels and host code, on both backends: CUDA's __nv_bfloat16 (<cuda_bf16.h>)
// on the cuda backend, the same names from wb/cpu/bf16.hpp on the cpu backend.
//
//   wb::bf16 x = wb::to_bf16(1.5f);   // round to nearest, ties to even (as __float2bfloat16)
//   float y = wb::to_float(x);        // exact: every bfloat16 is a float
//
// Use these two conversions, never the implicit ones CUDA's type also has: they say where a
// value is rounded, and they are the same on both backends.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(WB_BACKEND_CUDA)
#include <cuda_bf16.h>
#else
#include "wb/cpu/emulation.hpp"  // __host__ __device__
#include "wb/cpu/bf16.hpp"
#endif

namespace wb {

using bf16 = __nv_bfloat16;

__host__ __device__ inline bf16 to_bf16(float value) { return __float2bfloat16(value); }
__host__ __device__ inline float to_float(bf16 value) { return __bfloat162float(value); }

// The 16 bits of a bfloat16 (for exact comparisons and printing), and back.
inline std::uint16_t bf16_bits(bf16 value) {
  std::uint16_t bits;
  std::memcpy(&bits, static_cast<const void*>(&value), sizeof bits);
  return bits;
}
inline bf16 bf16_from_bits(std::uint16_t bits) {
  bf16 value;
  std::memcpy(static_cast<void*>(&value), &bits, sizeof bits);
  return value;
}

}  // namespace wb
