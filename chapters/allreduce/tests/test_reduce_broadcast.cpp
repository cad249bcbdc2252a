// Stage 2: reduce to rank 0 with peer copies, then broadcast; its sum kernel alone.
#include <vector>

#include "wb/device_buffer.hpp"

#include "support.hpp"

using namespace allreduce;
using namespace allreduce::testing;

TEST_SUITE("allreduce/2 reduce-broadcast") {
  TEST_CASE("sum_vectors adds k vectors in term order: vectors of 16 bytes, the tail, unaligned pointers") {
    auto t = make_team(1);
    const std::uint64_t seed = wb::testing::seed(2);
    for (const std::int64_t n : {1, 4, 5, 8, 1001}) {
      for (const int k : {1, 2, 5}) {
        const auto inputs = make_inputs<std::int32_t>(k, n + 1, distribution::uniform, seed + n * 10 + k);
        std::vector<wb::device_buffer<std::int32_t>> d;
        std::vector<const std::int32_t*> terms;
        for (const auto& v : inputs) d.emplace_back(v);
        for (const auto& b : d) terms.push_back(b.data() + 1);  // 4 bytes past 16-byte alignment
        wb::device_buffer<std::int32_t> out(static_cast<std::size_t>(n) + 1);
        track::sum_vectors(terms.data(), k, out.data(), n, nullptr);
        std::vector<std::vector<std::int32_t>> tails;
        for (const auto& v : inputs) tails.emplace_back(v.begin() + 1, v.end());
        std::vector<std::int32_t> got = out.to_host();
        got.pop_back();
        CAPTURE(n);
        CAPTURE(k);
        CHECK(check_run(variant::reduce_broadcast, tails, {got}) == "");
      }
    }
  }

  TEST_CASE("every rank gets the sum: G = 1, 2, 3, logical devices, every type, edge sizes") {
    check_battery(variant::reduce_broadcast);
  }

  // The last step of the stage: rank 0's stream waits for every rank's 'fetched'. Without it the
  // sums are right until rank 0's next work writes into out[0] before a rank's copy of it has run
  // (test_defects.cpp shows the same code without the wait failing here).
  TEST_CASE("rank 0's next work overwrites its output only after every rank has fetched the sum") {
    struct shape {
      int ranks, devices;
    };
    for (const shape s : {shape{2, 2}, shape{3, 3}, shape{3, 2}}) {
      CAPTURE(s.ranks);
      CAPTURE(s.devices);
      auto t = make_team(s.ranks, s.devices);
      const std::string wrong = check_output_reuse(
          *t, [](team& tm, const buffers<std::int32_t>& b) { track::allreduce_reduce_broadcast(tm, b); },
          wb::testing::seed(21) + static_cast<std::uint64_t>(s.ranks * 10 + s.devices));
      CHECK_MESSAGE(wrong.empty(), t->description(), ": a write into out[0] queued on rank 0's stream right after the "
                    "all-reduce reached the other ranks' results: ", wrong,
                    " (rank 0's stream must wait for every rank's 'fetched' before it goes on)");
    }
  }
}
