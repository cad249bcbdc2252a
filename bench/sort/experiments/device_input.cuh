// The stage-5 experiments' input and check, both on the device (so 2^28 keys and more start
// at once): keys of a few distributions, values 0, 1, 2, ... and a count of the positions
// where a sort's output differs from CUB's. cuda backend only.
//
// The distributions (by name, or by number for the older ones):
//   0 uniform   uniform bits                      5 topbyte   only the top byte varies
//   1 few       sixteen distinct keys             6 reversed  descending
//   2 equal     all keys equal                    7 extremes  the types' edge patterns (0,
//   3 sorted    ascending                                     -1, min, max, +-inf, NaN, ...)
//   4 low31     the low 31 bits only (64-bit      8 narrow    2^16 consecutive values above
//               keys: half the passes skipped)                a base with nonzero high bytes
//                                                 9 hot       half the keys from 16 values,
//                                                             half uniform
//                                                10 nearly    ascending, but about one key
//                                                             in 1024 uniform
//                                                11 strays    ascending, but about one key
//                                                             in 16 uniform
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "key_bits.hpp"
#include "wb/device_buffer.hpp"
#include "wb/kernel.hpp"

namespace sort_experiment {

__host__ __device__ inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

inline constexpr const char* dist_names[] = {"uniform", "few",      "equal",    "sorted", "low31",
                                             "topbyte", "reversed", "extremes", "narrow", "hot",
                                             "nearly",  "strays"};
inline constexpr int dist_count = static_cast<int>(sizeof(dist_names) / sizeof(dist_names[0]));

// A distribution's number from its name or number; std::invalid_argument otherwise.
inline int parse_dist(const std::string& name) {
  for (int d = 0; d < dist_count; ++d) {
    if (name == dist_names[d] || name == std::to_string(d)) return d;
  }
  throw std::invalid_argument("--dist '" + name + "': use uniform, few, equal, sorted, low31, topbyte, reversed, "
                              "extremes, narrow, hot, nearly or strays");
}

// Bit patterns at the edges of every key type: zero, all ones, the sign bit alone and its
// neighbours, one, and the floats' infinities, NaNs, denormals and largest values.
__host__ __device__ inline std::uint64_t extreme_pattern(std::uint64_t r, int bits) {
  const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
  const std::uint64_t ones = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  const std::uint64_t exponent = bits == 64 ? 0x7ff0000000000000ull : 0x7f800000ull;  // +inf
  const std::uint64_t table[] = {0,        ones,           sign,           sign - 1,         sign + 1,
                                 1,        ones - 1,       exponent,       exponent | sign,  exponent | 1,
                                 (exponent | 1) | sign,    exponent - 1,   (exponent - 1) | sign};
  return table[r % (sizeof(table) / sizeof(table[0]))];
}

template <class K>
__global__ void generate_kernel(K* keys, std::uint32_t* values, std::int64_t n, int dist, std::uint64_t seed) {
  constexpr int bits = static_cast<int>(sizeof(K) * 8);
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    std::uint64_t r = mix(seed ^ static_cast<std::uint64_t>(i));
    if (dist == 1) r = mix(seed + (r & 15));
    if (dist == 2) r = 12345;
    if (dist == 3) r = static_cast<std::uint64_t>(i) << (bits > 32 ? 20 : 0);
    if (dist == 4) r &= 0x7fffffffull;
    if (dist == 5) r = (r & 0xff) << (bits - 8);
    if (dist == 6) r = static_cast<std::uint64_t>(n - 1 - i) << (bits > 32 ? 20 : 0);
    if (dist == 7) r = extreme_pattern(r, bits);
    if (dist == 8) r = (bits > 32 ? 0x0000123400000000ull : 0x12340000ull) + (r & 0xffff);
    if (dist == 9 && (r >> 63) != 0) r = mix(seed + (r & 15));
    if (dist == 10) r = (r & 1023) == 0 ? mix(r) : static_cast<std::uint64_t>(i) << (bits > 32 ? 20 : 0);
    if (dist == 11) r = (r & 15) == 0 ? mix(r) : static_cast<std::uint64_t>(i) << (bits > 32 ? 20 : 0);
    if constexpr (sizeof(K) == 8) {
      keys[i] = static_cast<K>(r);
    } else {
      const auto b = static_cast<std::uint32_t>(r);
      K k;
      memcpy(&k, &b, 4);
      keys[i] = k;
    }
    if (values != nullptr) values[i] = static_cast<std::uint32_t>(i);
  }
}

// Counts positions where a and b differ (bit patterns; floats: +-0 equal, as CUB sorts them).
template <class K>
__global__ void mismatch_kernel(const K* a, const K* b, const std::uint32_t* va, const std::uint32_t* vb,
                                std::int64_t n, unsigned long long* bad) {
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    const bool same = sort::key_bits<K>::to_bits(a[i]) == sort::key_bits<K>::to_bits(b[i]);
    bool zero = false;
    if constexpr (std::is_floating_point_v<K>) zero = a[i] == 0 && b[i] == 0;
    if (!same && !zero) atomicAdd(bad, 1ull);
    if (va != nullptr && !zero && va[i] != vb[i]) atomicAdd(bad, 1ull);
  }
}

template <class K>
void generate(K* keys, std::uint32_t* values, std::int64_t n, int dist, std::uint64_t seed) {
  wb::launch({dim3(2048), dim3(256)}, generate_kernel<K>, keys, values, n, dist, seed);
}

template <class K>
unsigned long long mismatches(const K* a, const K* b, const std::uint32_t* va, const std::uint32_t* vb,
                              std::int64_t n) {
  wb::device_buffer<unsigned long long> bad(1);
  bad.fill_bytes(0);
  wb::launch({dim3(2048), dim3(256)}, mismatch_kernel<K>, a, b, va, vb, n, bad.data());
  return bad.to_host()[0];
}

}  // namespace sort_experiment
