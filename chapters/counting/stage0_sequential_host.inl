// The rest of stage 0, shared by both tracks.
// Included by: solutions/counting/stage0_sequential.cpp and
// exercises/counting/stage0_sequential.cpp, at their end.
// Launches: nothing (stage 0 runs on the host).
// Here: the table in ascending order, the instantiations.
#include <algorithm>

namespace counting::WB_TRACK {

template <class T>
std::vector<entry<T>> dist_count(std::span<const T> data) {
  std::vector<entry<T>> table = dist_count_first_seen(data);
  // The chapter's one change to the article's output: ascending value order (counting.hpp).
  std::sort(table.begin(), table.end(), [](const entry<T>& a, const entry<T>& b) { return a.value < b.value; });
  return table;
}

template std::vector<entry<std::int8_t>> dist_count_first_seen(std::span<const std::int8_t>);
template std::vector<entry<std::int64_t>> dist_count_first_seen(std::span<const std::int64_t>);
template std::vector<entry<std::int8_t>> dist_count(std::span<const std::int8_t>);
template std::vector<entry<std::int64_t>> dist_count(std::span<const std::int64_t>);

}  // namespace counting::WB_TRACK
