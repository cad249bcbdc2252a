// Sorted input data for the merge chapter (see data.hpp).
#include "data.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "wb/generate.hpp"

namespace merge {
namespace {

template <class K>
double range_lo() {
  if constexpr (std::is_floating_point_v<K>) return -1e9;
  return static_cast<double>(std::numeric_limits<K>::lowest());
}
template <class K>
double range_hi() {
  if constexpr (std::is_floating_point_v<K>) return 1e9;
  return static_cast<double>(std::numeric_limits<K>::max());
}

// A key from a position x in [0, 1] of [lo, hi], clamped into K's range.
template <class K>
K key_at(double x, double lo, double hi) {
  const double v = lo + x * (hi - lo);
  if constexpr (std::is_floating_point_v<K>) {
    return static_cast<K>(v);
  } else {
    if (v <= static_cast<double>(std::numeric_limits<K>::lowest())) return std::numeric_limits<K>::lowest();
    // doubles round 2^63-1 up to 2^63: compare with the largest double below it
    if (v >= std::nextafter(static_cast<double>(std::numeric_limits<K>::max()), 0.0)) return std::numeric_limits<K>::max();
    return static_cast<K>(std::floor(v));
  }
}

// Jittered strata: element i is uniform in the i-th of `count` equal strata of [lo, hi],
// so the sequence is sorted by construction (floating-point operations are monotone).
template <class K>
std::vector<K> stratified(std::int64_t count, std::uint64_t seed, double lo, double hi, double jitter_lo,
                          double jitter_width) {
  std::vector<K> out(static_cast<std::size_t>(count));
  wb::gen::rng rng(seed);
  K previous = std::numeric_limits<K>::lowest();
  for (std::int64_t i = 0; i < count; ++i) {
    const double u = jitter_lo + jitter_width * rng.unit();
    K key = key_at<K>((static_cast<double>(i) + u) / static_cast<double>(count), lo, hi);
    if (key < previous) key = previous;  // guards the last bit of rounding
    out[static_cast<std::size_t>(i)] = previous = key;
  }
  return out;
}

// Sorted random values over [lo, hi]: the running sum of random gaps (uniform in [0, 1)),
// scaled so that the sum of count + 1 gaps spans the range. Like a sorted random sample, the
// k-th value strays from its "fair share" position by about sqrt(k) gaps, so two such inputs
// interleave irregularly. Two passes with the same seed: the first only sums the gaps.
template <class K>
std::vector<K> random_walk(std::int64_t count, std::uint64_t seed, double lo, double hi) {
  std::vector<K> out(static_cast<std::size_t>(count));
  double total = 0;
  {
    wb::gen::rng rng(seed);
    for (std::int64_t i = 0; i <= count; ++i) total += rng.unit();
  }
  wb::gen::rng rng(seed);
  const double scale = total > 0 ? 1.0 / total : 0.0;
  double sum = 0;
  K previous = std::numeric_limits<K>::lowest();
  for (std::int64_t i = 0; i < count; ++i) {
    sum += rng.unit();
    K key = key_at<K>(std::min(sum * scale, 1.0), lo, hi);
    if (key < previous) key = previous;  // guards the last bit of rounding
    out[static_cast<std::size_t>(i)] = previous = key;
  }
  return out;
}

}  // namespace

const std::vector<distribution>& all_distributions() {
  static const std::vector<distribution> all = {distribution::uniform,     distribution::duplicates,
                                                distribution::all_equal,   distribution::a_below_b,
                                                distribution::b_below_a,   distribution::interleaved,
                                                distribution::extremes};
  return all;
}

std::string to_string(distribution d) {
  switch (d) {
    case distribution::uniform: return "uniform";
    case distribution::duplicates: return "duplicates";
    case distribution::all_equal: return "all-equal";
    case distribution::a_below_b: return "a-below-b";
    case distribution::b_below_a: return "b-below-a";
    case distribution::interleaved: return "interleaved";
    case distribution::extremes: return "extremes";
  }
  return "?";
}

std::optional<distribution> parse_distribution(const std::string& name) {
  for (const distribution d : all_distributions()) {
    if (to_string(d) == name) return d;
  }
  return std::nullopt;
}

template <class K>
std::vector<K> sorted_keys(std::int64_t count, distribution d, std::uint64_t seed, int which) {
  if (count < 0) throw std::invalid_argument("sorted_keys: negative count");
  const double lo = range_lo<K>();
  const double hi = range_hi<K>();
  const double mid = lo / 2 + hi / 2;
  seed = seed * 2 + static_cast<std::uint64_t>(which);
  switch (d) {
    case distribution::uniform:
      return random_walk<K>(count, seed, lo, hi);
    case distribution::duplicates: {  // 8 keys spread over the range, the same for A and B
      std::vector<K> out = stratified<K>(count, seed, 0.0, 8.0, 0.0, 1.0);
      for (K& key : out) key = key_at<K>(std::floor(static_cast<double>(key)) / 8.0, lo / 4, hi / 4);
      return out;
    }
    case distribution::all_equal:
      return std::vector<K>(static_cast<std::size_t>(count), static_cast<K>(7));
    case distribution::a_below_b:
      return which == 0 ? random_walk<K>(count, seed, lo, mid) : random_walk<K>(count, seed, mid + 1, hi);
    case distribution::b_below_a:
      return which == 1 ? random_walk<K>(count, seed, lo, mid) : random_walk<K>(count, seed, mid + 1, hi);
    case distribution::interleaved:  // A at the start of each of `count` strata, B in its middle
      return stratified<K>(count, seed, lo / 2, hi / 2, which == 0 ? 0.0 : 0.5, 0.0);
    case distribution::extremes: {
      std::vector<K> out = wb::gen::extremes<K>(static_cast<std::size_t>(count), seed);
      std::sort(out.begin(), out.end());
      return out;
    }
  }
  throw std::invalid_argument("sorted_keys: unknown distribution");
}

std::vector<value_t> tag_values(std::int64_t count, std::int64_t first) {
  std::vector<value_t> out(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) out[static_cast<std::size_t>(i)] = static_cast<value_t>((first + i) & 0x7fffffff);
  return out;
}

template <class K>
std::int64_t first_unsorted(const std::vector<K>& data) {
  for (std::size_t i = 1; i < data.size(); ++i) {
    if (data[i] < data[i - 1]) return static_cast<std::int64_t>(i);
  }
  return -1;
}

#define MERGE_INSTANTIATE(K)                                                                        \
  template std::vector<K> sorted_keys<K>(std::int64_t, distribution, std::uint64_t, int);          \
  template std::int64_t first_unsorted<K>(const std::vector<K>&);
MERGE_FOR_EACH_KEY(MERGE_INSTANTIATE)
#undef MERGE_INSTANTIATE

}  // namespace merge
