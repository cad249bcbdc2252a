// Stage 3: the ring's schedule (simulated on sets of contributions) and the ring itself.
#include <cstdint>
#include <map>
#include <vector>

#include "support.hpp"

using namespace allreduce;
using namespace allreduce::testing;

namespace {

// Plays the schedule on contribution sets: element i of rank r holds the set of ranks whose
// input is summed in it. Reduce-scatter adds the sender's set to the receiver's (which must not
// share a rank with it: that would count an input twice); all-gather copies the sender's set.
// Afterwards every rank must hold every rank's contribution at every element. "" when it does.
std::string simulate(const std::vector<ring_transfer>& plan, int G, std::int64_t n) {
  std::vector<std::vector<std::uint32_t>> have(static_cast<std::size_t>(G), std::vector<std::uint32_t>(static_cast<std::size_t>(n)));
  for (int r = 0; r < G; ++r) {
    for (auto& x : have[static_cast<std::size_t>(r)]) x = 1u << r;
  }
  int last_phase = 0, last_step = 0;
  for (const ring_transfer& tr : plan) {
    if (tr.to != (tr.from + 1) % G) return "a transfer does not go to the next rank";
    if (tr.phase < last_phase || (tr.phase == last_phase && tr.step < last_step)) return "transfers out of step order";
    last_phase = tr.phase;
    last_step = tr.step;
    if (tr.begin < 0 || tr.end > n || tr.begin >= tr.end) return "an empty or out-of-range transfer";
    for (std::int64_t i = tr.begin; i < tr.end; ++i) {
      const std::uint32_t sent = have[static_cast<std::size_t>(tr.from)][static_cast<std::size_t>(i)];
      std::uint32_t& mine = have[static_cast<std::size_t>(tr.to)][static_cast<std::size_t>(i)];
      if (tr.phase == 0) {
        if ((mine & sent) != 0) return "reduce-scatter adds a rank's input twice";
        mine |= sent;
      } else {
        mine = sent;
      }
    }
  }
  const std::uint32_t all = (1u << G) - 1;
  for (int r = 0; r < G; ++r) {
    for (std::int64_t i = 0; i < n; ++i) {
      if (have[static_cast<std::size_t>(r)][static_cast<std::size_t>(i)] != all) {
        return "rank " + std::to_string(r) + " misses a contribution at element " + std::to_string(i);
      }
    }
  }
  return "";
}

}  // namespace

TEST_SUITE("allreduce/3 ring") {
  TEST_CASE("the schedule: every rank ends with every contribution, each counted once, in 2 (G - 1) steps") {
    for (int G = 1; G <= 5; ++G) {
      for (const std::int64_t n : {0, 1, 3, 4, 5, 16, 17, 63, 64, 65, 1000}) {
        for (const std::int64_t chunk : {4, 7, 64, 1 << 20}) {
          INFO("input: " << G << " ranks, n = " << n << ", pieces of " << chunk << " elements");
          const auto plan = track::ring_schedule(G, n, chunk);
          CHECK(simulate(plan, G, n) == "");
          // Each rank sends 2 (G - 1) of the G segments: 2 (G - 1) / G of the data (segments
          // are within 4 elements of n / G each).
          std::map<int, std::int64_t> sent;
          for (const ring_transfer& tr : plan) {
            sent[tr.from] += tr.end - tr.begin;
            CHECK(tr.end - tr.begin <= chunk);
            CHECK(tr.step < G - 1);
          }
          for (const auto& [rank, elements] : sent) {
            CHECK(elements <= 2 * (G - 1) * (n / G + segment_align));
            CHECK(elements >= 2 * (G - 1) * (n / G - segment_align));
          }
        }
      }
    }
    CHECK(track::ring_schedule(3, 12, 4) ==
          std::vector<ring_transfer>{{0, 0, 0, 0, 1, 0, 0, 4},  {0, 0, 0, 1, 2, 1, 4, 8},   {0, 0, 0, 2, 0, 2, 8, 12},
                                     {0, 1, 0, 0, 1, 2, 8, 12}, {0, 1, 0, 1, 2, 0, 0, 4},   {0, 1, 0, 2, 0, 1, 4, 8},
                                     {1, 0, 0, 0, 1, 1, 4, 8},  {1, 0, 0, 1, 2, 2, 8, 12},  {1, 0, 0, 2, 0, 0, 0, 4},
                                     {1, 1, 0, 0, 1, 0, 0, 4},  {1, 1, 0, 1, 2, 1, 4, 8},   {1, 1, 0, 2, 0, 2, 8, 12}});
  }

  TEST_CASE("every rank gets the sum, pieces of 256 bytes (many pieces, slots reused)") {
    config cfg;
    cfg.chunk_bytes = 256;
    check_battery(variant::ring, cfg);
  }

  TEST_CASE("every rank gets the sum, default pieces (one per segment here)") { check_battery(variant::ring); }
}
