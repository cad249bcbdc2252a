// Stage 5's 16-byte vectors, shared by both tracks: the vector type of each input type and
// the sum of its lanes as the sum type S (int32 lanes widened first: R5).
#pragma once

#include <cstdint>

#include "wb/kernel.hpp"

namespace reduction {

template <class T>
struct vector16;
template <>
struct vector16<std::int32_t> {
  using type = int4;
};
template <>
struct vector16<float> {
  using type = float4;
};
template <>
struct vector16<std::int64_t> {
  using type = longlong2;
};
template <>
struct vector16<double> {
  using type = double2;
};

template <class S>
__device__ __forceinline__ S lanes_sum(const int4& v) {
  return (static_cast<S>(v.x) + static_cast<S>(v.y)) + (static_cast<S>(v.z) + static_cast<S>(v.w));
}
template <class S>
__device__ __forceinline__ S lanes_sum(const float4& v) {
  return (v.x + v.y) + (v.z + v.w);
}
template <class S>
__device__ __forceinline__ S lanes_sum(const longlong2& v) {
  return static_cast<S>(v.x) + static_cast<S>(v.y);
}
template <class S>
__device__ __forceinline__ S lanes_sum(const double2& v) {
  return v.x + v.y;
}

}  // namespace reduction
