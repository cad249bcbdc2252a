// Splitting [0, n) into chunks of `chunk` items: stage 4 (one parent block per chunk) and
// stage 8 (one transfer per chunk) share it.
//
// D10 and D13: the article copies CHUNK_SIZE_HOST - 1 bytes of every chunk and drops what is
// left after the last whole chunk (cdpDistCountLaunch), and its chunk kernels skip a chunk
// whose end passes the input (`if (nEnd <= nSize)`). Here the last chunk is simply shorter:
// every item lies in exactly one chunk. 64-bit throughout (D4).
#pragma once

#include <cstdint>

#include "wb/runtime.hpp"  // __host__ __device__ on both backends

namespace counting {

struct chunk_range {
  std::int64_t begin;
  std::int64_t end;  // one past the last item; end - begin <= chunk
};

__host__ __device__ inline std::int64_t chunk_count(std::int64_t n, std::int64_t chunk) {
  return n <= 0 ? 0 : (n + chunk - 1) / chunk;
}

__host__ __device__ inline chunk_range chunk_bounds(std::int64_t c, std::int64_t chunk, std::int64_t n) {
  const std::int64_t begin = c * chunk;
  const std::int64_t end = n - begin < chunk ? n : begin + chunk;  // D10, D13: a short last chunk, not a lost one
  return {begin, end};
}

}  // namespace counting
