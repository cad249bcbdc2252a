// Stage 2: Brent-Kung scan in one block (PMPP §11.4; Brent & Kung 1982).
//
// A section of 2B items, B threads: an up-sweep builds a reduction tree, a down-sweep hands
// its partial sums forward. About 2n additions instead of Kogge-Stone's n log2 n.
#include <cstdint>

#include "scan.hpp"
#include "wb/kernel.hpp"

namespace scan::WB_TRACK {

// blockDim.x threads (a power of two), 2 * blockDim.x * sizeof(T) bytes of dynamic shared memory.
template <class T>
__global__ void brent_kung_kernel(const T* in, T* out, std::int64_t n, bool exclusive) {
  // TODO(scan/2): for each section of 2 * blockDim.x items: load, up-sweep, down-sweep
  // (PMPP §11.4; the tree's nodes are the last item of each subtree, S2), write carry + the
  // section's scan, carry the section's total on.
}

}  // namespace scan::WB_TRACK

#include "brent_kung_host.inl"  // the host side of stage 2, shared by both tracks
