// Problems past 2^31 elements (64-bit indices), made and checked on the device: small integers
// from a hash of the index (every sum exact in fp32), the stage's C against the double-precision
// product on the device. For the [large] GPU checks of stages 4-6.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "matmul.hpp"

namespace matmul::testing {

// Runs `stage(problem)` on M x K times K x N small-integer matrices of T (float or bf16) made
// on the device; "" when C is the exact product (rounded once to T), else the first wrong element.
template <class T>
std::string check_large(std::int64_t M, std::int64_t N, std::int64_t K,
                        const std::function<void(const problem<T>&)>& stage);

}  // namespace matmul::testing
