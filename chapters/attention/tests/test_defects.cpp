// The pitfalls of the chapter's defect table (README), each with its defective variant
// (defective_variants.hpp): the variant fails where the stage passes.
#include <cmath>

#include <fmt/format.h>

#include "wb/device_buffer.hpp"

#include "defective_variants.hpp"
#include "test_support.hpp"

using namespace attention;
using namespace attention::testing;

TEST_SUITE("attention/1 three-kernels") {
  TEST_CASE("AT1: a softmax without the row's max overflows past scores of 88.7 (NaN); the stage's passes") {
    for (const bool causal : {false, true}) {
      const dims d{1, 2, 40, 70, 16, causal};
      const inputs in = make_inputs(d, wb::testing::seed(70), fill::large);
      wb::workspace_buffer ws(scores_workspace_bytes(d));
      const std::vector<float> O = run_defective(in, [&](const problem<float>& p) {
        defective::three_kernels_unstable(p, ws.view());
      });
      INFO((describe(d) + ", scores past 88.7"));
      const std::string wrong = first_wrong(in, O);
      CHECK_MESSAGE(!wrong.empty(), "the unstable softmax must fail on scores past 88.7");
      CHECK_MESSAGE(wrong.find("nan") != std::string::npos, wrong);  // inf / inf
      const std::string mine = first_wrong(in, run_stage(1, in));
      CHECK_MESSAGE(mine.empty(), "the stage on scores past 88.7: " << mine);
    }
    // Small scores: the unstable softmax is right there; the defect is exactly the overflow.
    const inputs small = make_inputs({1, 2, 40, 70, 16, false}, wb::testing::seed(71));
    wb::workspace_buffer ws(scores_workspace_bytes(small.d));
    CHECK(right(small, run_defective(small, [&](const problem<float>& p) {
                  defective::three_kernels_unstable(p, ws.view());
                })));
  }
}

TEST_SUITE("attention/2 online") {
  TEST_CASE("AT2: without the rescale by exp(m_old - m_new) the output is wrong once the max grows; the stage passes") {
    for (const bool causal : {false, true}) {
      const dims d{1, 2, 40, 70, 32, causal};
      const inputs in = make_inputs(d, wb::testing::seed(72));
      const std::vector<float> O = run_defective(in, [](const problem<float>& p) { defective::online_no_rescale(p); });
      INFO(describe(d));
      CHECK_MESSAGE(!right(in, O), "the online softmax without its rescale must fail");
      const std::string mine = first_wrong(in, run_stage(2, in));
      CHECK_MESSAGE(mine.empty(), "the stage: " << mine);
    }
    // Keys whose scores never grow (the first key the largest: Q = 0 gives equal scores) need no
    // rescale: the variant is right there, so the defect is exactly the rescale.
    const inputs equal = make_inputs({1, 1, 9, 30, 16, false}, wb::testing::seed(73), fill::equal);
    CHECK(right(equal, run_defective(equal, [](const problem<float>& p) { defective::online_no_rescale(p); })));
  }
}

TEST_SUITE("attention/3 tiled") {
  TEST_CASE("AT3: a causal mask one key off, or aligned to the top left, fails; the stage's mask passes") {
    // seq = kv_seq: both alignments agree, the off-by-one shows; kv_seq > seq: top-left shows too.
    for (const dims d : {dims{1, 2, 33, 33, 16, true}, dims{1, 2, 40, 70, 16, true}}) {
      const inputs in = make_inputs(d, wb::testing::seed(74 + d.kv_seq));
      INFO(describe(d));
      const auto run = [&](defective::mask_defect defect) {
        return run_defective(in, [&](const problem<float>& p) { defective::tiled_mask(p, defect); });
      };
      CHECK_MESSAGE(right(in, run(defective::mask_defect::none)), "the control (the stage's own mask) must pass");
      CHECK_MESSAGE(!right(in, run(defective::mask_defect::off_by_one)), "one key too many must fail");
      if (d.kv_seq > d.seq) {
        CHECK_MESSAGE(!right(in, run(defective::mask_defect::top_left)), "the top-left alignment must fail");
      } else {
        CHECK_MESSAGE(right(in, run(defective::mask_defect::top_left)), "seq = kv_seq: top-left is bottom-right");
      }
      const std::string mine = first_wrong(in, run_stage(3, in));
      CHECK_MESSAGE(mine.empty(), "the stage: " << mine);
    }
  }
}

TEST_SUITE("attention/4 tensor-cores") {
  TEST_CASE("AT4: a row max taken per lane, without the quad's shuffles, is wrong; the stage's passes") {
    for (const bool causal : {false, true}) {
      const dims d{1, 2, 70, 130, 32, causal};
      const inputs in = stage_inputs(4, d, wb::testing::seed(75));
      INFO(describe(d));
      const auto run = [&](defective::tensor_core_defect defect) {
        return run_defective_bf16(in, [&](const problem<bf16>& p) { defective::tensor_core(p, defect); });
      };
      CHECK_MESSAGE(right(in, run(defective::tensor_core_defect::none)), "the control (the stage's kernel) must pass");
      const std::string wrong = first_wrong(in, run(defective::tensor_core_defect::per_lane_max));
      CHECK_MESSAGE(!wrong.empty(), "each lane with its own max must fail");
      MESSAGE("AT4 on " << describe(d) << ": " << wrong);
      const std::string mine = first_wrong(in, run_stage(4, in));
      CHECK_MESSAGE(mine.empty(), "the stage: " << mine);
    }
    // Q = 0: every score 0, every lane's max the row's: the variant is right there, so the
    // defect is exactly the missing reduction.
    const inputs equal = stage_inputs(4, {1, 1, 20, 70, 16, false}, wb::testing::seed(76), fill::equal);
    CHECK(right(equal, run_defective_bf16(equal, [](const problem<bf16>& p) {
                  defective::tensor_core(p, defective::tensor_core_defect::per_lane_max);
                })));
  }
}
