// From a 256-bin histogram of int8 items to the frequency table: the host-side part
// (stages 5, 6, 8, the defective pipelines). histogram_table.cuh adds the device function.
//
// The bins are indexed by the item's raw byte, bins[(uint8_t)v], which is what the counting
// kernels can compute for free. Ascending VALUE order is then bins 128..255 (values -128..-1)
// followed by bins 0..127 (values 0..127): the value of rank j (0..255) is j - 128 and lives
// in bin j ^ 0x80.
#pragma once

#include <cstdint>

#include "counting.hpp"

namespace counting::detail {

inline constexpr int histogram_bins = 256;

// Writes the table of `bins` (device memory) to `out` with a one-block kernel on `stream`
// (histogram_table.cu).
void write_histogram_table(const std::uint64_t* bins, device_table<std::int8_t> out, cudaStream_t stream = 0);

}  // namespace counting::detail
