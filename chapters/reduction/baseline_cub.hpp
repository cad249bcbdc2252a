// The library row of the report: cub::DeviceReduce::Sum (cuda backend only, WB_HAVE_BASELINE).
#pragma once

#include <cstddef>
#include <cstdint>

#include "reduction.hpp"

namespace reduction::baseline {

// Bytes of temporary storage cub_sum needs for n items.
template <class T>
std::size_t cub_sum_temp_bytes(std::int64_t n);

// *out = sum of in[0, n) by cub::DeviceReduce::Sum, accumulating in sum_t<T> (int64 for
// int32 input, like the stages), on the default stream.
template <class T>
void cub_sum(const T* in, std::int64_t n, sum_t<T>* out, void* temp, std::size_t temp_bytes);

}  // namespace reduction::baseline
