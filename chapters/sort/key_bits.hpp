// Keys as unsigned bit patterns whose unsigned order is the key order: what every radix
// stage sorts by, and what stage 0 and the merge sort compare (so every stage agrees on one
// order, NaNs and signed zeros included).
//
//   uint32   the bits themselves
//   int32    flip the sign bit: INT_MIN -> 0, -1 -> 0x7fffffff, 0 -> 0x80000000
//   int64    the same with bit 63
//   float    positive (sign bit clear): set the sign bit; negative: flip every bit, so a
//            larger magnitude gives a smaller pattern (PMPP §13.3 sorts unsigned keys; this
//            is the usual extension, the one CUB uses)
//
// The order this gives floats: -NaN (sign bit set) < -inf < ... < -denormals < -0.0 < +0.0 <
// +denormals < ... < +inf < +NaN. -0.0 sorts before +0.0, NaNs go to the end they carry in
// their sign bit. Plain `<` on floats is not a strict weak order once NaNs appear, so the
// specification compares these bit patterns too.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "wb/runtime.hpp"

namespace sort {

template <class K>
struct key_bits;

template <>
struct key_bits<std::uint32_t> {
  using bits_type = std::uint32_t;
  __host__ __device__ static bits_type to_bits(std::uint32_t k) { return k; }
  __host__ __device__ static std::uint32_t from_bits(bits_type b) { return b; }
};
template <>
struct key_bits<std::int32_t> {
  using bits_type = std::uint32_t;
  __host__ __device__ static bits_type to_bits(std::int32_t k) { return static_cast<std::uint32_t>(k) ^ 0x80000000u; }
  __host__ __device__ static std::int32_t from_bits(bits_type b) { return static_cast<std::int32_t>(b ^ 0x80000000u); }
};
template <>
struct key_bits<std::int64_t> {
  using bits_type = std::uint64_t;
  __host__ __device__ static bits_type to_bits(std::int64_t k) {
    return static_cast<std::uint64_t>(k) ^ 0x8000000000000000ull;
  }
  __host__ __device__ static std::int64_t from_bits(bits_type b) {
    return static_cast<std::int64_t>(b ^ 0x8000000000000000ull);
  }
};
template <>
struct key_bits<float> {
  using bits_type = std::uint32_t;
  __host__ __device__ static bits_type to_bits(float k) {
    const std::uint32_t b = raw_bits(k);
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
  }
  __host__ __device__ static float from_bits(bits_type b) {
    return from_raw((b & 0x80000000u) ? (b & 0x7fffffffu) : ~b);
  }

 private:
  // The float's bits as they are (a register move on the GPU; memcpy on the host).
  __host__ __device__ static std::uint32_t raw_bits(float k) {
#if defined(__CUDA_ARCH__)
    return __float_as_uint(k);
#else
    std::uint32_t b;
    std::memcpy(&b, &k, 4);
    return b;
#endif
  }
  __host__ __device__ static float from_raw(std::uint32_t b) {
#if defined(__CUDA_ARCH__)
    return __uint_as_float(b);
#else
    float k;
    std::memcpy(&k, &b, 4);
    return k;
#endif
  }
};

template <class K>
using bits_of = typename key_bits<K>::bits_type;

// The `width`-bit digit of a bit pattern starting at bit `shift`.
template <class U>
__host__ __device__ inline unsigned digit_of(U bits, int shift, int width) {
  return static_cast<unsigned>((bits >> shift) & ((U{1} << width) - 1));
}

// "a sorts before b" in the chapter's order.
template <class K>
__host__ __device__ inline bool key_less(K a, K b) {
  return key_bits<K>::to_bits(a) < key_bits<K>::to_bits(b);
}

}  // namespace sort
