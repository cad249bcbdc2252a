// Stage 0: the specification every kernel must match: std::stable_sort in the chapter's key
// order (key_bits.hpp), values moving with their keys.
#include <cstdint>
#include <span>

#include "sort.hpp"

namespace sort::WB_TRACK {

template <class K>
void sort_sequential(std::span<K> keys, std::span<std::uint32_t> values) {
  // TODO(sort/0): sort the keys stably in the chapter's order (key_less, key_bits.hpp), the
  // values moving with their keys (PMPP §13.1: the result every parallel sort must match).
}

template void sort_sequential<std::uint32_t>(std::span<std::uint32_t>, std::span<std::uint32_t>);
template void sort_sequential<std::int32_t>(std::span<std::int32_t>, std::span<std::uint32_t>);
template void sort_sequential<float>(std::span<float>, std::span<std::uint32_t>);
template void sort_sequential<std::int64_t>(std::span<std::int64_t>, std::span<std::uint32_t>);

}  // namespace sort::WB_TRACK
