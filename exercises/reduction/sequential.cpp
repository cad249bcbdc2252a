// Stage 0: the sequential sum, the specification every kernel is checked against (CUDA
// Handbook §12.2, which adds ints into an int: defect R5).
#include <cstdint>
#include <span>

#include "reduction.hpp"

namespace reduction::WB_TRACK {

template <class T>
sum_t<T> sum_sequential(std::span<const T> in) {
  // TODO(reduction/0): add the items one after the other, in an accumulator that cannot
  // lose the answer for this type (R5): what is wide enough for int32 and int64, for float,
  // and for double, where nothing is wider?
  return {};
}

}  // namespace reduction::WB_TRACK

#include "sequential_host.inl"  // the explicit instantiations, shared by both tracks
