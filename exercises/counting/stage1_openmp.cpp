// Stage 1 (exercise): the article's OpenMP version, fixed (D2, D3, D4).
//
// seeds/001, "Code optimized with Intel OpenMP". Keep the O(N^2) algorithm, share the work
// right:
//   D2  one `#pragma omp for` over ALL N items (not N / threads per thread);
//   D4  a 64-bit loop index; no parallel region nested in another; no lock in the loop;
//   D3  an item reports its value only if no EARLIER item has the same value: read the
//       data, which nobody writes, not a shared table (whose zeroed entries look like 0).
// Each thread appends (value, count) to its own vector found[thread]; join and sort them
// after the parallel region (the values are disjoint). This file is host code compiled with
// -fopenmp on both backends.
#include <omp.h>

#include <algorithm>

#include "counting.hpp"
#include "wb/exercise.hpp"

namespace counting::WB_TRACK {

template <class T>
std::vector<entry<T>> omp_dist_count(std::span<const T> data, int threads) {
  const auto N = static_cast<std::int64_t>(data.size());
  if (N > max_quadratic_host_items) throw stage_refused("D1: O(N^2): N is above the limit");
  if (threads <= 0) threads = omp_get_max_threads();
  std::vector<std::vector<entry<T>>> found(static_cast<std::size_t>(threads));  // one table per thread
  // TODO(counting/1): the parallel loop (#pragma omp parallel num_threads(threads), then
  // #pragma omp for over every index), then delete the next line.
  wb::not_implemented("counting/1 openmp");

  std::vector<entry<T>> table;
  for (const auto& part : found) table.insert(table.end(), part.begin(), part.end());
  std::sort(table.begin(), table.end(), [](const entry<T>& a, const entry<T>& b) { return a.value < b.value; });
  return table;
}

template std::vector<entry<std::int8_t>> omp_dist_count(std::span<const std::int8_t>, int);
template std::vector<entry<std::int64_t>> omp_dist_count(std::span<const std::int64_t>, int);

}  // namespace counting::WB_TRACK
