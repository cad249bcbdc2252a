// Every stage against the reference (tests/test_support.cpp: double precision, every row,
// within the bound of error_bound.hpp): fresh seeded data; seq and kv_seq of 1, 31-33 and
// around every tile of stage 3 (32 x 32) and stage 1 (32 keys x 8 queries); kv_seq above and
// below seq, causal (bottom-right) where kv_seq >= seq; d of 16, 32, 64, 128, an odd d and 256;
// scores past 88.7; all-equal scores; a NaN in V; empty problems; causal with kv_seq < seq refused.
// Stage 4 (bf16 K and V, tensor cores): tiles of 64, so seq and kv_seq around 64 and 128 too.
#include <type_traits>

#include "test_support.hpp"
#include "wb/device_buffer.hpp"
#include "wb/workspace.hpp"

using namespace attention;
using namespace attention::testing;

TEST_SUITE("attention/0 sequential") {
  TEST_CASE("two queries by hand: equal scores average the values; the causal first query sees one key") {
    inputs in{{1, 1, 2, 2, 1, false}, {0, 0}, {0, 0}, {1, 3}};
    WB_CHECK_EQUAL_SEQ((std::vector<float>{2, 2}), run_stage(0, in));
    in.d.causal = true;
    WB_CHECK_EQUAL_SEQ((std::vector<float>{1, 2}), run_stage(0, in));
    inputs one{{1, 1, 1, 3, 2, true}, {1, 0}, {0, 0, 0, 0, 0, 0}, {1, 2, 3, 4, 5, 6}};  // kv 3 > seq 1: sees all
    WB_CHECK_EQUAL_SEQ((std::vector<float>{3, 4}), run_stage(0, one));
  }
  TEST_CASE("seq and kv_seq of 1, 31-33, causal and not") {
    check_shapes(0, pairs({1, 31, 32, 33}, 16), wb::testing::seed(1));
  }
  TEST_CASE("d of 1, 16, 32, 64, 128, 37 and 256; two heads, two sequences") {
    for (const std::int64_t dim : {1, 16, 32, 64, 128, 37, 256}) {
      check_shapes(0, {{2, 2, 9, 13, dim, false}, {2, 2, 9, 13, dim, true}}, wb::testing::seed(2 + dim));
    }
  }
  TEST_CASE("scores past 88.7") { check_large_scores(0, wb::testing::seed(3)); }
  TEST_CASE("all-equal scores: O is the mean of the value rows seen") { check_equal_scores(0, wb::testing::seed(4)); }
  TEST_CASE("a NaN in V reaches exactly the outputs whose query sees its key") { check_nan_in_v(0, wb::testing::seed(5)); }
  TEST_CASE("empty problems; causal with kv_seq < seq refused") { check_empty_and_refused(0); }
}

TEST_SUITE("attention/1 three-kernels") {
  TEST_CASE("seq and kv_seq of 1, 7-9, 31-33, 63-65: around the 32 x 8 tiles, causal and not") {
    check_shapes(1, pairs({1, 7, 8, 9, 31, 32, 33, 63, 64, 65}, 16), wb::testing::seed(10));
  }
  TEST_CASE("d of 1, 16, 32, 33, 64, 128, 37 and 256; two heads, two sequences") {
    for (const std::int64_t dim : {1, 16, 32, 33, 64, 128, 37, 256}) {
      check_shapes(1, {{2, 2, 9, 13, dim, false}, {2, 2, 9, 13, dim, true}}, wb::testing::seed(11 + dim));
    }
  }
  TEST_CASE("a row longer than the softmax block (kv_seq 700 > 256 threads)") {
    check_shapes(1, {{1, 1, 3, 700, 8, false}, {1, 1, 3, 700, 8, true}}, wb::testing::seed(12));
  }
  TEST_CASE("scores past 88.7") { check_large_scores(1, wb::testing::seed(13)); }
  TEST_CASE("all-equal scores: O is the mean of the value rows seen") { check_equal_scores(1, wb::testing::seed(14)); }
  TEST_CASE("a NaN in V reaches exactly the outputs whose query sees its key") { check_nan_in_v(1, wb::testing::seed(15)); }
  TEST_CASE("empty problems; causal with kv_seq < seq refused") { check_empty_and_refused(1); }
}

