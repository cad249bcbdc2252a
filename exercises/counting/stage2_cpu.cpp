// Stage 2 (exercise): what a CPU programmer writes instead of the article's O(N^2) search:
// key-indexed counting where the values are few (int8), sort + run-length where they are not.
#include <algorithm>
#include <array>
#include <type_traits>

#include "counting.hpp"

namespace counting::WB_TRACK {

template <class T>
std::vector<entry<T>> count_cpu(std::span<const T> data) {
  std::vector<entry<T>> table;
  // TODO(counting/2): the table of `data` in ascending value order, in O(N + 256) for int8
  // and O(N log N) for int64.
  return table;
}

template std::vector<entry<std::int8_t>> count_cpu(std::span<const std::int8_t>);
template std::vector<entry<std::int64_t>> count_cpu(std::span<const std::int64_t>);

}  // namespace counting::WB_TRACK
