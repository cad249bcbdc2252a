// The executable's generated keys (--dist).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "wb/generate.hpp"

#include "key_bits.hpp"

namespace sort {

template <class K>
std::vector<K> generate(const std::string& dist, std::size_t n, std::uint64_t seed) {
  if (dist == "uniform") {  // integers: the type's whole range; floats: +-1e30
    if constexpr (std::is_floating_point_v<K>) return wb::gen::uniform<K>(n, seed, K(-1e30), K(1e30));
    else return wb::gen::uniform<K>(n, seed);
  }
  if (dist == "few") return wb::gen::few_distinct<K>(n, seed, 16);
  if (dist == "equal") return wb::gen::all_equal<K>(n, K(7));
  if (dist == "sorted" || dist == "reversed") {
    auto v = generate<K>("uniform", n, seed);
    std::stable_sort(v.begin(), v.end(), [](K a, K b) { return key_less(a, b); });
    if (dist == "reversed") std::reverse(v.begin(), v.end());
    return v;
  }
  return wb::gen::extremes<K>(n, seed);
}

}  // namespace sort
