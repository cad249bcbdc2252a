// The executable's check: a double-precision reference of chosen rows of O, each element with
// its error bound (error_bound.hpp). Every row for problems of at most 4096 rows; for larger
// ones, 512 rows: the first and last 33 of the first and last (batch, head) (every tile edge of
// the stages), the rest spread evenly. The test binaries check every row against their own
// reference (tests/test_support.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention.hpp"

namespace attention {

class reference {
 public:
  // tensor_cores: the bound of stage 4 (bf16 Q and P, the tensor cores' sums; error_bound.hpp).
  reference(const dims& d, const std::vector<float>& Q, const std::vector<float>& K, const std::vector<float>& V,
            bool tensor_cores = false);
  // "" when every checked element is within its bound; else the first wrong one, and how many.
  std::string check(const std::vector<float>& O) const;
  // "checked: every row of O ..." for the report's preamble.
  std::string describe() const;

 private:
  dims d_;
  std::vector<std::int64_t> rows_;  // the rows checked, in order
  std::vector<double> exact_;       // rows_.size() x dim
  std::vector<double> bound_;       // the same
};

}  // namespace attention
