// --trace plays the track's ring schedule as allreduce_ring issues it and says what it computes:
// "correct" only when every rank ends with the whole sum at every element, else the first wrong
// element, what it holds, and how many are wrong (--trace's exit status is 1 then). The
// schedules here stand for a learner's: right, missing a transfer, counting an input twice,
// empty (the shipped stub), and one the ring cannot issue.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "allreduce.hpp"
#include "trace.hpp"

using allreduce::ring_transfer;
using allreduce::ring_trace_text;

namespace {

// The ring's schedule of 12 elements on 3 ranks, one piece per segment (test_ring.cpp checks the
// tracks' ring_schedule against it).
std::vector<ring_transfer> three_ranks() {
  return {{0, 0, 0, 0, 1, 0, 0, 4},  {0, 0, 0, 1, 2, 1, 4, 8},  {0, 0, 0, 2, 0, 2, 8, 12},
          {0, 1, 0, 0, 1, 2, 8, 12}, {0, 1, 0, 1, 2, 0, 0, 4},  {0, 1, 0, 2, 0, 1, 4, 8},
          {1, 0, 0, 0, 1, 1, 4, 8},  {1, 0, 0, 1, 2, 2, 8, 12}, {1, 0, 0, 2, 0, 0, 0, 4},
          {1, 1, 0, 0, 1, 0, 0, 4},  {1, 1, 0, 1, 2, 1, 4, 8},  {1, 1, 0, 2, 0, 2, 8, 12}};
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_SUITE("allreduce trace") {
  TEST_CASE("--trace says correct for the ring's schedule, and for one rank or no elements") {
    bool correct = false;
    std::string text = ring_trace_text(three_ranks(), 3, 12, 4, &correct);
    CAPTURE(text);
    CHECK(correct);
    CHECK(has(text, "  after reduce-scatter rank r holds the whole sum of segment (r + 1) mod G\n"));
    CHECK(has(text, "  correct: afterwards every rank holds in[0] + in[1] + in[2] at every element\n"));
    CHECK(!has(text, "!!"));
    for (const auto& [ranks, n] : {std::pair{1, 12}, std::pair{3, 0}}) {
      correct = false;
      text = ring_trace_text({}, ranks, n, 4, &correct);
      CHECK(correct);
      CHECK(has(text, "nothing moves (one rank, or no elements)"));
      CHECK(has(text, "  correct: "));
    }
  }

  TEST_CASE("--trace names the first wrong element of a schedule that leaves a wrong sum") {
    SUBCASE("the last all-gather transfer left out: rank 0 keeps a partial sum") {
      auto plan = three_ranks();
      plan.pop_back();
      bool correct = true;
      const std::string text = ring_trace_text(plan, 3, 12, 4, &correct);
      CAPTURE(text);
      CHECK(!correct);
      CHECK(!has(text, "correct:"));
      CHECK(has(text, "!! wrong (the schedule played as allreduce_ring issues it): rank 0's element 8 holds "
                      "in[0] + in[2] (in[1] missing) instead of in[0] + in[1] + in[2] (4 wrong elements in all)\n"));
    }
    SUBCASE("an input counted twice: a partial sum sent back to a rank whose input it holds") {
      const std::vector<ring_transfer> plan = {{0, 0, 0, 0, 1, 0, 0, 4}, {0, 0, 0, 1, 0, 1, 4, 8},
                                               {0, 1, 0, 1, 0, 0, 0, 4}, {1, 0, 0, 0, 1, 0, 0, 4},
                                               {1, 0, 0, 1, 0, 1, 4, 8}};
      bool correct = true;
      const std::string text = ring_trace_text(plan, 2, 8, 4, &correct);
      CAPTURE(text);
      CHECK(!correct);
      CHECK(has(text, "rank 0's element 0 holds in[0] twice + in[1] instead of in[0] + in[1]"));
    }
    SUBCASE("reduce-scatter stopped after its first step: no rank owns a whole sum") {
      auto plan = three_ranks();
      plan.erase(plan.begin() + 3, plan.begin() + 6);
      bool correct = true;
      const std::string text = ring_trace_text(plan, 3, 12, 4, &correct);
      CAPTURE(text);
      CHECK(!correct);
      CHECK(has(text, "  !! after reduce-scatter not every rank r holds the whole sum of segment (r + 1) mod G:\n"
                      "     rank 0 holds the whole sum of no segment\n"));
      CHECK(!has(text, "  after reduce-scatter rank r holds"));
      CHECK(has(text, "!! wrong (the schedule played as allreduce_ring issues it): rank 0's element 0 holds "));
    }
    SUBCASE("no transfer at all (the shipped stub): nothing reaches the outputs") {
      bool correct = true;
      const std::string text = ring_trace_text({}, 3, 12, 4, &correct);
      CAPTURE(text);
      CHECK(!correct);
      CHECK(has(text, "  nothing moves\n"));
      CHECK(has(text, "rank 0's element 0 holds what the output held before the all-reduce"));
      CHECK(has(text, "(36 wrong elements in all)"));
    }
    SUBCASE("a transfer the ring cannot issue is named, not followed") {
      auto plan = three_ranks();
      plan[4].to = 7;
      bool correct = true;
      const std::string text = ring_trace_text(plan, 3, 12, 4, &correct);
      CAPTURE(text);
      CHECK(!correct);
      CHECK(has(text, "!! wrong: transfer 4 of the schedule is none the ring can issue: rank 1 -> rank 7 with 3 ranks"));
      plan = three_ranks();
      plan[0].end = 13;
      CHECK(has(ring_trace_text(plan, 3, 12, 4, &correct), "transfer 0 of the schedule is none the ring can issue: elements [0, 13) of 12"));
      CHECK(!correct);
    }
  }
}
