// The races the chapter teaches, one `race:` case for each stage whose lesson is a race
// (common/EXERCISES.md, "A stage whose lesson is a race"): stage 2's two barriers. The case
// runs this track's stage under the cpu backend's race check first, so that a learner's
// missing barrier is reported by name (both threads, both lines) before any check of C fails;
// `wb check` shows a race: case's failure first.
#include <fmt/format.h>

#include "wb/race_check.hpp"

#include "defective_variants.hpp"
#include "test_support.hpp"

using namespace matmul;
using namespace matmul::testing;

TEST_SUITE("matmul/2 tiled") {
  TEST_CASE("race: a missing barrier between tile phases is reported, and gives a wrong C under a fixed order") {
    // First the stage itself under the race check, on a product small enough for the check
    // (run_stage pauses it above 2^16 multiply-adds): 3 x 3 tiles of 16, K in three phases, the
    // last partial. A learner's missing barrier is reported here, naming both threads and lines,
    // before anything below can fail on the wrong C it makes. Against the solution, every
    // __syncthreads() of the kernel left out in turn must be caught.
    const inputs small = make_inputs(2, 40, 36, 40, fill::uniform, fill::uniform, wb::testing::seed(75));
    wb::testing::check_race_lesson([&] { return right(small, run_stage(2, small)); }, {});

    // The defective variants (defective_variants.hpp) on a larger product: the race check names
    // the two accesses; without it, under a fixed order, the race makes C wrong.
    const inputs in = make_inputs(2, 40, 36, 64, fill::uniform, fill::uniform, wb::testing::seed(73));
    for (const auto defect :
         {defective::tiled_defect::no_barrier_after_load, defective::tiled_defect::no_barrier_after_compute}) {
      const char* missing = defect == defective::tiled_defect::no_barrier_after_load ? "loads" : "products";
      const auto run = [&] {
        return run_defective(in, [&](const float* A, const float* B, float* C_) {
          defective::matmul_tiled(defect, A, B, C_, in.M, in.N, in.K);
        });
      };
      if (wb::testing::race_check_active()) {  // the race check names the two accesses
        std::string race;
        INFO(fmt::format("barrier missing after the {}", missing));
        CHECK(wb::testing::race_reported([&] { (void)run(); }, &race));
        CHECK(race.find("no __syncthreads()") != std::string::npos);
      }
      [[maybe_unused]] const wb::testing::race_check_paused unchecked;  // what the race does to C
      under_fixed_orders([&](const char* order) {
        const auto C = run();
        INFO(fmt::format("{} scheduling order, barrier missing after the {}", order, missing));
#if defined(WB_BACKEND_CPU)
        CHECK_MESSAGE(!right(in, C), "the racy variant must fail");
#else
        (void)C;  // a GPU may or may not show the race on one run: racecheck does, every time
#endif
      });
    }
    under_fixed_orders([&](const char*) { CHECK(right(in, run_stage(2, in))); });
  }
}
