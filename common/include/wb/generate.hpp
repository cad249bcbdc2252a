// Seeded host-side data generators. Same seed, same data, on every machine (the engines and
// distributions here are specified exactly, unlike std::uniform_int_distribution).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace wb::gen {

// SplitMix64: tiny, fast, fully specified; good enough for test and benchmark data.
class rng {
 public:
  explicit rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound), bound > 0 (Lemire's multiply-shift; bias < 2^-64 * bound).
  std::uint64_t below(std::uint64_t bound) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * bound) >> 64);
  }
  // Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

// The element types every generator is instantiated for (common/src/generate.cpp):
//   every standard integer type from signed/unsigned char to (unsigned) long long (so all of
//   int8_t ... uint64_t), float, double.
// Invalid arguments (lo > hi, distinct == 0, ...) throw std::invalid_argument.

// Uniform values in [lo, hi] (integers) or [lo, hi) (floating point).
template <class T>
std::vector<T> uniform(std::size_t n, std::uint64_t seed, T lo = std::numeric_limits<T>::lowest(),
                       T hi = std::numeric_limits<T>::max());
// Values drawn from `distinct` evenly spaced values (distinct >= 1): many duplicates.
// Integers: the values spread over the type's whole range, both extremes included
// (distinct == 1: all 0; distinct above the number of values the type has: every value).
// Floating point: the small integers -(distinct/2) ... distinct-1-(distinct/2), exact, so
// sums of them are exact too.
template <class T>
std::vector<T> few_distinct(std::size_t n, std::uint64_t seed, std::size_t distinct);
// n copies of one value.
template <class T>
std::vector<T> all_equal(std::size_t n, T value);
// A mix of the type's extremes and their neighbours: lowest, lowest+1, -1, 0, 1, max-1, max.
template <class T>
std::vector<T> extremes(std::size_t n, std::uint64_t seed);
// Zipf-like skew over `distinct` values: value r (0 <= r < distinct, r must fit in T) drawn
// with probability ~ 1/(r+1)^s: 0 is the most frequent value.
template <class T>
std::vector<T> zipf(std::size_t n, std::uint64_t seed, std::size_t distinct, double s = 1.1);
// A few very frequent keys and a long tail, as real key streams are (a few heavy hitters,
// most keys seen once): each item is, with probability `hot_share` (0 to 1), one of
// `hot_keys` keys (evenly), else a tail item drawn evenly from `tail_values` values, or with
// `tail_values` 0 a value of its own (every tail item distinct). The hot keys and the tail's
// values are all different, spread over the type's whole range in no order (integers);
// floating point: small exact integers. More values than the type holds (2^24 for float)
// throw std::invalid_argument, as does hot_share > 0 with no hot keys.
template <class T>
std::vector<T> hot_and_tail(std::size_t n, std::uint64_t seed, double hot_share, std::size_t hot_keys,
                            std::size_t tail_values);
// Values 0, 1, 2, ... (mod the type's range; floating point: mod 2^24, so every value is an
// exact integer), then shuffled when `shuffled`.
template <class T>
std::vector<T> iota(std::size_t n, std::uint64_t seed, bool shuffled);

// Sorted inputs for merge-like operations.
// uniform(), sorted ascending.
template <class T>
std::vector<T> sorted_uniform(std::size_t n, std::uint64_t seed, T lo = std::numeric_limits<T>::lowest(),
                              T hi = std::numeric_limits<T>::max());
// Two sorted arrays with every element of `low` (size n_low) below every element of `high`
// (size n_high): skewed, one input runs out long before the other.
template <class T>
struct sorted_pair {
  std::vector<T> a;
  std::vector<T> b;
};
template <class T>
sorted_pair<T> disjoint_sorted(std::size_t n_low, std::size_t n_high, std::uint64_t seed);
// Two sorted arrays whose elements alternate when merged (a0 < b0 < a1 < b1 < ...; the
// longer one's tail is left over): every output position switches input.
template <class T>
sorted_pair<T> interleaved_sorted(std::size_t n_a, std::size_t n_b, std::uint64_t seed);

}  // namespace wb::gen
