// Small index helpers for host and device code of both tracks (64-bit: M12).
#pragma once

#include <cstdint>

#include "wb/device/min_max.hpp"
#include "wb/runtime.hpp"

namespace merge {

using wb::device::max_of;  // the device layer's (wb/device/min_max.hpp)
using wb::device::min_of;

// ceil(a / b) for a >= 0, b > 0, computed exactly in integers. `ceil((m+n)/threads)` with
// integer operands rounds DOWN first and then takes ceil of a whole number (M4, M5).
__host__ __device__ constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// p + offset, or null when p is null: value arrays are optional (keys-only merges pass null).
template <class T>
__host__ __device__ constexpr T* offset_or_null(T* p, std::int64_t offset) {
  return p == nullptr ? nullptr : p + offset;
}

}  // namespace merge
