// N neighbouring elements of a row loaded at once, as floats: one 8- or 16-byte load on a GPU
// instead of N loads of 2 or 4 bytes. A memory-bound loop (stage 6) is limited by how many
// bytes each load instruction brings: with 2-byte bf16 loads a warp moves 64 bytes an
// instruction, with 8-byte ones 256. `p` must be aligned to N elements (the launcher checks).
#pragma once

#include "attention.hpp"
#include "wb/kernel.hpp"

namespace attention {

template <class T, int N>
struct alignas(sizeof(T) * N) packed {
  T v[N];
};

__device__ __forceinline__ float as_float(float x) { return x; }
__device__ __forceinline__ float as_float(bf16 x) { return wb::to_float(x); }

template <int N, class T>
__device__ __forceinline__ void load_floats(const T* p, float* out) {
  const packed<T, N> x = *reinterpret_cast<const packed<T, N>*>(p);
#pragma unroll
  for (int e = 0; e < N; ++e) out[e] = as_float(x.v[e]);
}

}  // namespace attention
