// How the output C[0, total) is split into equal parts among threads (stage 2, Fig. 12.9)
// or blocks (stages 3-4, Fig. 12.11).
#pragma once

#include <cstdint>

#include "index_math.hpp"

namespace merge::WB_TRACK {

// Where part p of `parts` begins (p in [0, parts]; part p is [part_begin(p), part_begin(p+1))).
// Every part but the last has ceil(total / parts) outputs; parts past the end are empty.
__host__ __device__ inline std::int64_t part_begin(std::int64_t p, std::int64_t parts, std::int64_t total) {
  // TODO(merge/2): this is the book's arithmetic, ceil((m+n)/threads) with integer operands
  // (PMPP §12.5, Fig. 12.9). Which outputs does no part cover? Make every output belong to a part.
  const std::int64_t per_part = total / parts;
  return min_of(p * per_part, total);
}

}  // namespace merge::WB_TRACK
