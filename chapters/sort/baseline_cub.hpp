// The library baselines of the report table: CUB's radix sort (stages 1-5) and CUB's stable
// merge sort (stage 6), keys only or key-value.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sort::baseline {

// values_in == nullptr: keys only. temp == nullptr: returns the temporary bytes needed.
template <class K>
std::size_t cub_radix_sort(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                           std::int64_t n, void* temp, std::size_t temp_bytes);
// Copies the input to the output, then sorts there (CUB's merge sort works in place).
template <class K>
std::size_t cub_merge_sort(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                           std::int64_t n, void* temp, std::size_t temp_bytes);

}  // namespace sort::baseline
