// Launch configuration of the merge stages: what the user may choose, the defaults, and the
// checks that turn a configuration a stage cannot run into a clear message (M11).
//
// Shared by both tracks, the tests and the executable, so a learner writes kernels, not
// argument checking.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "wb/device_info.hpp"

namespace merge {

// 0 in a field means "the stage's default".
struct config {
  int block = 0;             // threads per block (stages 2-6)
  int tile = 0;              // tile_size: elements of A and of B per shared-memory tile (stages 3, 4)
  int items_per_thread = 0;  // outputs per thread (stages 2, 5, 6)
  std::int64_t grid = 0;     // blocks (stages 2-4; stages 5-6 use one block per tile)
};

// The (block, items per thread) pairs stage 6 is compiled for: its per-thread merge keeps
// items_per_thread keys in registers, so the count must be known at compile time.
// (64, 3) is small enough for the tests to straddle many tiles on the cpu backend; the others
// are the candidates of the GPU sweep. Odd item counts keep the blocked shared-memory accesses
// (stride items_per_thread words) free of bank conflicts.
#define MERGE_AT_BANDWIDTH_SHAPES(X) \
  X(64, 3) X(128, 7) X(256, 7) X(256, 11) X(256, 15) X(512, 5) X(512, 7) X(512, 11) X(512, 15)
const std::vector<std::pair<int, int>>& at_bandwidth_shapes();

// The stage's configuration with every default filled in. Throws std::invalid_argument,
// naming the field, the value and what the stage accepts, when it cannot run:
//   block outside 1..1024; tile or items_per_thread < 1; shared memory beyond the device's
//   limit; a grid beyond 2^31-1 blocks; a stage-6 shape it was not compiled for.
// stage: 2..6. total = m + n. key_bytes = sizeof(K).
config resolve(int stage, const config& requested, std::int64_t total, std::size_t key_bytes, bool with_values);

// Shared memory per block the stage needs with this (resolved) configuration.
std::size_t shared_bytes(int stage, const config& resolved, std::size_t key_bytes, bool with_values);

// The largest dynamic shared memory one block may have on this device (opt-in limit).
std::size_t max_shared_bytes_per_block();

}  // namespace merge
