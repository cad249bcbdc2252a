// Stage 2's device code, used again by stages 3 and 4: the sum of k vectors at one position,
// 16 bytes at a time (one 128-bit load per vector: four int32 or floats, two int64).
#pragma once

#include <cstdint>

#include "element.hpp"
#include "wb/kernel.hpp"

namespace allreduce::WB_TRACK {

// Vector v (elements [v * width, (v + 1) * width)) of each term, added in term order.
template <class T>
__device__ __forceinline__ vec16<T> sum_vec(const pointer_list<T>& terms, std::int64_t v) {
  // TODO(allreduce/2): load 16 bytes (a vec16<T>) at index v of every term and add them in term
  // order with allreduce::add.
  return {};
}

// Element i of each term, added in term order (the tail past the last whole vector).
template <class T>
__device__ __forceinline__ T sum_scalar(const pointer_list<T>& terms, std::int64_t i) {
  // TODO(allreduce/2): the same for one element.
  return {};
}

}  // namespace allreduce::WB_TRACK
