// Deliberately defective variants of stage 1's radix pass, one per pitfall of the chapter
// (README, "Pitfalls"): each differs from the fixed stage in one line.
#pragma once

#include <cstdint>

#include "sort.hpp"

namespace sort::defective {

enum class defect {
  none,              // the fixed stage, through the same code path
  unstable_scatter,  // SO1: the ones of a block written in reverse order
  unflipped_sign,    // SO2: the digit taken from a signed key's raw bits
  inclusive_rank,    // SO3: an inclusive scan where the rank needs an exclusive one
};

// Stage 1 with `d`, sorting keys (and values when values_in is not nullptr).
template <class K>
void sort_one_bit(defect d, const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                  std::int64_t n, const workspace& ws, const config& cfg);

}  // namespace sort::defective
