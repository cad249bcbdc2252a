// Stage 4's meeting point: block b of every rank waits until block b of every other rank has
// reached the same point, through flags in each rank's memory.
//
// Rank r's flags are a max_blocks x max_ranks array in its own memory; slot [b][q] is written
// by block b of rank q. Thread q of a block (q != r) writes `value` into rank q's slot [b][r]
// with a RELEASE store (everything this block did before the barrier, including its peer
// stores, is visible to rank q before the flag is), then waits with ACQUIRE loads until rank
// q has written at least `value` into our slot [b][q]. The values only grow (each call counts
// up), so the flags are never reset and a late reader cannot miss a signal.
//
// __syncthreads() before: every thread of the block has finished what the barrier announces.
// __syncthreads() after: no thread of the block goes on before the waits are over.
#pragma once

#include <cstdint>

#include "allreduce.hpp"
#include "wb/kernel.hpp"
#include "wb/system_scope.hpp"

namespace allreduce::WB_TRACK {

struct rank_flags {
  std::uint64_t* of[max_ranks] = {};  // of[q]: rank q's flags
  int ranks = 0;
  int rank = 0;
};

__device__ __forceinline__ void barrier_across_ranks(const rank_flags& flags, std::uint64_t value) {
  // TODO(allreduce/4): block b of this rank tells block b of every other rank that it has come
  // this far (a release store of `value` into its flag slot in that rank's memory), then waits
  // until each of them has said the same (acquire loads of our slots), with the whole block
  // stopped before and after.
}

}  // namespace allreduce::WB_TRACK
