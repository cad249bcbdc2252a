// The reference of one problem and the check of a computed C against it, for the executable
// and the experiment program: the exact product in double precision, on the host for small
// problems (data.hpp) and on the device for large ones (reference_device.hpp, itself checked
// against the host on sampled elements), and the error bound of the stage's type.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wb/device_buffer.hpp"

#include "data.hpp"
#include "error_bound.hpp"
#include "matmul.hpp"

namespace matmul {

// What a stage (or a library call) produced, as the executable keeps it.
struct product_result {
  std::vector<float> C;  // C widened to float (bf16 exactly); empty when C is too large to bring back
  std::string wrong;  // "" when every element is within the bound, else the first that is not
  std::int64_t wrong_count = 0;
};

class verifier {
 public:
  // M * N * K up to this: the reference is computed on the host; above, on the device.
  static constexpr std::int64_t host_limit = std::int64_t{1} << 28;
  // C of at most this many elements is brought back to the host (--print, --compare).
  static constexpr std::int64_t host_copy_limit = std::int64_t{1} << 26;

  // A and B as the stage multiplies them (for bf16 problems already rounded to bf16); d_A and
  // d_B the same on the device (float or bf16, T of the problem). `exact`: the inputs are such
  // that every sum is exact in fp32 (small integers, zeros, an identity), so C must be the
  // exact product, rounded once to the output type, instead of within the error bound.
  template <class T>
  verifier(std::span<const float> A, std::span<const float> B, std::int64_t M, std::int64_t N, std::int64_t K,
           const T* d_A, const T* d_B, bool exact = false);

  // Checks C (device, T as above) and brings it back when it is small enough.
  template <class T>
  product_result check(const T* d_C) const;
  // Checks C given on the host (a host stage's output).
  product_result check_host(std::vector<float> C) const;

  const error_model& model() const { return model_; }
  bool on_device() const { return on_device_; }
  std::string describe() const;  // "double-precision reference on the host", and the bound

 private:
  std::int64_t M_, N_, K_;
  bool bf16_;
  bool exact_;
  error_model model_;
  bool on_device_;
  reference_product host_;  // small problems
  wb::device_buffer<double> d_exact_, d_abs_sum_;  // large problems
};

}  // namespace matmul
