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
  if (ranks < 1 || n < 0 || chunk < 1) throw std::invalid_argument("ring_schedule: bad arguments");
  std::vector<ring_transfer> plan;
  if (ranks == 1) return plan;
  const int G = ranks;
  auto seg_begin = [&](int s) { return part_begin(s, G, n, segment_align); };
  // pieces of the longest segment: every segment is cut the same way
  std::int64_t longest = 0;
  for (int s = 0; s < G; ++s) longest = std::max(longest, seg_begin(s + 1) - seg_begin(s));
  const std::int64_t pieces = (longest + chunk - 1) / chunk;
  for (int phase = 0; phase < 2; ++phase) {
    for (int step = 0; step < G - 1; ++step) {
      for (std::int64_t piece = 0; piece < pieces; ++piece) {
        for (int r = 0; r < G; ++r) {
          const int segment = phase == 0 ? ((r - step) % G + G) % G : ((r + 1 - step) % G + G) % G;
          const std::int64_t begin = std::min(seg_begin(segment) + piece * chunk, seg_begin(segment + 1));
          const std::int64_t end = std::min(begin + chunk, seg_begin(segment + 1));
          if (begin == end) continue;
          plan.push_back({phase, step, static_cast<int>(piece), r, (r + 1) % G, segment, begin, end});
        }
      }
    }
  }
  return plan;
}

}  // namespace allreduce::WB_TRACK
