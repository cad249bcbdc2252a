// The races of the attention chapter's lessons (common/CPU-BACKEND.md, "The race check"):
// stage 4 streams K and V through two shared-memory stages by cp.async: a tile is read after
// this thread's copies are waited for and a barrier, a stage is refilled after a barrier.
// stage 3 streams K and V through shared memory, a tile at a time; each tile must be whole
// before any warp reads it, and no warp may overwrite it with the next while another still
// reads it. Stage 1's softmax shares its block-wide max and sum through shared memory. Each
// case runs this track's stage on several tiles under the race check; against the solution it
// also runs the racy variants a learner writes (each barrier left out), each of which must be
// caught.
#include "defective_variants.hpp"
#include "test_support.hpp"
#include "wb/race_check.hpp"

using namespace attention;
using namespace attention::testing;

TEST_SUITE("attention/1 three-kernels") {
  TEST_CASE("race: the softmax's block-wide max and sum are read only when every warp has written its part") {
    const inputs in = make_inputs({1, 1, 3, 600, 8, true}, wb::testing::seed(80));
    wb::testing::check_race_lesson([&] { return first_wrong(in, run_stage(1, in)); }, {});
  }
}

TEST_SUITE("attention/3 tiled") {
  TEST_CASE("race: a K/V tile is read after it is whole, and overwritten after every warp is done with it") {
    for (const bool causal : {false, true}) {
      const inputs in = make_inputs({1, 1, 40, 100, 8, causal}, wb::testing::seed(81));
      wb::testing::check_race_lesson([&] { return first_wrong(in, run_stage(3, in)); }, {});
    }
  }
}

TEST_SUITE("attention/4 tensor-cores") {
  TEST_CASE("race: a K/V stage is read after its cp.async group is waited for and a barrier, refilled after another") {
    for (const bool causal : {false, true}) {
      const inputs in = stage_inputs(4, {1, 1, 70, 200, 16, causal}, wb::testing::seed(82));
      wb::testing::check_race_lesson([&] { return first_wrong(in, run_stage(4, in)); }, {});
#if defined(WB_BACKEND_CPU)
      // The cp.async waits left out (the emulator lands a copy only at its wait): the tiles are
      // read before they arrive.
      if (wb::testing::testing_solution) {
        const std::string outcome = wb::testing::variant_outcome([&] {
          return first_wrong(in, run_defective_bf16(in, [](const problem<bf16>& p) {
                               defective::tensor_core(p, defective::tensor_core_defect::no_async_wait);
                             }));
        });
        CHECK_MESSAGE(!outcome.empty(), "stage 4 without its cp.async waits passed");
      }
#endif
    }
  }
}
