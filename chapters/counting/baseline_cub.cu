// The library baselines (baseline.hpp), cuda backend only.
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>

#include <algorithm>

#include "baseline_cub.hpp"
#include "wb/check.hpp"

namespace counting::baseline {

std::size_t cub_histogram_temp_bytes(std::int64_t n) {
  std::size_t bytes = 0;
  WB_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, bytes, static_cast<const unsigned char*>(nullptr),
                                               static_cast<unsigned*>(nullptr), 257, 0, 256, n));
  return bytes;
}

void cub_histogram(const std::int8_t* in, std::int64_t n, unsigned* bins, void* temp, std::size_t temp_bytes) {
  WB_CHECK(cub::DeviceHistogram::HistogramEven(temp, temp_bytes, reinterpret_cast<const unsigned char*>(in), bins,
                                               257, 0, 256, n));
}

std::size_t cub_sort_rle_temp_bytes(std::int64_t n) {
  std::size_t sort_bytes = 0;
  std::size_t rle_bytes = 0;
  WB_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, sort_bytes, static_cast<const std::int64_t*>(nullptr),
                                          static_cast<std::int64_t*>(nullptr), n));
  WB_CHECK(cub::DeviceRunLengthEncode::Encode(nullptr, rle_bytes, static_cast<const std::int64_t*>(nullptr),
                                              static_cast<std::int64_t*>(nullptr),
                                              static_cast<unsigned long long*>(nullptr),
                                              static_cast<std::int64_t*>(nullptr), n));
  return std::max(sort_bytes, rle_bytes);
}

void cub_sort_rle(const std::int64_t* in, std::int64_t n, std::int64_t* sorted, std::int64_t* keys,
                  std::uint64_t* counts, std::int64_t* runs, void* temp, std::size_t temp_bytes) {
  WB_CHECK(cub::DeviceRadixSort::SortKeys(temp, temp_bytes, in, sorted, n));
  WB_CHECK(cub::DeviceRunLengthEncode::Encode(temp, temp_bytes, static_cast<const std::int64_t*>(sorted), keys,
                                              reinterpret_cast<unsigned long long*>(counts), runs, n));
}

}  // namespace counting::baseline
