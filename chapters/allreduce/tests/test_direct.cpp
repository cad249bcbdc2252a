// Stage 4: the one-shot and two-shot kernels with their barrier across ranks.
#include "support.hpp"

using namespace allreduce;
using namespace allreduce::testing;

TEST_SUITE("allreduce/4 direct") {
  TEST_CASE("one-shot: every rank gets the sum (default shape)") { check_battery(variant::one_shot); }

  TEST_CASE("one-shot: three blocks of 32 threads per rank (blocks meet by number)") {
    config cfg;
    cfg.blocks = 3;
    cfg.threads = 32;
    check_battery(variant::one_shot, cfg);
  }

  TEST_CASE("two-shot: every rank gets the sum (default shape)") { check_battery(variant::two_shot); }

  TEST_CASE("two-shot: three blocks of 32 threads per rank") {
    config cfg;
    cfg.blocks = 3;
    cfg.threads = 32;
    check_battery(variant::two_shot, cfg);
  }

  TEST_CASE("a shape the kernels cannot run is refused with a message") {
    auto t = make_team(2);
    const auto inputs = make_inputs<float>(2, 10, distribution::small, 1);
    config cfg;
    cfg.threads = 48;
    CHECK_THROWS_WITH_AS(run<float>(variant::one_shot, *t, inputs, cfg), doctest::Contains("--threads"), std::invalid_argument);
    cfg.threads = 0;
    cfg.blocks = max_blocks + 1;
    CHECK_THROWS_WITH_AS(run<float>(variant::two_shot, *t, inputs, cfg), doctest::Contains("--blocks"), std::invalid_argument);
  }
}
