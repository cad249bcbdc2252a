// The O(N^2) stages (0, 1, 3, 4) on large inputs: before running one, the executable times it on
// two small samples and extrapolates with the comparison count of the article's algorithm; a
// stage whose estimate passes the budget (--budget) is refused with that estimate (the
// article's Table 1 gives 12 min 38 s for 10^6 items, 232 h for 10^9).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>

#include <fmt/format.h>

#include "counting.hpp"

namespace counting {

inline std::string human_seconds(double s) {
  if (s < 1e-3) return fmt::format("{:.0f} us", s * 1e6);
  if (s < 1) return fmt::format("{:.1f} ms", s * 1e3);
  if (s < 120) return fmt::format("{:.1f} s", s);
  if (s < 7200) return fmt::format("{:.0f} min", s / 60);
  if (s < 86400 * 3) return fmt::format("{:.1f} h", s / 3600);
  return fmt::format("{:.0f} days", s / 86400);
}

// The estimated seconds of a quadratic stage on n items with k distinct values, from
// seconds_on(items), the time of one run on the first `items` items: t(n) = t(s) + a (C(n) -
// C(s)), where the slope a comes from samples of s and s/2 items (so fixed costs, like starting
// threads, do not scale). Throws stage_refused when it passes budget_s. Returns the estimate
// as text ("" when the input is no larger than the sample: no estimate needed).
inline std::string require_quadratic_budget(std::int64_t n, double k, double budget_s,
                                            const std::function<double(std::int64_t)>& seconds_on) {
  const std::int64_t s = std::min<std::int64_t>(n, wb::backend_is_cuda ? 32768 : 2048);
  if (s >= n) return "";
  const double t_half = seconds_on(s / 2);
  const double t_full = seconds_on(s);
  auto comparisons = [&](double items) { return quadratic_comparisons(items, std::min(k, items)); };
  const double slope = std::max(0.0, t_full - t_half) / (comparisons(double(s)) - comparisons(double(s / 2)));
  const double estimate = t_full + slope * (comparisons(double(n)) - comparisons(double(s)));
  if (estimate > budget_s) {
    throw stage_refused(fmt::format("O(N^2), estimated {} (from {} and {} items)", human_seconds(estimate), s / 2, s));
  }
  return human_seconds(estimate);
}

}  // namespace counting
