// Error checking for every CUDA runtime call and every kernel launch.
//
//   WB_CHECK(cudaMalloc(&p, bytes));   // throws wb::cuda_error naming call, file, line, error
//   WB_CHECK_LAUNCH();                 // after a raw <<<...>>> launch (wb::launch does it)
//
// Errors are thrown (not abort()ed) so a test can report them and go on, and a chapter's
// main can print them and exit with a non-zero status.
#pragma once

#include <source_location>
#include <stdexcept>
#include <string>

#include "wb/runtime.hpp"

namespace wb {

class cuda_error : public std::runtime_error {
 public:
  cuda_error(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

// Formats "<call> failed at <file>:<line>: <cudaErrorName>: <text>" and throws.
[[noreturn]] void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line);

inline void check(cudaError_t code, const char* call, const char* file, int line) {
  if (code != cudaSuccess) throw_cuda_error(code, call, file, line);
}

// After a launch: configuration errors show at once; with WB_SYNC_CHECK=1 in the
// environment the launch is also synchronised so faults inside the kernel name this line.
void check_launch(const char* what, const char* file, int line);

}  // namespace wb

#define WB_CHECK(call) ::wb::check((call), #call, __FILE__, __LINE__)
#define WB_CHECK_LAUNCH() ::wb::check_launch("kernel launch", __FILE__, __LINE__)
