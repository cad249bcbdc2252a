// wb/check.hpp: a failing call names itself, the file, the line and the CUDA error.
#include <cstdlib>
#include <string>

#include "wb/check.hpp"
#include "wb/testing.hpp"
#if defined(WB_BACKEND_CPU)
#include "wb/launch.hpp"  // kernels in a .cpp: cpu backend only (nvcc compiles the .cu files)
#endif

namespace {

cudaError_t fails_with_invalid_value() { return cudaErrorInvalidValue; }

}  // namespace

TEST_CASE("WB_CHECK throws wb::cuda_error naming the call, file, line and error") {
  const int line = __LINE__ + 2;
  try {
    WB_CHECK(fails_with_invalid_value());
    FAIL("WB_CHECK did not throw");
  } catch (const wb::cuda_error& e) {
    const std::string what = e.what();
    CHECK(e.code() == cudaErrorInvalidValue);
    const std::string expected_start = "fails_with_invalid_value() failed at " + std::string(__FILE__) + ":" +
                                       std::to_string(line) + ": " + cudaGetErrorName(cudaErrorInvalidValue) + ": " +
                                       cudaGetErrorString(cudaErrorInvalidValue);
    CHECK(what == expected_start);
  }
}

TEST_CASE("WB_CHECK passes cudaSuccess through") {
  CHECK_NOTHROW(WB_CHECK(cudaSuccess));
}

#if defined(WB_BACKEND_CPU)
namespace {
__global__ void write_one(int* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *out = 1;
}
}  // namespace

TEST_CASE("a launch with a bad configuration throws, naming the launch site") {
  int value = 0;
  const int line = __LINE__ + 1;
  CHECK_THROWS_WITH_AS(wb::launch({1, 2048}, write_one, &value),
                       doctest::Contains((std::string(__FILE__) + ":" + std::to_string(line)).c_str()), wb::cuda_error);
  CHECK(value == 0);
  // The error does not stick: the next good launch works.
  CHECK_NOTHROW(wb::launch({1, 32}, write_one, &value));
  CHECK(value == 1);
}
#endif
