// min and max of two values, on the host and the device, in the one form the merge pieces
// (and the merge chapter's index arithmetic) write them: the same instructions everywhere.
#pragma once

#include "wb/runtime.hpp"

namespace wb::device {

template <class T>
__host__ __device__ constexpr T min_of(T a, T b) {
  return b < a ? b : a;
}
template <class T>
__host__ __device__ constexpr T max_of(T a, T b) {
  return a < b ? b : a;
}

}  // namespace wb::device
