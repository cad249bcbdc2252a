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

// Uniform values in [lo, hi] (integers) or [lo, hi) (floating point).
template <class T>
std::vector<T> uniform(std::size_t n, std::uint64_t seed, T lo = std::numeric_limits<T>::lowest(),
                       T hi = std::numeric_limits<T>::max());
// Values drawn from `distinct` evenly spaced values (distinct >= 1): many duplicates.
template <class T>
std::vector<T> few_distinct(std::size_t n, std::uint64_t seed, std::size_t distinct);
// n copies of one value.
template <class T>
std::vector<T> all_equal(std::size_t n, T value);
// A mix of the type's extremes and their neighbours: lowest, lowest+1, -1, 0, 1, max-1, max.
template <class T>
std::vector<T> extremes(std::size_t n, std::uint64_t seed);
// Zipf-like skew over `distinct` values: value rank r drawn with probability ~ 1/(r+1)^s.
template <class T>
std::vector<T> zipf(std::size_t n, std::uint64_t seed, std::size_t distinct, double s = 1.1);
// Values 0, 1, 2, ... (mod the type's range), then shuffled when `shuffled`.
template <class T>
std::vector<T> iota(std::size_t n, std::uint64_t seed, bool shuffled);

}  // namespace wb::gen
