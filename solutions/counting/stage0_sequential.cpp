// Stage 0: the article's sequential distribution counting, the specification.
//
// The DCA article, "Distribution counting algorithm overview": for each item data[index], count
// the items after it that are equal (loop { 2 }), then look the value up in the table built
// so far (loop { 3 }) and append (value, count) if it is not there. Only the FIRST occurrence
// of a value is appended, and its count covers every later occurrence, so the table is right.
// It is also about N*(N+k)/2 comparisons (D1): 12 min 38 s for 10^6 items in the article's
// Table 1. Kept as written, apart from its 64-bit loop counters, as the plain sequential
// specification every other stage is compared with on small inputs.
#include <cstdio>
#include <string>

#include "counting.hpp"

namespace counting::WB_TRACK {

namespace {
std::string refusal(std::int64_t n) {
  char text[256];
  std::snprintf(text, sizeof text,
                "D1: the article's algorithm is O(N^2): N = %lld is above the limit of %lld items "
                "(about %.3g comparisons)",
                static_cast<long long>(n), static_cast<long long>(max_quadratic_host_items),
                quadratic_comparisons(static_cast<double>(n), 0));
  return text;
}
}  // namespace

template <class T>
std::vector<entry<T>> dist_count_first_seen(std::span<const T> data) {
  const auto N = static_cast<std::int64_t>(data.size());
  if (N > max_quadratic_host_items) throw stage_refused(refusal(N));  // D1

  std::vector<entry<T>> freq_t;  // the article's FREQ_T array; ft_item is freq_t.size()
  for (std::int64_t index = 0; index < N; ++index) {  // { 1 }
    std::uint64_t count = 1;
    for (std::int64_t nindex = index + 1; nindex < N; ++nindex) {  // { 2 }
      if (data[nindex] == data[index]) ++count;
    }
    bool exists = false;
    // { 3 }: only the entries written so far (ft_item - 1 down to 0); compare D3 in stage 1.
    for (auto item = static_cast<std::int64_t>(freq_t.size()) - 1; item >= 0 && !exists; --item) {
      if (freq_t[item].value == data[index]) exists = true;
    }
    if (!exists) freq_t.push_back({data[index], count});
  }
  return freq_t;
}

}  // namespace counting::WB_TRACK

#include "stage0_sequential_host.inl"  // the ascending table and the instantiations, shared by both tracks