TEST_SUITE("attention/2 online") {
  TEST_CASE("seq and kv_seq of 1, 3-5, 31-33, 63-65, causal and not") {
    check_shapes(2, pairs({1, 3, 4, 5, 31, 32, 33, 63, 64, 65}, 16), wb::testing::seed(20));
  }
  TEST_CASE("d of 1, 16, 32, 33, 64, 65, 128, 37 and 256 (every register count a lane keeps)") {
    for (const std::int64_t dim : {1, 16, 32, 33, 64, 65, 128, 37, 256}) {
      check_shapes(2, {{2, 2, 9, 13, dim, false}, {2, 2, 9, 13, dim, true}}, wb::testing::seed(21 + dim));
    }
  }
  TEST_CASE("scores past 88.7") { check_large_scores(2, wb::testing::seed(23)); }
  TEST_CASE("all-equal scores: O is the mean of the value rows seen") { check_equal_scores(2, wb::testing::seed(24)); }
  TEST_CASE("a NaN in V reaches exactly the outputs whose query sees its key") { check_nan_in_v(2, wb::testing::seed(25)); }
  TEST_CASE("empty problems; causal with kv_seq < seq refused") { check_empty_and_refused(2); }
}

TEST_SUITE("attention/3 tiled") {
  TEST_CASE("seq and kv_seq of 1, 31-33, 63-65, 95-97: every 32-row tile edge, causal and not") {
    check_shapes(3, pairs({1, 31, 32, 33, 63, 64, 65, 96}, 16), wb::testing::seed(30));
    check_shapes(3, {{1, 1, 95, 97, 16, true}, {1, 1, 97, 97, 16, true}, {1, 1, 33, 130, 16, true}},
                 wb::testing::seed(31));
  }
  TEST_CASE("d of 1, 16, 32, 33, 64, 128, 37 and 256 (shared memory past 48 KiB from d 128)") {
    for (const std::int64_t dim : {1, 16, 32, 33, 64, 128, 37, 256}) {
      check_shapes(3, {{1, 2, 33, 40, dim, false}, {1, 2, 33, 40, dim, true}}, wb::testing::seed(32 + dim));
    }
  }
  TEST_CASE("several heads and sequences: each block reads its own (batch, head)") {
    check_shapes(3, {{3, 2, 40, 35, 8, false}, {2, 3, 33, 70, 8, true}}, wb::testing::seed(33));
  }
  TEST_CASE("scores past 88.7") { check_large_scores(3, wb::testing::seed(34)); }
  TEST_CASE("all-equal scores: O is the mean of the value rows seen") { check_equal_scores(3, wb::testing::seed(35)); }
  TEST_CASE("a NaN in V reaches exactly the outputs whose query sees its key") { check_nan_in_v(3, wb::testing::seed(36)); }
  TEST_CASE("empty problems; causal with kv_seq < seq refused") { check_empty_and_refused(3); }
}

TEST_SUITE("attention/4 tensor-cores") {
  // K and V rounded to bf16 (the problem, for the reference too); the bound of error_bound.hpp
  // with stage 4's terms (stage_inputs).
  TEST_CASE("seq and kv_seq of 1, 31-33, 63-65, 127-129: every 64-row tile edge, causal and not") {
    check_shapes(4, pairs({1, 31, 32, 33, 63, 64, 65, 127, 128, 129}, 16), wb::testing::seed(40));
  }
  TEST_CASE("d of 16, 32, 64 and 128 (one kernel each); kv_seq above and below seq") {
    for (const std::int64_t dim : {16, 32, 64, 128}) {
      check_shapes(4, {{1, 2, 70, 100, dim, false}, {1, 2, 70, 100, dim, true}, {1, 1, 100, 70, dim, false}},
                   wb::testing::seed(41 + dim));
    }
  }
  TEST_CASE("several heads and sequences: each block reads its own (batch, head)") {
    check_shapes(4, {{3, 2, 40, 35, 16, false}, {2, 3, 65, 130, 32, true}}, wb::testing::seed(42));
  }
  TEST_CASE("scores past 88.7") { check_large_scores(4, wb::testing::seed(43)); }
  TEST_CASE("all-equal scores: O is the mean of the value rows seen") { check_equal_scores(4, wb::testing::seed(44)); }
  TEST_CASE("a NaN in V reaches the outputs whose query sees its key (causal: maybe the rest of its tile's block)") {
    check_nan_in_v(4, wb::testing::seed(45));
  }
  TEST_CASE("empty problems; causal with kv_seq < seq refused; d other than 16, 32, 64, 128 and unaligned K refused") {
    check_empty_and_refused(4);
    for (const std::int64_t dim : {1, 8, 24, 33, 256}) {
      CAPTURE(dim);
      CHECK_THROWS_AS(run_stage(4, stage_inputs(4, {1, 1, 4, 4, dim, false}, 1)), std::invalid_argument);
    }
    const inputs in = stage_inputs(4, {1, 1, 4, 4, 16, false}, 2);
    wb::device_buffer<float> Q(in.Q), O(in.Q.size());
    wb::device_buffer<bf16> K(in.K.size() + 8), V(in.V.size() + 8);
    CHECK_THROWS_AS(track::attention_tensor_core(problem<bf16>{Q.data(), K.data() + 1, V.data(), O.data(), in.d}),
                    std::invalid_argument);
  }
}

