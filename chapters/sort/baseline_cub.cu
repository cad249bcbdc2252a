// CUB baselines (cuda backend only).
#include "baseline_cub.hpp"

#if defined(WB_BACKEND_CUDA)

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include "key_bits.hpp"
#include "wb/check.hpp"

namespace sort::baseline {

namespace {
// CUB's merge sort takes a comparator: the chapter's order.
template <class K>
struct chapter_less {
  __device__ bool operator()(const K& a, const K& b) const { return key_less(a, b); }
};
}  // namespace

template <class K>
std::size_t cub_radix_sort(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                           std::int64_t n, void* temp, std::size_t temp_bytes) {
  std::size_t bytes = temp_bytes;
  if (values_in == nullptr) {
    WB_CHECK(cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in, keys_out, n));
  } else {
    WB_CHECK(cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, values_in, values_out, n));
  }
  return bytes;
}

template <class K>
std::size_t cub_merge_sort(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                           std::int64_t n, void* temp, std::size_t temp_bytes) {
  std::size_t bytes = temp_bytes;
  if (temp != nullptr && n > 0) {
    WB_CHECK(cudaMemcpyAsync(keys_out, keys_in, static_cast<std::size_t>(n) * sizeof(K), cudaMemcpyDeviceToDevice));
    if (values_in != nullptr) {
      WB_CHECK(cudaMemcpyAsync(values_out, values_in, static_cast<std::size_t>(n) * 4, cudaMemcpyDeviceToDevice));
    }
  }
  if (values_in == nullptr) {
    WB_CHECK(cub::DeviceMergeSort::StableSortKeys(temp, bytes, keys_out, n, chapter_less<K>{}));
  } else {
    WB_CHECK(cub::DeviceMergeSort::StableSortPairs(temp, bytes, keys_out, values_out, n, chapter_less<K>{}));
  }
  return bytes;
}

#define SORT_INSTANTIATE_BASELINE(K)                                                                                \
  template std::size_t cub_radix_sort<K>(const K*, K*, const std::uint32_t*, std::uint32_t*, std::int64_t, void*, \
                                         std::size_t);                                                              \
  template std::size_t cub_merge_sort<K>(const K*, K*, const std::uint32_t*, std::uint32_t*, std::int64_t, void*, \
                                         std::size_t);
SORT_INSTANTIATE_BASELINE(std::uint32_t)
SORT_INSTANTIATE_BASELINE(std::int32_t)
SORT_INSTANTIATE_BASELINE(float)
SORT_INSTANTIATE_BASELINE(std::int64_t)

}  // namespace sort::baseline

#endif
