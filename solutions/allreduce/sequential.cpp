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
  if (inputs.empty()) return {};
  const std::size_t n = inputs[0].size();
  for (const auto& v : inputs) {
    if (v.size() != n) throw std::invalid_argument("allreduce_sequential: every rank holds the same number of elements");
  }
  std::vector<T> sum(inputs[0]);
  for (std::size_t r = 1; r < inputs.size(); ++r) {
    for (std::size_t i = 0; i < n; ++i) sum[i] = add(sum[i], inputs[r][i]);
  }
  return sum;
}

#define INSTANTIATE(T) template std::vector<T> allreduce_sequential<T>(std::span<const std::vector<T>>);
ALLREDUCE_FOR_EACH_TYPE(INSTANTIATE)
#undef INSTANTIATE

}  // namespace allreduce::WB_TRACK
