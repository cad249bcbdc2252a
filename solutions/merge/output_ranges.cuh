// How the output C[0, total) is split into equal parts among threads (stage 2, Fig. 12.9)
// or blocks (stages 3-4, Fig. 12.11).
#pragma once

#include <cstdint>

#include "index_math.hpp"

namespace merge::WB_TRACK {

// Where part p of `parts` begins (p in [0, parts]; part p is [part_begin(p), part_begin(p+1))).
// Every part but the last has ceil(total / parts) outputs; parts past the end are empty.
__host__ __device__ inline std::int64_t part_begin(std::int64_t p, std::int64_t parts, std::int64_t total) {
  const std::int64_t per_part = ceil_div(total, parts);  // M4, M5: ceil of the true quotient
  return min_of(p * per_part, total);                      // M12: a 64-bit product
}

}  // namespace merge::WB_TRACK
