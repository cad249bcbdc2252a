// The sum the device layer's scans add with: a + b, wrapping for integers.
#pragma once

#include <type_traits>

#include "wb/runtime.hpp"

namespace wb::device {

// a + b, wrapping for integers (signed overflow is undefined in C++; unsigned arithmetic
// wraps), so a scan of large values is still defined to the last bit. The same machine
// instruction as a plain +.
template <class T>
__host__ __device__ inline T plus(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

}  // namespace wb::device
