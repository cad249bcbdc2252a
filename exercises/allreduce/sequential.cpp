// Stage 0: the specification. The element-wise sum of the G vectors on the host, adding in rank
// order (PMPP 4th ed. §20: MPI_Allreduce with MPI_SUM gives every process the sum).
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "allreduce.hpp"
#include "element.hpp"

namespace allreduce::WB_TRACK {

template <class T>
std::vector<T> allreduce_sequential(std::span<const std::vector<T>> inputs) {
  // TODO(allreduce/0): the element-wise sum of every rank's vector, added in rank order (refuse
  // vectors of different lengths with std::invalid_argument). Integers wrap around: add with
  // allreduce::add from element.hpp.
  return {};
}

#define INSTANTIATE(T) template std::vector<T> allreduce_sequential<T>(std::span<const std::vector<T>>);
ALLREDUCE_FOR_EACH_TYPE(INSTANTIATE)
#undef INSTANTIATE

}  // namespace allreduce::WB_TRACK
