// Stage 3, the plan: which piece moves from which rank to which at every step of the ring.
//
// The vector is cut into G segments. Reduce-scatter, G - 1 steps: at step s rank r sends
// segment (r - s) mod G to rank r + 1, which adds its own elements of it to what it receives.
// After G - 1 steps rank r holds the whole sum of segment (r + 1) mod G. All-gather, G - 1
// steps: at step s rank r sends segment (r + 1 - s) mod G, whole, to rank r + 1, which keeps
// it. Every rank sends 2 (G - 1) segments of n / G elements: 2 (G - 1) / G of its data, the
// least any all-reduce can move through one link per rank (the lesson's bound), whatever G is.
// Each segment goes as pieces of at most `chunk` elements, so piece 0 of the next step can move
// while piece 1 of this one is still being added: a pipeline.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "allreduce.hpp"

namespace allreduce::WB_TRACK {

std::vector<ring_transfer> ring_schedule(int ranks, std::int64_t n, std::int64_t chunk) {
  // TODO(allreduce/3): the ring's transfers in the order they are issued: for each phase
  // (reduce-scatter, then all-gather), each of the G - 1 steps, each piece, each rank r: the
  // segment r sends to r + 1 at that step, cut into pieces of at most `chunk` elements; no
  // transfer for an empty range, none at all for one rank.
  return {};
}

}  // namespace allreduce::WB_TRACK
