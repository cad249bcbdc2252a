// Stage 1: Kogge-Stone scan in one block (PMPP §11.2; Kogge & Stone 1973).
//
// One block of B threads sweeps the input in sections of B items. Within a section, at
// stride 1, 2, 4, ..., B/2 every thread t >= stride adds the value `stride` places before
// its own; after log2(B) steps xy[t] is the inclusive scan of the section. A running carry
// (the total of the sections before) turns section scans into the scan of the whole input.
// Work: about B log2 B additions per section, against B - 1 for the sequential scan.
#include <cstdint>

#include "scan.hpp"
#include "wb/kernel.hpp"

namespace scan::WB_TRACK {

// blockDim.x threads (a power of two), blockDim.x * sizeof(T) bytes of dynamic shared memory.
template <class T>
__global__ void kogge_stone_kernel(const T* in, T* out, std::int64_t n, bool exclusive) {
  T* xy = wb::dynamic_shared<T>();
  const int t = threadIdx.x;
  const int B = blockDim.x;
  T carry{};  // the same in every thread: the sum of all sections before this one
  for (std::int64_t base = 0; base < n; base += B) {
    const std::int64_t i = base + t;
    xy[t] = i < n ? in[i] : T{};  // past the end: 0, which changes no sum
    __syncthreads();
    for (int stride = 1; stride < B; stride *= 2) {
      // S1: read both values, then a barrier, then write. Writing xy[t] in place while
      // thread t + stride may still read it is a read-after-write race.
      T v = xy[t];
      if (t >= stride) v = plus(xy[t - stride], v);
      __syncthreads();
      xy[t] = v;
      __syncthreads();
    }
    if (i < n) {
      if (exclusive) out[i] = t == 0 ? carry : plus(carry, xy[t - 1]);
      else out[i] = plus(carry, xy[t]);
    }
    carry = plus(carry, xy[B - 1]);
    __syncthreads();  // every thread has read xy before the next section overwrites it
  }
}

}  // namespace scan::WB_TRACK

#include "kogge_stone_host.inl"  // the host side of stage 1, shared by both tracks
