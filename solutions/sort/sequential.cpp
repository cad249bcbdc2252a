// Stage 0: the specification every kernel must match: std::stable_sort in the chapter's key
// order (key_bits.hpp), values moving with their keys.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <stdexcept>
#include <vector>

#include "sort.hpp"

namespace sort::WB_TRACK {

template <class K>
void sort_sequential(std::span<K> keys, std::span<std::uint32_t> values) {
  const auto less = [](K a, K b) { return key_less(a, b); };
  if (values.empty()) {
    std::stable_sort(keys.begin(), keys.end(), less);
    return;
  }
  if (values.size() != keys.size()) throw std::invalid_argument("sort_sequential: values must be empty or as many as keys");
  // Sort positions by key (stable: equal keys keep their positions' order), then gather.
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return less(keys[a], keys[b]); });
  std::vector<K> k(keys.size());
  std::vector<std::uint32_t> v(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    k[i] = keys[order[i]];
    v[i] = values[order[i]];
  }
  std::copy(k.begin(), k.end(), keys.begin());
  std::copy(v.begin(), v.end(), values.begin());
}

template void sort_sequential<std::uint32_t>(std::span<std::uint32_t>, std::span<std::uint32_t>);
template void sort_sequential<std::int32_t>(std::span<std::int32_t>, std::span<std::uint32_t>);
template void sort_sequential<float>(std::span<float>, std::span<std::uint32_t>);
template void sort_sequential<std::int64_t>(std::span<std::int64_t>, std::span<std::uint32_t>);

}  // namespace sort::WB_TRACK
