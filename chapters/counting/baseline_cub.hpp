// The library baselines (cuda backend only; baseline_cub.cu): what a user would call instead of
// this chapter's kernels. The executable times them in the same run as the stages.
#pragma once

#include <cstddef>
#include <cstdint>

namespace counting::baseline {

// int8: cub::DeviceHistogram::HistogramEven over the items' raw bytes (uint8 samples, 256
// bins of width 1 over [0, 256): CUB's 8-bit fast path);
// bins[b] counts the items whose byte is b, i.e. value (int8_t)b.
// `temp` holds cub_histogram_temp_bytes(n) bytes.
std::size_t cub_histogram_temp_bytes(std::int64_t n);
void cub_histogram(const std::int8_t* in, std::int64_t n, unsigned* bins, void* temp, std::size_t temp_bytes);

// int64: cub::DeviceRadixSort::SortKeys, then cub::DeviceRunLengthEncode::Encode: the sorted
// distinct keys, their counts, and how many there are. `sorted` holds n keys.
std::size_t cub_sort_rle_temp_bytes(std::int64_t n);
void cub_sort_rle(const std::int64_t* in, std::int64_t n, std::int64_t* sorted, std::int64_t* keys,
                  std::uint64_t* counts, std::int64_t* runs, void* temp, std::size_t temp_bytes);

}  // namespace counting::baseline
