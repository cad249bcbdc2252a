// Launch shapes of the stages' kernels: host code both tracks share (the lesson is the
// kernels, not the arithmetic of grid sizes).
#pragma once

#include <cstdint>

#include "allreduce.hpp"

namespace allreduce {

class team;

// Threads per block of the element-wise kernels (stages 2 and 3).
inline constexpr int sum_threads = 256;

// Blocks for `items` work items of one thread each on the current device: enough to cover them,
// at most four waves of blocks (the kernels loop over the rest), at least one.
int sum_blocks(std::int64_t items);

// Stage 6's row kernels: threads per block, and blocks for up to `rows` rows on the current
// device: enough to cover them, at most one wave (2048 threads an SM; the kernels loop over
// the rest, a block's tile of rows at a time), at least one.
inline constexpr int row_threads = 256;
int row_blocks(std::int64_t rows);

// Blocks per rank of a stage-4 kernel with `items` work items per rank (cfg.threads each): the
// same on every rank (block b of each rank meets block b of the others at the barriers), and
// few enough that every rank's blocks are resident at once: a block that waits at the barrier
// for a block that cannot start never returns. cfg.blocks when it is set.
int direct_blocks(const team& t, const config& cfg, std::int64_t items);

}  // namespace allreduce
