// bfloat16 on the cpu backend: the subset of CUDA's <cuda_bf16.h> the workbook uses, with the
// same names, so one kernel source serves both backends (included by wb/bf16.hpp).
//
// bfloat16 is the top half of an IEEE float: 1 sign bit, 8 exponent bits (the range of a
// float), 7 stored mantissa bits (unit roundoff 2^-8). A float becomes a bfloat16 by rounding
// its lower 16 bits away, to nearest with ties to even, as __float2bfloat16 does on a GPU;
// NaN stays NaN and values past the largest bfloat16 become infinities.
#pragma once

#include <cstdint>
#include <cstring>

struct __nv_bfloat16 {
  std::uint16_t __x;  // the bits, as CUDA's type names them
};
struct __nv_bfloat162 {
  __nv_bfloat16 x, y;
};

inline __nv_bfloat16 __float2bfloat16(float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) {  // NaN: keep the sign, make it a quiet NaN
    return __nv_bfloat16{static_cast<std::uint16_t>((bits >> 16) | 0x0040u)};
  }
  // Round to nearest, ties to even: add 0x7FFF plus the lowest kept bit, then truncate. A
  // carry out of the mantissa bumps the exponent, which is right (up to infinity).
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return __nv_bfloat16{static_cast<std::uint16_t>(bits >> 16)};
}
inline __nv_bfloat16 __float2bfloat16_rn(float value) { return __float2bfloat16(value); }

inline float __bfloat162float(__nv_bfloat16 value) {
  const std::uint32_t bits = static_cast<std::uint32_t>(value.__x) << 16;
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

inline __nv_bfloat162 __floats2bfloat162_rn(float low, float high) {
  return __nv_bfloat162{__float2bfloat16(low), __float2bfloat16(high)};
}
