// Stage 1: Kogge-Stone scan in one block (PMPP §11.2; Kogge & Stone 1973).
//
// One block of B threads sweeps the input in sections of B items, carrying the total of the
// sections before. Within a section, at stride 1, 2, 4, ..., B/2 every thread t >= stride
// adds the value `stride` places before its own.
#include <cstdint>

#include "scan.hpp"
#include "wb/kernel.hpp"

namespace scan::WB_TRACK {

// blockDim.x threads (a power of two), blockDim.x * sizeof(T) bytes of dynamic shared memory.
template <class T>
__global__ void kogge_stone_kernel(const T* in, T* out, std::int64_t n, bool exclusive) {
  // TODO(scan/1): scan each section of blockDim.x items with Kogge-Stone's doubling strides
  // (PMPP §11.2), every thread reading before any writes (S1), and write carry + the section's
  // scan (exclusive: shifted by one); carry the section's total to the next section. Add with
  // plus(a, b) (scan.hpp): int32 sums wrap modulo 2^32, where a plain + on int is undefined.
}

}  // namespace scan::WB_TRACK

#include "kogge_stone_host.inl"  // the host side of stage 1, shared by both tracks
