// Stage 2 (exercise): what a CPU programmer writes.
//
//   int8:  an array of 256 counters indexed by (uint8_t)v; then the values -128..127 whose
//          counter is not zero, in that order;
//   int64: sort a copy; each run of equal keys is one row (value, run length).
#include <algorithm>
#include <array>
#include <type_traits>

#include "counting.hpp"
#include "wb/exercise.hpp"

namespace counting::WB_TRACK {

template <class T>
std::vector<entry<T>> count_cpu(std::span<const T> data) {
  std::vector<entry<T>> table;
  (void)data;
  // TODO(counting/2): both cases (if constexpr (std::is_same_v<T, std::int8_t>) ...), then
  // delete the next line.
  wb::not_implemented("counting/2 cpu");
  return table;
}

template std::vector<entry<std::int8_t>> count_cpu(std::span<const std::int8_t>);
template std::vector<entry<std::int64_t>> count_cpu(std::span<const std::int64_t>);

}  // namespace counting::WB_TRACK
