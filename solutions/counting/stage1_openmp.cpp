// Stage 1: the article's OpenMP version, fixed.
//
// The DCA article's "Code optimized with Intel OpenMP" (omp_dist_count) keeps the O(N^2) algorithm
// and spreads it over the cores, with four defects:
//   D2  each thread takes N / max_threads items: the N % max_threads items at the end are
//       never counted;
//   D3  the "already counted?" search runs over the whole table, FT_SIZE - 1 down to 0, so it
//       also reads the zeroed entries nobody wrote: value 0 always looks counted already;
//   D4  `int index` over an __int64 range; a `parallel for` nested in the parallel region;
//       one global lock around the table for every item (no scaling, the article's Fig. 1).
// The fix keeps the algorithm (a linear search per item) and changes how the work is shared:
// ONE parallel loop over all N items (D2) with 64-bit indices (D4); each item decides for
// itself whether it is the first occurrence of its value by looking at the items BEFORE it,
// which nobody writes, instead of at a shared table (D3); only a first occurrence counts its
// duplicates and appends to its thread's own table, so no lock is taken in the loop (D4).
// The per-thread tables hold disjoint values: joining them is a concatenation and a sort.
//
// The OpenMP code lives in this .cpp file on purpose: it is compiled by the host compiler
// with -fopenmp on both backends (nvcc never sees it).
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "counting.hpp"

namespace counting::WB_TRACK {

template <class T>
std::vector<entry<T>> omp_dist_count(std::span<const T> data, int threads) {
  const auto N = static_cast<std::int64_t>(data.size());  // D4: 64-bit, like the data
  if (N > max_quadratic_host_items) {
    char text[200];
    std::snprintf(text, sizeof text, "D1: O(N^2): N = %lld is above the limit of %lld items",
                  static_cast<long long>(N), static_cast<long long>(max_quadratic_host_items));
    throw stage_refused(text);
  }
  if (threads <= 0) threads = omp_get_max_threads();
  const T* d = data.data();
  std::vector<std::vector<entry<T>>> found(static_cast<std::size_t>(threads));  // one table per thread

#pragma omp parallel num_threads(threads)
  {
    std::vector<entry<T>>& mine = found[static_cast<std::size_t>(omp_get_thread_num())];
    // D2: one loop over ALL items; OpenMP hands out the chunks (dynamic: the cost of an item
    // depends on where its value first occurs). D4: no nested parallel region, no lock.
#pragma omp for schedule(dynamic, 256)
    for (std::int64_t index = 0; index < N; ++index) {
      const T value = d[index];
      // D3: "counted already?" means "occurs earlier in the input", read from the data.
      bool first = true;
      for (std::int64_t j = 0; j < index && first; ++j) first = d[j] != value;
      if (!first) continue;
      std::uint64_t count = 1;
      for (std::int64_t j = index + 1; j < N; ++j) count += d[j] == value ? 1 : 0;
      mine.push_back({value, count});
    }
  }

  std::vector<entry<T>> table;
  for (const auto& part : found) table.insert(table.end(), part.begin(), part.end());
  std::sort(table.begin(), table.end(), [](const entry<T>& a, const entry<T>& b) { return a.value < b.value; });
  return table;
}

template std::vector<entry<std::int8_t>> omp_dist_count(std::span<const std::int8_t>, int);
template std::vector<entry<std::int64_t>> omp_dist_count(std::span<const std::int64_t>, int);

}  // namespace counting::WB_TRACK
