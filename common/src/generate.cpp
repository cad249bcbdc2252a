// Seeded data generators (see wb/generate.hpp). Only wb::gen::rng and integer arithmetic
// decide the values, so a seed gives the same data on every machine and compiler.
#include "wb/generate.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace wb::gen {
namespace {

using u128 = unsigned __int128;

// Integers: work with the offset from the type's lowest value, in unsigned arithmetic, so
// int8 and uint64 take the same path without overflow.
template <class T>
constexpr std::uint64_t int_span() {  // max - lowest
  using U = std::make_unsigned_t<T>;
  return static_cast<std::uint64_t>(static_cast<U>(static_cast<U>(std::numeric_limits<T>::max()) -
                                                   static_cast<U>(std::numeric_limits<T>::lowest())));
}
template <class T>
std::uint64_t int_offset(T value) {  // value - lowest
  using U = std::make_unsigned_t<T>;
  return static_cast<std::uint64_t>(static_cast<U>(static_cast<U>(value) - static_cast<U>(std::numeric_limits<T>::lowest())));
}
template <class T>
T int_from_offset(std::uint64_t offset) {  // lowest + offset (offset <= int_span)
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(std::numeric_limits<T>::lowest()) + static_cast<U>(offset)));
}

// Uniform in [0, span] (span may be 2^64 - 1).
std::uint64_t below_inclusive(rng& r, std::uint64_t span) {
  return span == ~std::uint64_t{0} ? r.next() : r.below(span + 1);
}

// Floating point in [lo, hi): written so that lo = lowest, hi = max does not overflow.
template <class T>
T float_between(rng& r, T lo, T hi) {
  const double u = r.unit();
  T value = static_cast<T>(static_cast<double>(lo) * (1.0 - u) + static_cast<double>(hi) * u);
  if (value >= hi && hi > lo) value = std::nextafter(hi, lo);  // rounding may reach hi
  if (value < lo) value = lo;
  return value;
}

template <class T>
void shuffle(std::vector<T>& values, rng& r) {  // Fisher-Yates with the exact rng
  for (std::size_t i = values.size(); i > 1; --i) {
    const std::size_t j = static_cast<std::size_t>(r.below(i));
    std::swap(values[i - 1], values[j]);
  }
}

// count strictly increasing values (when the type has that many) spread over the range
// with random gaps; integers exact, floating point exact integers in [-2^24, 2^24].
template <class T>
std::vector<T> increasing(std::size_t count, rng& r) {
  std::vector<T> out(count);
  if (count == 0) return out;
  std::uint64_t span;
  if constexpr (std::is_integral_v<T>) {
    span = int_span<T>();
  } else {
    span = std::uint64_t{1} << 25;
  }
  for (std::size_t k = 0; k < count; ++k) {
    const u128 begin = static_cast<u128>(k) * span / count;
    const u128 end = static_cast<u128>(k + 1) * span / count;
    const std::uint64_t gap = static_cast<std::uint64_t>(end - begin);
    const std::uint64_t offset = static_cast<std::uint64_t>(begin) + (gap > 0 ? r.below(gap) : 0);
    if constexpr (std::is_integral_v<T>) {
      out[k] = int_from_offset<T>(offset);
    } else {
      out[k] = static_cast<T>(static_cast<double>(offset) - static_cast<double>(std::uint64_t{1} << 24));
    }
  }
  return out;
}

}  // namespace

template <class T>
std::vector<T> uniform(std::size_t n, std::uint64_t seed, T lo, T hi) {
  if (!(lo <= hi)) throw std::invalid_argument("wb::gen::uniform: lo > hi");
  rng r(seed);
  std::vector<T> out(n);
  if constexpr (std::is_integral_v<T>) {
    const std::uint64_t base = int_offset(lo);
    const std::uint64_t span = int_offset(hi) - base;
    for (auto& v : out) v = int_from_offset<T>(base + below_inclusive(r, span));
  } else {
    if (!std::isfinite(lo) || !std::isfinite(hi)) throw std::invalid_argument("wb::gen::uniform: bounds must be finite");
    for (auto& v : out) v = float_between(r, lo, hi);
  }
  return out;
}

