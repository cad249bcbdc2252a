// A demo test binary for checking the shared test main (check_test_main.cmake runs it):
// its stages pass, fail, are not implemented, crash, hang and need a GPU, on purpose.
// WB_DEMO=failing registers only the failing stages, WB_DEMO=passing only the passing ones,
// WB_DEMO=slow only a slow one (its cases together run past a short WB_STAGE_TIMEOUT, each
// within it), WB_DEMO=none none at all.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "wb/testing.hpp"

namespace {

using wb::testing::stage_info;

constexpr stage_info all_stages[] = {
    {"demo/10 natural order", "registered first, listed last", "demo §10", "hint ten"},
    {"demo/0 pass", "passing stage", "demo §0", "hint zero"},
    {"demo/1 fail", "failing stage", "demo §1", "hint one"},
    {"demo/2 stub", "stub stage", "demo §2", "hint two"},
    {"demo/3 crash", "crashing stage", "demo §3", "hint three"},
    {"demo/4 hang", "hanging stage", "demo §4", "hint four"},
    {"demo/5 gpu only", "GPU-only stage", "demo §5", "hint five"},
    {"demo/6 pitfall", "a stage whose named pitfall fails second", "demo §6", "hint six"},
    {"demo/8 slow", "a stage of several slow test cases", "demo §8", "hint eight"},
};

bool register_demo_stages() {
  const char* set = std::getenv("WB_DEMO");
  const std::string which = set != nullptr ? set : "all";
  if (which == "none") return true;
  for (const auto& stage : all_stages) {
    const std::string suite = stage.suite;
    const bool passing = suite == "demo/0 pass" || suite == "demo/10 natural order";
    const bool failing = suite == "demo/1 fail" || suite == "demo/2 stub" || suite == "demo/3 crash";
    const bool slow = suite == "demo/8 slow";
    if ((which == "all" && !slow) || (which == "passing" && passing) || (which == "failing" && failing) ||
        (which == "slow" && slow)) {
      wb::testing::register_stages(&stage, 1);
    }
  }
  return true;
}
const bool registered = register_demo_stages();

}  // namespace

TEST_SUITE("demo/0 pass") {
  TEST_CASE("demo/0: one") { CHECK(1 + 1 == 2); }
  TEST_CASE("demo/0: two") { CHECK(registered); }
}

TEST_SUITE("demo/1 fail") {
  TEST_CASE("demo/1: passes") { CHECK(true); }
  TEST_CASE("demo/1: fails") {
    const std::vector<int> expected = {1, 2, 3, 7};
    const std::vector<int> got = {1, 2, 3, 8};
    WB_CHECK_EQUAL_SEQ(expected, got);
  }
}

TEST_SUITE("demo/2 stub") {
  // A stub leaves its output unwritten: its check fails like any wrong answer.
  TEST_CASE("demo/2: stub") { CHECK_MESSAGE(false, "at index 0: expected 1, got nothing: never written"); }
}

TEST_SUITE("demo/3 crash") {
  TEST_CASE("demo/3: aborts") { std::abort(); }
}

TEST_SUITE("demo/4 hang") {
  TEST_CASE("demo/4: never returns") {
    while (true) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

TEST_SUITE("demo/5 gpu only") {
  WB_GPU_TEST_CASE("needs a GPU") { CHECK(wb::testing::gpu_present()); }
}

TEST_SUITE("demo/6 pitfall") {
  TEST_CASE("demo/6: an ordinary check") {
    std::printf("what the code printed\n");  // as a kernel's printf would
    CHECK(1 + 1 == 3);
  }
  TEST_CASE("X1: the named pitfall") {
    INFO("input: A = [1, 3], B = [2]");
    CHECK(2 + 2 == 5);
  }
  TEST_CASE("demo/6: passes") { CHECK(true); }
}

TEST_SUITE("demo/8 slow") {
  // Three cases of 1.2 s: 3.6 s in all, past WB_STAGE_TIMEOUT=2, but no one case is.
  TEST_CASE("demo/8: first") { std::this_thread::sleep_for(std::chrono::milliseconds(1200)); CHECK(true); }
  TEST_CASE("demo/8: second") { std::this_thread::sleep_for(std::chrono::milliseconds(1200)); CHECK(true); }
  TEST_CASE("demo/8: third") { std::this_thread::sleep_for(std::chrono::milliseconds(1200)); CHECK(true); }
}

TEST_SUITE("demo/10 natural order") {
  TEST_CASE("demo/10: passes") { CHECK(std::strlen("x") == 1); }
}
