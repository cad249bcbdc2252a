// What the stages add, and how the kernels move it: shared by the host and the device, and by
// both tracks.
#pragma once

#include <cstdint>
#include <type_traits>

#include "wb/runtime.hpp"

#include "allreduce.hpp"

namespace allreduce {

// a + b as every stage adds: integers wrap around past their range (in unsigned arithmetic,
// where wrapping is defined; a signed overflow would be undefined behaviour in C++), floats
// round as IEEE 754 says.
template <class T>
__host__ __device__ __forceinline__ T add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return a + b;
  }
}

// 16 bytes of T: the unit the kernels load and store (one 128-bit access).
template <class T>
struct alignas(16) vec16 {
  static constexpr int width = 16 / static_cast<int>(sizeof(T));
  T v[width];
};

template <class T>
__host__ __device__ __forceinline__ vec16<T> add(vec16<T> a, const vec16<T>& b) {
  for (int j = 0; j < vec16<T>::width; ++j) a.v[j] = add(a.v[j], b.v[j]);
  return a;
}

// Up to max_ranks device pointers, passed to a kernel by value.
template <class T>
struct pointer_list {
  const T* at[max_ranks] = {};
  int count = 0;
};

// True when every pointer can be read and written 16 bytes at a time.
inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace allreduce
