// The executable's generated inputs (--dist), in ranges whose sums stay inside sum_t<T> for n
// up to 2^32.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "wb/arguments.hpp"
#include "wb/generate.hpp"

#include "reduction.hpp"

namespace reduction {

template <class T>
std::vector<T> widen(const std::vector<std::int32_t>& narrow) {
  return std::vector<T>(narrow.begin(), narrow.end());
}

// The --dist distributions, in ranges whose sums stay inside sum_t<T> for n up to 2^32.
template <class T>
std::vector<T> generate(const std::string& dist, std::size_t n, std::uint64_t seed) {
  constexpr bool is_int64 = std::is_same_v<T, std::int64_t>;
  if (dist == "uniform") {
    if constexpr (std::is_same_v<T, std::int32_t>) return wb::gen::uniform<T>(n, seed);
    if constexpr (is_int64) return wb::gen::uniform<T>(n, seed, -(T{1} << 40), T{1} << 40);
    if constexpr (std::is_floating_point_v<T>) return wb::gen::uniform<T>(n, seed, T(-1), T(1));
  }
  if (dist == "few") {
    if constexpr (is_int64) return widen<T>(wb::gen::few_distinct<std::int32_t>(n, seed, 16));
    else return wb::gen::few_distinct<T>(n, seed, 16);
  }
  if (dist == "equal") {
    // int32: INT_MAX n times, the R5 case; the others a value whose sum is not trivial.
    if constexpr (std::is_same_v<T, std::int32_t>) return wb::gen::all_equal<T>(n, std::numeric_limits<T>::max());
    if constexpr (is_int64) return wb::gen::all_equal<T>(n, (T{1} << 31) + 1);
    if constexpr (std::is_floating_point_v<T>) return wb::gen::all_equal<T>(n, T(0.1));
  }
  if (dist == "extremes") {
    if constexpr (std::is_same_v<T, std::int32_t>) return wb::gen::extremes<T>(n, seed);
    if constexpr (is_int64) return widen<T>(wb::gen::extremes<std::int32_t>(n, seed));
    throw wb::usage_error("--dist extremes is for int32 and int64: a float sum of +-FLT_MAX overflows");
  }
  if (dist == "zipf") return wb::gen::zipf<T>(n, seed, 1000);
  return wb::gen::iota<T>(n, seed, true);
}

}  // namespace reduction
