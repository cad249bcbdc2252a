// Stage 1: through the host. Every GPU copies its vector to pinned host memory, the host adds
// the G vectors, every GPU copies the sum back: 2 (G) n elements cross PCIe, and the host adds
// at the speed of one CPU core. The baseline every later stage removes a piece of.
#include <cstdint>
#include <cstring>

#include "wb/check.hpp"

#include "allreduce.hpp"
#include "element.hpp"
#include "team.hpp"

namespace allreduce::WB_TRACK {

template <class T>
void allreduce_through_host(team& t, const buffers<T>& b) {
  // TODO(allreduce/1): copy every rank's input to the team's pinned staging memory (each copy on
  // the rank's stream), wait, add the vectors on the host in rank order, copy the sum to every
  // rank's output, and wait again (the staging memory is reused by the next call).
}

#define INSTANTIATE(T) template void allreduce_through_host<T>(team&, const buffers<T>&);
ALLREDUCE_FOR_EACH_TYPE(INSTANTIATE)
#undef INSTANTIATE

}  // namespace allreduce::WB_TRACK
