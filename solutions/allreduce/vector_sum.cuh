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
  vec16<T> acc = reinterpret_cast<const vec16<T>*>(terms.at[0])[v];
  // Unrolled over the most terms there can be: the loads do not depend on each other, so the
  // compiler issues them all before the first addition waits for one.
#pragma unroll
  for (int k = 1; k < max_ranks; ++k) {
    if (k < terms.count) acc = add(acc, reinterpret_cast<const vec16<T>*>(terms.at[k])[v]);
  }
  return acc;
}

// Element i of each term, added in term order (the tail past the last whole vector).
template <class T>
__device__ __forceinline__ T sum_scalar(const pointer_list<T>& terms, std::int64_t i) {
  T acc = terms.at[0][i];
  for (int k = 1; k < terms.count; ++k) acc = add(acc, terms.at[k][i]);
  return acc;
}

}  // namespace allreduce::WB_TRACK
