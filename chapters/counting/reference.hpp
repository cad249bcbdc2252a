// The reference table the executable checks every stage against: the specification (stage 0)
// where it is quick, else stage 2 (the solution's: a counting array, or a sort and a
// run-length pass), for large int64 inputs with the sort split over the host's cores.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <type_traits>
#include <vector>

#include "counting.hpp"

namespace counting {

// std::sort split over the host's cores: sort the parts in parallel, merge them pairwise in
// parallel (--sorted inputs, and the reference below).
template <class T>
void parallel_sort(std::vector<T>& v) {
  const std::size_t parts = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 64);
  std::vector<std::size_t> bounds(parts + 1);
  for (std::size_t p = 0; p <= parts; ++p) bounds[p] = v.size() * p / parts;
  auto in_parallel = [](std::size_t count, const auto& work) {
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < count; ++i) threads.emplace_back(work, i);
    for (auto& t : threads) t.join();
  };
  in_parallel(parts, [&](std::size_t p) { std::sort(v.begin() + bounds[p], v.begin() + bounds[p + 1]); });
  for (std::size_t width = 1; width < parts; width *= 2) {
    const std::size_t pairs = (parts + 2 * width - 1) / (2 * width);
    in_parallel(pairs, [&](std::size_t i) {
      const std::size_t lo = 2 * width * i, mid = std::min(lo + width, parts), hi = std::min(lo + 2 * width, parts);
      std::inplace_merge(v.begin() + bounds[lo], v.begin() + bounds[mid], v.begin() + bounds[hi]);
    });
  }
}

// Stage 2's int64 path spread over the host's cores: the parallel sort, then the same
// run-length pass.
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