template <class T>
std::vector<T> few_distinct(std::size_t n, std::uint64_t seed, std::size_t distinct) {
  if (distinct == 0) throw std::invalid_argument("wb::gen::few_distinct: distinct must be >= 1");
  rng r(seed);
  std::vector<T> out(n);
  if constexpr (std::is_integral_v<T>) {
    const std::uint64_t span = int_span<T>();
    const u128 values = static_cast<u128>(span) + 1;
    const std::uint64_t d = static_cast<u128>(distinct) > values ? static_cast<std::uint64_t>(values)
                                                                  : static_cast<std::uint64_t>(distinct);
    if (d == 1) {
      std::fill(out.begin(), out.end(), T{0});
      return out;
    }
    // Value k of d: lowest + k * span / (d - 1), so lowest and max are both among them.
    for (auto& v : out) {
      const std::uint64_t k = r.below(d);
      v = int_from_offset<T>(static_cast<std::uint64_t>(static_cast<u128>(k) * span / (d - 1)));
    }
  } else {
    const auto half = static_cast<std::int64_t>(distinct / 2);
    for (auto& v : out) v = static_cast<T>(static_cast<std::int64_t>(r.below(distinct)) - half);
  }
  return out;
}

template <class T>
std::vector<T> all_equal(std::size_t n, T value) {
  return std::vector<T>(n, value);
}

template <class T>
std::vector<T> extremes(std::size_t n, std::uint64_t seed) {
  using lim = std::numeric_limits<T>;
  std::vector<T> pool;
  if constexpr (std::is_integral_v<T>) {
    pool = {lim::lowest(), static_cast<T>(lim::lowest() + 1), T{0}, T{1}, static_cast<T>(lim::max() - 1), lim::max()};
    if constexpr (std::is_signed_v<T>) pool.push_back(T{-1});
  } else {
    pool = {lim::lowest(), std::nextafter(lim::lowest(), T{0}), T{-1}, T{0}, lim::denorm_min(), lim::min(),
            T{1}, std::nextafter(lim::max(), T{0}), lim::max()};
  }
  rng r(seed);
  std::vector<T> out(n);
  for (auto& v : out) v = pool[static_cast<std::size_t>(r.below(pool.size()))];
  return out;
}

template <class T>
std::vector<T> zipf(std::size_t n, std::uint64_t seed, std::size_t distinct, double s) {
  if (distinct == 0) throw std::invalid_argument("wb::gen::zipf: distinct must be >= 1");
  if (!(s >= 0) || !std::isfinite(s)) throw std::invalid_argument("wb::gen::zipf: s must be finite and >= 0");
  if constexpr (std::is_integral_v<T>) {
    if (static_cast<std::uint64_t>(distinct - 1) > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) {
      throw std::invalid_argument("wb::gen::zipf: distinct - 1 = " + std::to_string(distinct - 1) +
                                  " does not fit in the element type");
    }
  }
  // Cumulative weights 1/(r+1)^s; a draw is the first rank whose cumulative weight passes
  // u * total. (pow() may differ in the last bit between C libraries; a draw could only
  // change if u fell within that bit of a boundary.)
  std::vector<double> cumulative(distinct);
  double total = 0;
  for (std::size_t rank = 0; rank < distinct; ++rank) {
    total += 1.0 / std::pow(static_cast<double>(rank + 1), s);
    cumulative[rank] = total;
  }
  rng r(seed);
  std::vector<T> out(n);
  for (auto& v : out) {
    const double target = r.unit() * total;
    auto it = std::upper_bound(cumulative.begin(), cumulative.end(), target);
    const auto rank = static_cast<std::size_t>(std::min<std::ptrdiff_t>(it - cumulative.begin(),
                                                                         static_cast<std::ptrdiff_t>(distinct - 1)));
    v = static_cast<T>(rank);
  }
  return out;
}

template <class T>
std::vector<T> hot_and_tail(std::size_t n, std::uint64_t seed, double hot_share, std::size_t hot_keys,
                            std::size_t tail_values) {
  if (!(hot_share >= 0 && hot_share <= 1)) throw std::invalid_argument("wb::gen::hot_and_tail: hot_share must be in [0, 1]");
  if (hot_share > 0 && hot_keys == 0) throw std::invalid_argument("wb::gen::hot_and_tail: hot_share > 0 needs hot keys");
  // Value k (hot keys first, then the tail's) is k times an odd constant modulo the type's
  // range: a bijection, so distinct k give distinct values, spread evenly and in no order.
  std::uint64_t values;  // the values the type holds, less one
  if constexpr (std::is_integral_v<T>) {
    values = int_span<T>();
  } else {
    values = (std::uint64_t{1} << 24) - 1;
  }
  const u128 needed = static_cast<u128>(hot_keys) + (tail_values > 0 ? tail_values : n);
  if (needed > static_cast<u128>(values) + 1)
    throw std::invalid_argument("wb::gen::hot_and_tail: " + std::to_string(static_cast<std::uint64_t>(needed)) +
                                " values needed, more than the element type holds");
  auto value = [&](std::uint64_t k) {
    if constexpr (std::is_integral_v<T>) {
      return int_from_offset<T>((k * 0x9E3779B97F4A7C15ull) & values);  // values is 2^bits - 1
    } else {
      return static_cast<T>(k);  // exact: k < 2^24
    }
  };
  rng r(seed);
  std::vector<T> out(n);
  std::uint64_t next_tail = hot_keys;  // the distinct tail's next value
  for (auto& v : out) {
    if (r.unit() < hot_share) {
      v = value(r.below(hot_keys));
    } else {
      v = value(tail_values > 0 ? hot_keys + r.below(tail_values) : next_tail++);
    }
  }
  return out;
}

