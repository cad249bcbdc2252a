// Stage 2: Brent-Kung scan in one block (PMPP §11.4; Brent & Kung 1982).
//
// A section of 2B items, B threads. The up-sweep is a reduction tree: at stride s the last
// item of every pair of subtrees of size s, index (t+1)*2s - 1, adds the last item of its
// left subtree. The down-sweep hands those partial sums forward: at stride s = B/2 .. 1 the
// same index adds its value to the item s after it. About 2 * 2B additions per section
// (Kogge-Stone: 2B log2 2B), at the price of twice as many steps.
#include <cstdint>

#include "scan.hpp"
#include "wb/kernel.hpp"

namespace scan::WB_TRACK {

// blockDim.x threads (a power of two), 2 * blockDim.x * sizeof(T) bytes of dynamic shared memory.
template <class T>
__global__ void brent_kung_kernel(const T* in, T* out, std::int64_t n, bool exclusive) {
  T* xy = wb::dynamic_shared<T>();
  const int t = threadIdx.x;
  const int B = blockDim.x;
  const int section = 2 * B;
  T carry{};
  for (std::int64_t base = 0; base < n; base += section) {
    // Two items a thread, loaded B apart so a warp reads consecutive addresses.
    for (int k = t; k < section; k += B) xy[k] = base + k < n ? in[base + k] : T{};
    // Up-sweep. S2: the node a thread updates is the LAST item of its pair of subtrees.
    for (int s = 1; s <= B; s *= 2) {
      __syncthreads();
      const int i = (t + 1) * 2 * s - 1;
      if (i < section) xy[i] = plus(xy[i - s], xy[i]);
    }
    // Down-sweep: each subtree's total moves to the middle of the next subtree.
    for (int s = B / 2; s >= 1; s /= 2) {
      __syncthreads();
      const int i = (t + 1) * 2 * s - 1;
      if (i + s < section) xy[i + s] = plus(xy[i], xy[i + s]);
    }
    __syncthreads();
    for (int k = t; k < section; k += B) {
      if (base + k < n) {
        if (exclusive) out[base + k] = k == 0 ? carry : plus(carry, xy[k - 1]);
        else out[base + k] = plus(carry, xy[k]);
      }
    }
    carry = plus(carry, xy[section - 1]);
    __syncthreads();  // before the next section overwrites xy
  }
}

}  // namespace scan::WB_TRACK

#include "brent_kung_host.inl"  // the host side of stage 2, shared by both tracks
