// Stage 0 (exercise): the article's sequential distribution counting, the specification.
//
// seeds/001, "Distribution counting algorithm overview": O(N*(N+k)) (D1), so N above
// max_quadratic_host_items is refused.
#include <algorithm>
#include <string>

#include "counting.hpp"

namespace counting::WB_TRACK {

template <class T>
std::vector<entry<T>> dist_count_first_seen(std::span<const T> data) {
  const auto N = static_cast<std::int64_t>(data.size());
  if (N > max_quadratic_host_items) throw stage_refused("D1: O(N^2): N is above the limit");
  std::vector<entry<T>> freq_t;  // the article's FREQ_T array; ft_item is freq_t.size()
  // TODO(counting/0): the article's dist_count: for each item, count its duplicates after it
  // and append (value, count) to freq_t unless the value is already there.
  return freq_t;
}

template <class T>
std::vector<entry<T>> dist_count(std::span<const T> data) {
  std::vector<entry<T>> table = dist_count_first_seen(data);
  // The chapter's one change to the article's output: ascending value order.
  std::sort(table.begin(), table.end(), [](const entry<T>& a, const entry<T>& b) { return a.value < b.value; });
  return table;
}

template std::vector<entry<std::int8_t>> dist_count_first_seen(std::span<const std::int8_t>);
template std::vector<entry<std::int64_t>> dist_count_first_seen(std::span<const std::int64_t>);
template std::vector<entry<std::int8_t>> dist_count(std::span<const std::int8_t>);
template std::vector<entry<std::int64_t>> dist_count(std::span<const std::int64_t>);

}  // namespace counting::WB_TRACK
