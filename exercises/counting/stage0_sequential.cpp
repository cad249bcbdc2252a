// Stage 0 (exercise): the article's sequential distribution counting, the specification.
//
// seeds/001, "Distribution counting algorithm overview". For each item data[index]:
//   { 2 } count the items AFTER it that are equal (count starts at 1: the item itself);
//   { 3 } look data[index] up in the table built so far (entries ft_item-1 down to 0 only);
//   append (data[index], count) if it is not there.
// Only a value's first occurrence is appended, and its count covers every later occurrence.
// O(N*(N+k)) (D1): refuse N above max_quadratic_host_items by throwing stage_refused.
#include <algorithm>
#include <string>

#include "counting.hpp"
#include "wb/exercise.hpp"

namespace counting::WB_TRACK {

template <class T>
std::vector<entry<T>> dist_count_first_seen(std::span<const T> data) {
  const auto N = static_cast<std::int64_t>(data.size());
  if (N > max_quadratic_host_items) throw stage_refused("D1: O(N^2): N is above the limit");
  std::vector<entry<T>> freq_t;  // the article's FREQ_T array; ft_item is freq_t.size()
  // TODO(counting/0): the three loops of dist_count, then delete the next line.
  wb::not_implemented("counting/0 sequential");
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