TEST_SUITE("attention/6 decode") {
  TEST_CASE("seq 1-16 against kv_seq of 1 to 300, causal and not, the stage's plan of splits") {
    std::vector<dims> shapes;
    for (const std::int64_t seq : {1, 2, 5, 16}) {
      for (const std::int64_t kv : {16, 17, 63, 64, 65, 127, 128, 129, 300}) {
        shapes.push_back({2, 2, seq, kv, 32, false});
        shapes.push_back({2, 2, seq, kv, 32, true});
      }
    }
    shapes.push_back({1, 1, 1, 1, 32, false});
    shapes.push_back({1, 3, 4, 3, 32, false});
    check_shapes(6, shapes, wb::testing::seed(60));
  }
  TEST_CASE("chunks of 1, 5, 8, 31 and 64 keys: splits of every length, the last one partial, splits no query sees") {
    for (const std::int64_t chunk : {1, 5, 8, 31, 64}) {
      CAPTURE(chunk);
      check_shapes(6, {{1, 2, 3, 100, 16, false}, {1, 2, 16, 100, 16, true}, {2, 1, 16, 16, 16, true}},
                   wb::testing::seed(61 + chunk), {chunk});
    }
  }
  TEST_CASE("K and V in bf16: the rounded values are the problem") {
    for (const bool causal : {false, true}) {
      for (const std::int64_t dim : {16, 64, 128}) {
        const dims d{2, 2, 3, 150, dim, causal};
        check_case(6, make_inputs(d, wb::testing::seed(62 + dim), fill::uniform, true), describe(d) + ", bf16 K and V");
        check_case(6, make_inputs(d, wb::testing::seed(63 + dim), fill::uniform, true), describe(d) + ", bf16, chunk 7",
                   {7});
      }
    }
  }
  TEST_CASE("d of 1, 16, 32, 33, 64, 128, 37 and 256 (every register count and keys per step)") {
    for (const std::int64_t dim : {1, 16, 32, 33, 64, 128, 37, 256}) {
      check_shapes(6, {{1, 2, 3, 77, dim, false}, {1, 2, 3, 77, dim, true}}, wb::testing::seed(64 + dim), {20});
    }
  }
  TEST_CASE("K and V that start off a vector's alignment take the loads of one element") {
    // The stage loads 2 or 4 elements at once where d and the pointers allow (vector_load.cuh).
    for (const bool half : {false, true}) {
      const dims d{1, 2, 3, 50, 64, true};
      const inputs in = make_inputs(d, wb::testing::seed(70), fill::uniform, half);
      const auto run_shifted = [&](auto element) {
        using T = decltype(element);
        std::vector<T> K(in.K.size() + 1), V(in.V.size() + 1);
        for (std::size_t e = 0; e < in.K.size(); ++e) {
          if constexpr (std::is_same_v<T, float>) K[e + 1] = in.K[e], V[e + 1] = in.V[e];
          else K[e + 1] = wb::to_bf16(in.K[e]), V[e + 1] = wb::to_bf16(in.V[e]);
        }
        wb::device_buffer<float> Q(in.Q), O(in.Q.size());
        wb::device_buffer<T> dK(K), dV(V);
        O.fill_bytes(output_poison);
        wb::workspace_buffer ws(decode_workspace_bytes(d));
        track::attention_decode(problem<T>{Q.data(), dK.data() + 1, dV.data() + 1, O.data(), d}, ws.view());
        WB_CHECK(cudaDeviceSynchronize());
        return O.to_host();
      };
      const std::string wrong = half ? first_wrong(in, run_shifted(bf16{})) : first_wrong(in, run_shifted(0.0f));
      INFO((describe(d) + (half ? ", bf16" : ", fp32") + ", K and V one element past an aligned start"));
      REQUIRE_MESSAGE(wrong.empty(), wrong);
    }
  }
  TEST_CASE("scores past 88.7") {
    check_large_scores(6, wb::testing::seed(65));
    check_large_scores(6, wb::testing::seed(66), {9});
  }
  TEST_CASE("all-equal scores: O is the mean of the value rows seen") {
    check_equal_scores(6, wb::testing::seed(67), {8});
  }
  TEST_CASE("a NaN in V reaches exactly the outputs whose query sees its key") {
    check_nan_in_v(6, wb::testing::seed(68));
    check_nan_in_v(6, wb::testing::seed(69), {6});
  }
  TEST_CASE("empty problems; causal with kv_seq < seq refused; more than 16 queries refused") {
    check_empty_and_refused(6);
    CHECK_THROWS_AS(run_stage(6, make_inputs({1, 1, 17, 40, 8, false}, 1)), std::invalid_argument);
  }
}
