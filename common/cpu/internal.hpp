// Shared between the cpu backend's runtime (runtime.cpp) and its scheduler (scheduler.cpp).
#pragma once

#include <string>

#include "wb/cpu/emulation.hpp"

namespace wb::cpu::detail {

// Records the error that cudaGetLastError()/cudaPeekAtLastError() return next, with a
// detailed message that cudaGetErrorString(code) returns for as long as it is the latest.
cudaError_t set_last_error(cudaError_t code, std::string detail);

}  // namespace wb::cpu::detail
