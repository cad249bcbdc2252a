// Stage 2: what a CPU programmer writes instead of the article's O(N^2) search.
//
//   int8:  256 possible values, so a counting array: one pass, one increment per item
//          (the "counting sort" the article mentions and sets aside; Sedgewick's
//          key-indexed counting). O(N + 256).
//   int64: too many possible values for an array: sort a copy, then every run of equal
//          values is one table row (run-length encoding). O(N log N), and the output comes
//          out in ascending order for free.
#include <algorithm>
#include <array>
#include <type_traits>

#include "counting.hpp"

namespace counting::WB_TRACK {

template <class T>
std::vector<entry<T>> count_cpu(std::span<const T> data) {
  std::vector<entry<T>> table;
  if constexpr (std::is_same_v<T, std::int8_t>) {
    std::array<std::uint64_t, 256> counts{};
    for (const T v : data) ++counts[static_cast<std::uint8_t>(v)];
    for (int value = -128; value <= 127; ++value) {
      const std::uint64_t c = counts[static_cast<std::uint8_t>(value)];
      if (c > 0) table.push_back({static_cast<T>(value), c});
    }
  } else {
    std::vector<T> sorted(data.begin(), data.end());
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size();) {
      std::size_t j = i + 1;
      while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
      table.push_back({sorted[i], static_cast<std::uint64_t>(j - i)});
      i = j;
    }
  }
  return table;
}

template std::vector<entry<std::int8_t>> count_cpu(std::span<const std::int8_t>);
template std::vector<entry<std::int64_t>> count_cpu(std::span<const std::int64_t>);

}  // namespace counting::WB_TRACK
