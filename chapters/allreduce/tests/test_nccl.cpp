// Stage 5: ncclAllReduce in one group (the emulator's NCCL on the cpu backend). A team with two
// ranks on one GPU is refused, as NCCL refuses it.
#include "support.hpp"

using namespace allreduce::testing;

TEST_SUITE("allreduce/5 nccl") {
  TEST_CASE("every rank gets the sum; a team sharing a GPU is refused") {
#if defined(WB_HAVE_NCCL)
    check_battery(variant::nccl);
#else
    MESSAGE("built without NCCL: stage 5 is not checked here");
    auto t = make_team(2);
    CHECK_THROWS_AS(run<float>(variant::nccl, *t, allreduce::make_inputs<float>(2, 4, allreduce::distribution::small, 1)),
                    std::runtime_error);
#endif
  }
}
