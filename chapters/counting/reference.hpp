// The reference table the executable checks every stage against: the specification (stage 0)
// where it is quick, else stage 2 (the solution's: a counting array, or a sort and a
// run-length pass), for large int64 inputs with the sort split over the host's cores.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "counting.hpp"
#include "data.hpp"

namespace counting {

// Stage 2's int64 path spread over the host's cores (parallel_sort), then the same run-length pass.
template <class T>
std::vector<entry<T>> parallel_sorted_count(const std::vector<T>& data) {
  std::vector<T> v(data);
  parallel_sort(v);
  std::vector<entry<T>> table;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j < v.size() && v[j] == v[i]) ++j;
    table.push_back({v[i], static_cast<std::uint64_t>(j - i)});
    i = j;
  }
  return table;
}

// The stage the reference comes from for n items: 0 up to 20000 items, else 2.
inline int reference_stage(std::int64_t n) { return n <= 20000 ? 0 : 2; }

template <class T>
std::vector<entry<T>> reference_table(const std::vector<T>& data) {
  const auto n = static_cast<std::int64_t>(data.size());
  if (reference_stage(n) == 0) return solution::dist_count<T>(data);
  if (std::is_same_v<T, std::int64_t> && n > (std::int64_t{1} << 20)) return parallel_sorted_count<T>(data);
  return solution::count_cpu<T>(data);
}

}  // namespace counting
