// Stage 1 (exercise): the article's OpenMP version, fixed (D2, D3, D4).
//
// The DCA article's "Code optimized with Intel OpenMP" keeps the O(N^2) algorithm and spreads it over
// the cores, but drops the last N % threads items (D2), takes table entries nobody wrote for
// value 0 (D3), and serialises every item on one lock with a 32-bit index (D4). Keep the
// algorithm; share the work right. This file is host code compiled with -fopenmp on both
// backends.
#include <omp.h>

#include <algorithm>

#include "counting.hpp"

namespace counting::WB_TRACK {

template <class T>
std::vector<entry<T>> omp_dist_count(std::span<const T> data, int threads) {
  const auto N = static_cast<std::int64_t>(data.size());
  if (N > max_quadratic_host_items) throw stage_refused("D1: O(N^2): N is above the limit");
  if (threads <= 0) threads = omp_get_max_threads();
  std::vector<std::vector<entry<T>>> found(static_cast<std::size_t>(threads));  // one table per thread
  // TODO(counting/1): the article's loop over all N items, shared by `threads` OpenMP threads
  // without a lock; each thread appends the rows it finds to found[its thread number].

  std::vector<entry<T>> table;
  for (const auto& part : found) table.insert(table.end(), part.begin(), part.end());
  std::sort(table.begin(), table.end(), [](const entry<T>& a, const entry<T>& b) { return a.value < b.value; });
  return table;
}

template std::vector<entry<std::int8_t>> omp_dist_count(std::span<const std::int8_t>, int);
template std::vector<entry<std::int64_t>> omp_dist_count(std::span<const std::int64_t>, int);

}  // namespace counting::WB_TRACK