template <class T>
std::vector<T> iota(std::size_t n, std::uint64_t seed, bool shuffled) {
  std::vector<T> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_integral_v<T>) {
      out[i] = static_cast<T>(static_cast<std::make_unsigned_t<T>>(i));  // wraps modulo the range
    } else {
      out[i] = static_cast<T>(i & ((std::size_t{1} << 24) - 1));
    }
  }
  if (shuffled) {
    rng r(seed);
    shuffle(out, r);
  }
  return out;
}

template <class T>
std::vector<T> sorted_uniform(std::size_t n, std::uint64_t seed, T lo, T hi) {
  auto out = uniform<T>(n, seed, lo, hi);
  std::sort(out.begin(), out.end());
  return out;
}

template <class T>
sorted_pair<T> disjoint_sorted(std::size_t n_low, std::size_t n_high, std::uint64_t seed) {
  rng r(seed);
  sorted_pair<T> out;
  if constexpr (std::is_integral_v<T>) {
    // low in [lowest, mid], high in [mid + 1, max].
    const T mid = int_from_offset<T>(int_span<T>() / 2);
    out.a = uniform<T>(n_low, r.next(), std::numeric_limits<T>::lowest(), mid);
    out.b = uniform<T>(n_high, r.next(), static_cast<T>(mid + 1), std::numeric_limits<T>::max());
  } else {
    out.a = uniform<T>(n_low, r.next(), T(-1e6), T(-1));
    out.b = uniform<T>(n_high, r.next(), T(1), T(1e6));
  }
  std::sort(out.a.begin(), out.a.end());
  std::sort(out.b.begin(), out.b.end());
  return out;
}

template <class T>
sorted_pair<T> interleaved_sorted(std::size_t n_a, std::size_t n_b, std::uint64_t seed) {
  rng r(seed);
  const auto values = increasing<T>(n_a + n_b, r);
  sorted_pair<T> out;
  out.a.reserve(n_a);
  out.b.reserve(n_b);
  const std::size_t paired = 2 * std::min(n_a, n_b);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const bool to_a = i < paired ? (i % 2 == 0) : (n_a > n_b);
    (to_a ? out.a : out.b).push_back(values[i]);
  }
  return out;
}

#define WB_GEN_INSTANTIATE(T)                                                                    \
  template std::vector<T> uniform<T>(std::size_t, std::uint64_t, T, T);                          \
  template std::vector<T> few_distinct<T>(std::size_t, std::uint64_t, std::size_t);              \
  template std::vector<T> all_equal<T>(std::size_t, T);                                          \
  template std::vector<T> extremes<T>(std::size_t, std::uint64_t);                               \
  template std::vector<T> zipf<T>(std::size_t, std::uint64_t, std::size_t, double);              \
  template std::vector<T> hot_and_tail<T>(std::size_t, std::uint64_t, double, std::size_t, std::size_t); \
  template std::vector<T> iota<T>(std::size_t, std::uint64_t, bool);                             \
  template std::vector<T> sorted_uniform<T>(std::size_t, std::uint64_t, T, T);                   \
  template sorted_pair<T> disjoint_sorted<T>(std::size_t, std::size_t, std::uint64_t);           \
  template sorted_pair<T> interleaved_sorted<T>(std::size_t, std::size_t, std::uint64_t);

// Every standard integer type (so int64_t, long long and long all link, whichever of them
// the platform's int64_t is), and both floating-point types.
WB_GEN_INSTANTIATE(signed char)
WB_GEN_INSTANTIATE(unsigned char)
WB_GEN_INSTANTIATE(short)
WB_GEN_INSTANTIATE(unsigned short)
WB_GEN_INSTANTIATE(int)
WB_GEN_INSTANTIATE(unsigned int)
WB_GEN_INSTANTIATE(long)
WB_GEN_INSTANTIATE(unsigned long)
WB_GEN_INSTANTIATE(long long)
WB_GEN_INSTANTIATE(unsigned long long)
WB_GEN_INSTANTIATE(float)
WB_GEN_INSTANTIATE(double)
#undef WB_GEN_INSTANTIATE

}  // namespace wb::gen
