// The stage-5 experiments' input and check, both on the device (so 2^28 keys and more start
// at once): keys of a few distributions, values 0, 1, 2, ... and a count of the positions
// where a sort's output differs from CUB's. cuda backend only.
//
// dist: 0 uniform bits, 1 sixteen distinct keys, 2 all equal, 3 sorted, 4 the low 31 bits
// only (64-bit keys: half the passes skipped), 5 only the top byte varies.
#pragma once

#include <cstdint>
#include <cstring>
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

template <class K>
__global__ void generate_kernel(K* keys, std::uint32_t* values, std::int64_t n, int dist, std::uint64_t seed) {
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    std::uint64_t r = mix(seed ^ static_cast<std::uint64_t>(i));
    if (dist == 1) r = mix(seed + (r & 15));
    if (dist == 2) r = 12345;
    if (dist == 3) r = static_cast<std::uint64_t>(i) << (sizeof(K) * 8 > 32 ? 20 : 0);
    if (dist == 4) r &= 0x7fffffffull;
    if (dist == 5) r = (r & 0xff) << (sizeof(K) * 8 - 8);
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
