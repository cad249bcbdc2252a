// Stage 0 (exercise): the article's sequential distribution counting, the specification.
//
// The DCA article, "Distribution counting algorithm overview": O(N*(N+k)) (D1), so N above
// max_quadratic_host_items is refused.
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

}  // namespace counting::WB_TRACK

#include "stage0_sequential_host.inl"  // the ascending table and the instantiations, shared by both tracks
