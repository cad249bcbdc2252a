// Running the deliberately defective variants (defective.hpp) on a case: shared by the stage
// checks that show each pitfall failing where the stage's solution passes.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "helpers.hpp"

namespace matmul::testing {

// The defective variant's C for the case (poisoned first), with A and B followed by a row of
// 1000s: a kernel that reads past a matrix reads those, not memory it does not own.
std::vector<float> run_defective(const inputs& in, const std::function<void(const float*, const float*, float*)>& run);
// Is C the product of the case's fp32 inputs within the bound?
bool right(const inputs& in, const std::vector<float>& C);
// A race shows on the cpu backend under a fixed scheduling order: runs `f` under in-order and
// reverse, then restores the order this run started with. On a GPU the outcome of a race is
// not fixed (f runs once): there compute-sanitizer --tool racecheck is the check.
void under_fixed_orders(const std::function<void(const char*)>& f);

}  // namespace matmul::testing
