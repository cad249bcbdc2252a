// Stage 1: through the host.
#include "support.hpp"

using namespace allreduce::testing;

TEST_SUITE("allreduce/1 through-host") {
  TEST_CASE("every rank gets the sum: G = 1, 2, 3, logical devices, every type, edge sizes") {
    check_battery(variant::through_host);
  }
}
