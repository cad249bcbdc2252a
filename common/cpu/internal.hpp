// Shared between the cpu backend's runtime (runtime.cpp) and its scheduler (scheduler.cpp).
#pragma once

#include <cstddef>
#include <string>

#include "wb/cpu/emulation.hpp"

namespace wb::cpu::detail {

// Records the error that cudaGetLastError()/cudaPeekAtLastError() return next, with a
// detailed message that cudaGetErrorString(code) returns for as long as it is the latest.
cudaError_t set_last_error(cudaError_t code, std::string detail);

// A live cudaMalloc or cudaMallocHost allocation: `bytes` from `start`, on `rounded` bytes of
// whole pages, with a guard page before and after (no other allocation or data uses them).
struct region {
  const unsigned char* start = nullptr;
  std::size_t bytes = 0;
  std::size_t rounded = 0;
};
// The allocation whose pages (guard pages included) hold `ptr`; false if none does.
bool find_region(const void* ptr, region* out);
// The allocation holding `ptr`: the offset in it and its size; false if none does.
bool find_allocation(const void* ptr, std::size_t* offset, std::size_t* bytes);

// The test mutation in force (set_mutation): atomics that race like plain accesses.
bool plain_atomics();

}  // namespace wb::cpu::detail
