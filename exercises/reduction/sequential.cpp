// Stage 0 (exercise): the sequential sum, the specification every kernel is checked against.
// CUDA Handbook §12.2 sums ints into an int: defect R5, it overflows. Give every type an
// accumulator that cannot lose the answer:
//   int32, int64 -> a 64-bit integer sum;
//   float        -> a double sum, rounded to float once at the end;
//   double       -> a compensated sum (Neumaier's variant of Kahan summation): keep the
//                   rounding error of each addition in a second variable, add it back at
//                   the end. Neumaier's test: if |sum| >= |x| the error of t = sum + x is
//                   (sum - t) + x, otherwise (x - t) + sum.
#include <cmath>
#include <cstdint>
#include <span>
#include <type_traits>

#include "reduction.hpp"
#include "wb/exercise.hpp"

namespace reduction::WB_TRACK {

template <class T>
sum_t<T> sum_sequential(std::span<const T> in) {
  // TODO(stage 0): sum `in` as described above, then delete the line below.
  //   if constexpr (std::is_integral_v<T>) { ... } else if constexpr (std::is_same_v<T, float>) { ... } else { ... }
  (void)in;
  wb::not_implemented("reduction/0 sequential");
}

template std::int64_t sum_sequential<std::int32_t>(std::span<const std::int32_t>);
template std::int64_t sum_sequential<std::int64_t>(std::span<const std::int64_t>);
template float sum_sequential<float>(std::span<const float>);
template double sum_sequential<double>(std::span<const double>);

}  // namespace reduction::WB_TRACK
