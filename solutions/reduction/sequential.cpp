// Stage 0: the sequential sum, the specification every kernel is checked against.
// CUDA Handbook §12.2 sums ints into an int (R5); here every type gets an accumulator that
// cannot lose the answer:
//   int32, int64 -> 64-bit integer sum (exact unless the true sum leaves int64's range);
//   float        -> a double sum: 29 extra bits, rounded once at the end;
//   double       -> Neumaier's compensated sum: the rounding error of every addition is
//                   kept in a second variable and added back at the end.
#include <cmath>
#include <cstdint>
#include <span>
#include <type_traits>

#include "reduction.hpp"

namespace reduction::WB_TRACK {

namespace {

// Neumaier's variant of Kahan summation (also right when an item is larger than the sum
// so far). The result is as if summed in twice the precision, then rounded.
double compensated_sum(std::span<const double> in) {
  double sum = 0.0;
  double compensation = 0.0;  // what the additions so far have rounded away
  for (const double x : in) {
    const double t = sum + x;
    if (std::fabs(sum) >= std::fabs(x)) {
      compensation += (sum - t) + x;  // the low bits of x that t lost
    } else {
      compensation += (x - t) + sum;  // the low bits of sum that t lost
    }
    sum = t;
  }
  return sum + compensation;
}

}  // namespace

template <class T>
sum_t<T> sum_sequential(std::span<const T> in) {
  if constexpr (std::is_integral_v<T>) {
    // R5: 64 bits, whatever the input width. Added as unsigned so that an int64 sum past
    // 2^63 wraps like the GPU's adds do, instead of being undefined behaviour in C++.
    std::uint64_t sum = 0;
    for (const T x : in) sum += static_cast<std::uint64_t>(static_cast<std::int64_t>(x));
    return static_cast<sum_t<T>>(sum);
  } else if constexpr (std::is_same_v<T, float>) {
    double sum = 0.0;  // wider accumulator: N * 2^-53 relative error, far below float's 2^-24
    for (const float x : in) sum += x;
    return static_cast<float>(sum);
  } else {
    return compensated_sum(in);
  }
}

}  // namespace reduction::WB_TRACK

#include "sequential_host.inl"  // the explicit instantiations, shared by both tracks
