// NCCL for both backends: the real <nccl.h> on the cuda backend where the build found it
// (WB_HAVE_NCCL), the emulator's subset on the cpu backend (wb/cpu/nccl.hpp, which also
// defines WB_NCCL_EMULATED). Link the target wb_nccl (it exists only where NCCL does).
//
//   WB_NCCL_CHECK(ncclAllReduce(...));   // throws wb::nccl_error naming the call, file, line
#pragma once

#include <stdexcept>
#include <string>

#if defined(WB_BACKEND_CUDA)
#include <nccl.h>
#else
#include "wb/cpu/nccl.hpp"
#endif

namespace wb {

class nccl_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void throw_nccl_error(ncclResult_t code, const char* call, const char* file, int line) {
  std::string what = std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                     ncclGetErrorString(code);
  if (const char* last = ncclGetLastError(nullptr); last != nullptr && *last != '\0') what += std::string(" (") + last + ")";
  throw nccl_error(what);
}

}  // namespace wb

#define WB_NCCL_CHECK(call)                                                           \
  do {                                                                                \
    const ncclResult_t wb_nccl_result_ = (call);                                      \
    if (wb_nccl_result_ != ncclSuccess) ::wb::throw_nccl_error(wb_nccl_result_, #call, __FILE__, __LINE__); \
  } while (0)
