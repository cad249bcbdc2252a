// The executable's generated inputs (--dist).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "wb/arguments.hpp"
#include "wb/generate.hpp"

#include "scan.hpp"

namespace scan {

template <class T>
std::vector<T> generate(const std::string& dist, std::size_t n, std::uint64_t seed) {
  if (dist == "uniform") {
    if constexpr (std::is_same_v<T, std::int32_t>) return wb::gen::uniform<T>(n, seed, -1000, 1000);
    if constexpr (std::is_same_v<T, std::int64_t>) return wb::gen::uniform<T>(n, seed, -(T{1} << 40), T{1} << 40);
    if constexpr (std::is_floating_point_v<T>) return wb::gen::uniform<T>(n, seed, T(-1), T(1));
  }
  if (dist == "zeros") return std::vector<T>(n, T{});
  if (dist == "alternating") {  // +v, -v, +v, ...: prefixes 0 and v, a cancellation test
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = i % 2 == 0 ? T(7) : T(-7);
    return v;
  }
  if (dist == "extremes") {
    if constexpr (std::is_integral_v<T>) return wb::gen::extremes<T>(n, seed);
    throw wb::usage_error("--dist extremes is for int32 and int64: a float scan of +-FLT_MAX overflows");
  }
  return wb::gen::iota<T>(n, seed, false);
}

}  // namespace scan
