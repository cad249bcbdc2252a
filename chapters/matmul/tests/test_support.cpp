#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <regex>

#include <fmt/format.h>

#include "wb/check.hpp"
#include "wb/device_buffer.hpp"
#include "wb/race_check.hpp"

#include "stages.hpp"
#if defined(WB_HAVE_BASELINE)
#include "baseline_cublas.hpp"
#endif

namespace matmul::testing {

namespace {
const bool registered = wb::testing::register_stages(matmul::stages);

void round_to_bf16(std::vector<float>& v) {
  for (auto& x : v) x = wb::to_float(wb::to_bf16(x));
}

// Runs `launch` (a stage or a variant on the device, then a synchronisation); a fault that names
// a byte of a device allocation (the cpu backend's out-of-bounds check, a race on global memory)
// is thrown again with that byte said as an element of A, B or C.
template <class F>
void naming_elements(const std::vector<device_matrix>& matrices, F&& launch) {
  try {
    launch();
  } catch (const wb::cuda_error& e) {
    const std::string where = elements_named(e.what(), matrices);
    if (where.empty()) throw;
    throw wb::cuda_error(e.code(), std::string(e.what()) + where);
  }
}
}  // namespace

std::string elements_named(const std::string& message, const std::vector<device_matrix>& matrices) {
  static const std::regex inside(R"(byte (\d+) of a (\d+)-byte device allocation)");
  static const std::regex before(R"((\d+) bytes? before the start of a (\d+)-byte device allocation)");
  std::smatch m;
  std::int64_t offset = 0;
  std::size_t bytes = 0;
  if (std::regex_search(message, m, inside)) {
    offset = std::stoll(m[1].str());
    bytes = std::stoull(m[2].str());
  } else if (std::regex_search(message, m, before)) {
    offset = -std::stoll(m[1].str());
    bytes = std::stoull(m[2].str());
  } else {
    return "";
  }
  // The access: a store or an update can only be meant for C, a load for A or B.
  const std::string head = message.substr(0, static_cast<std::size_t>(m.position(0)));
  const auto last = [&](const char* word) {
    const auto at = head.rfind(word);
    return at == std::string::npos ? -1 : static_cast<long long>(at);
  };
  const long long reads = last(" reads"), writes = std::max(last(" writes"), last(" updates"));
  std::vector<const device_matrix*> candidates;
  for (const auto& x : matrices) {
    if (x.bytes == bytes && (reads == writes || (writes > reads) == x.written)) candidates.push_back(&x);
  }
  if (candidates.empty()) {
    for (const auto& x : matrices) {
      if (x.bytes == bytes) candidates.push_back(&x);
    }
  }
  if (candidates.empty()) return "";
  std::string names, elements;
  for (const device_matrix* x : candidates) {
    const auto size = static_cast<std::int64_t>(x->element_bytes);
    // floor division: a byte before the start is in row -1
    const std::int64_t e = offset >= 0 ? offset / size : -((-offset + size - 1) / size);
    const std::int64_t cols = std::max<std::int64_t>(x->cols, 1);
    const std::int64_t row = e >= 0 ? e / cols : -((-e + cols - 1) / cols);
    const std::int64_t col = e - row * cols;
    const std::string sep = names.empty() ? "" : " or ";
    names += fmt::format("{}{} ({} x {} {}{})", sep, x->name, x->rows, x->cols, x->element_bytes == 2 ? "bf16" : "floats",
                         x->note.empty() ? "" : ", " + x->note);
    std::string element;
    if (e < 0) {
      element = fmt::format("before {}'s first element: where {}[{}][{}] would be", x->name, x->name, row, col);
    } else if (e >= x->rows * x->cols && x->rows * x->cols > 0) {
      element = fmt::format("past {}'s last element {}[{}][{}]: where {}[{}][{}] would be", x->name, x->name,
                            x->rows - 1, x->cols - 1, x->name, row, col);
    } else {
      element = fmt::format("{}[{}][{}]", x->name, row, col);
    }
    elements += sep + element;
  }
  return fmt::format(" [in the matrices' terms: that {}-byte allocation is {}; the byte is {}]", bytes, names,
                     elements);
}

inputs make_inputs(int stage, std::int64_t M, std::int64_t N, std::int64_t K, fill fa, fill fb, std::uint64_t seed) {
  inputs in{M, N, K, generate(M, K, fa, seed, 0), generate(K, N, fb, seed, 1)};
  round_for_stage(stage, in);
  return in;
}

void round_for_stage(int stage, inputs& in) {
  if (stage >= 5) {
    round_to_bf16(in.A);
    round_to_bf16(in.B);
  }
}

std::vector<float> run_stage(int stage, const inputs& in, const config& cfg) {
  wb::testing::expect_stage_in_reach(stage);
  const auto MN = static_cast<std::size_t>(in.M * in.N);
  // The race check follows every shared-memory access: on the large products of stages 2-5
  // it would take minutes. Their small products still face it, and stage 2's missing barrier
  // has its own race case (test_defects.cpp).
  std::optional<wb::testing::race_check_paused> large_product;
  if (stage >= 2 && in.M * in.N * std::max<std::int64_t>(in.K, 1) > (std::int64_t{1} << 16)) large_product.emplace();
  if (stage == 0) {
    std::vector<float> C(MN);
    std::memset(C.data(), output_poison, C.size() * sizeof(float));
    track::matmul_sequential_host({in.A.data(), in.B.data(), C.data(), in.M, in.N, in.K});
    return C;
  }
  if (stage <= 4) {
    wb::device_buffer<float> A(in.A), B(in.B), C(MN);
    C.fill_bytes(output_poison);
    const fp32_problem p{A.data(), B.data(), C.data(), in.M, in.N, in.K};
    naming_elements(problem_matrices(in, 4), [&] {
      switch (stage) {
        case 1:
          track::matmul_naive(p, cfg);
          break;
        case 2:
          track::matmul_tiled(p, cfg);
          break;
        case 3:
          track::matmul_coarsened(p, cfg);
          break;
        default:
          track::matmul_fp32_ceiling(p, cfg);
          break;
      }
      WB_CHECK(cudaDeviceSynchronize());
    });
    return C.to_host();
  }
  const std::vector<bf16> A_h = to_bf16(in.A), B_h = to_bf16(in.B);
  wb::device_buffer<bf16> A(A_h), B(B_h), C(MN);
  C.fill_bytes(output_poison);
  const bf16_problem p{A.data(), B.data(), C.data(), in.M, in.N, in.K};
  naming_elements(problem_matrices(in, 2), [&] {
    if (stage == 5) {
      track::matmul_wmma(p, cfg);
    } else {
      wb::device_buffer<unsigned char> workspace(track::hopper_workspace_bytes(in.M, in.N, in.K, cfg));
      track::matmul_hopper(p, {workspace.data(), workspace.size()}, cfg);
    }
    WB_CHECK(cudaDeviceSynchronize());
  });
  return to_float(C.to_host());
}

std::vector<device_matrix> problem_matrices(const inputs& in, std::size_t element_bytes) {
  const auto bytes = [&](std::int64_t rows, std::int64_t cols) {
    return static_cast<std::size_t>(rows * cols) * element_bytes;
  };
  return {{"A", in.M, in.K, element_bytes, bytes(in.M, in.K), false, ""},
          {"B", in.K, in.N, element_bytes, bytes(in.K, in.N), false, ""},
          {"C", in.M, in.N, element_bytes, bytes(in.M, in.N), true, ""}};
}

error_model model_for(int stage, std::int64_t K) {
  return stage >= 5 ? bf16_error_model(K) : fp32_error_model(K);
}

float exact_output(int stage, double exact) {
  const auto f = static_cast<float>(exact);
  return stage >= 5 ? wb::to_float(wb::to_bf16(f)) : f;
}

void check_case(int stage, const inputs& in, const config& cfg, bool exact, const std::string& what) {
  check_output(stage, in, run_stage(stage, in, cfg), exact, what);
}

void check_output(int stage, const inputs& in, const std::vector<float>& C, bool exact, const std::string& what) {
  const reference_product ref = reference_host(in.A, in.B, in.M, in.N, in.K);
  INFO(what);
  REQUIRE(C.size() == ref.C.size());
  std::string wrong = first_wrong(C, ref, model_for(stage, in.K), fmt::format("stage {}", stage));
  if (!wrong.empty()) {
    float poison;
    std::memset(&poison, output_poison, sizeof poison);
    const float poison_bf16 = wb::to_float(wb::bf16_from_bits(output_poison * 0x101));
    for (std::size_t e = 0; e < C.size(); ++e) {
      if (!element_ok(C[e], ref.C[e], ref.abs_sum[e], model_for(stage, in.K))) {
        if (C[e] == poison || C[e] == poison_bf16) wrong += " (the poison C was filled with: never written)";
        break;
      }
    }
  }
  CHECK_MESSAGE(wrong.empty(), wrong);
  if (exact && wrong.empty()) {
    for (std::size_t e = 0; e < C.size(); ++e) {
      const float expected = exact_output(stage, ref.C[e]);
      if (C[e] != expected) {
        FAIL_CHECK(fmt::format("small-integer inputs must give the exact product: C[{}][{}] = {}, expected {}",
                               static_cast<std::int64_t>(e) / in.N, static_cast<std::int64_t>(e) % in.N, C[e],
                               expected));
        break;
      }
    }
  }
}

#if defined(WB_HAVE_BASELINE)
std::vector<float> run_library(int stage, const inputs& in) {
  const auto MN = static_cast<std::size_t>(in.M * in.N);
  if (stage <= 4) {
    wb::device_buffer<float> A(in.A), B(in.B), C(MN);
    C.fill_bytes(output_poison);
    baseline::cublas_sgemm({A.data(), B.data(), C.data(), in.M, in.N, in.K});
    WB_CHECK(cudaDeviceSynchronize());
    return C.to_host();
  }
  const std::vector<bf16> A_h = to_bf16(in.A), B_h = to_bf16(in.B);
  wb::device_buffer<bf16> A(A_h), B(B_h), C(MN);
  C.fill_bytes(output_poison);
  baseline::cublas_gemm_bf16({A.data(), B.data(), C.data(), in.M, in.N, in.K});
  WB_CHECK(cudaDeviceSynchronize());
  return to_float(C.to_host());
}
#endif

std::vector<shape> boundary_shapes(std::initializer_list<std::int64_t> sizes, std::int64_t other) {
  std::vector<shape> out;
  for (const std::int64_t s : sizes) {
    out.push_back({s, other, other});
    out.push_back({other, s, other});
    out.push_back({other, other, s});
    out.push_back({s, s, s});
  }
  return out;
}

void check_shapes(int stage, const config& cfg, const std::vector<shape>& shapes, std::uint64_t seed) {
  for (const shape& s : shapes) {
    const std::string what = fmt::format("M = {}, N = {}, K = {}, variant {}", s.M, s.N, s.K, cfg.variant);
    check_case(stage, make_inputs(stage, s.M, s.N, s.K, fill::uniform, fill::uniform, seed++), cfg, false,
               what + ", uniform in [-1, 1)");
    check_case(stage, make_inputs(stage, s.M, s.N, s.K, fill::small_integers, fill::small_integers, seed++), cfg, true,
               what + ", small integers");
  }
}

void check_nan_and_inf_rows(int stage, const config& cfg, std::uint64_t seed) {
  inputs in = make_inputs(stage, 37, 41, 35, fill::uniform, fill::uniform, seed);
  const std::int64_t nan_row = 5, inf_row = 20;
  in.A[static_cast<std::size_t>(nan_row * in.K + 3)] = std::numeric_limits<float>::quiet_NaN();
  in.A[static_cast<std::size_t>(inf_row * in.K + 34)] = std::numeric_limits<float>::infinity();
  in.B[static_cast<std::size_t>(34 * in.N + 7)] = 0.0f;  // infinity * 0: C[inf_row][7] is NaN
  const std::vector<float> C = run_stage(stage, in, cfg);
  const reference_product ref = reference_host(in.A, in.B, in.M, in.N, in.K);
  const std::string wrong = first_wrong(C, ref, model_for(stage, in.K), fmt::format("stage {}", stage));
  CHECK_MESSAGE(wrong.empty(), wrong);
  for (std::int64_t i = 0; i < in.M; ++i) {
    for (std::int64_t j = 0; j < in.N; ++j) {
      const float c = C[static_cast<std::size_t>(i * in.N + j)];
      CAPTURE(i);
      CAPTURE(j);
      CAPTURE(c);
      if (i == nan_row) {
        REQUIRE_MESSAGE(std::isnan(c), "a NaN in row 5 of A must make all of row 5 of C NaN");
      } else if (i == inf_row) {
        REQUIRE_MESSAGE(!std::isfinite(c), "an infinity in row 20 of A must make all of row 20 of C infinite or NaN");
        if (j == 7) REQUIRE_MESSAGE(std::isnan(c), "infinity * 0 is NaN");
      } else {
        REQUIRE_MESSAGE(std::isfinite(c), "a NaN or infinity in one row of A must not reach other rows of C");
      }
    }
  }
}

void check_overflow_rows(int stage, const config& cfg) {
  // small integers elsewhere (exact sums); 1.5 x 2^127 is exact in fp32 and bf16, and two such
  // terms of one sign already pass the largest finite value of either
  inputs in = make_inputs(stage, 5, 33, 20, fill::small_integers, fill::small_integers, 1);
  const float big = std::ldexp(1.5f, 127);
  for (std::int64_t k = 0; k < in.K; ++k) {
    in.A[static_cast<std::size_t>(1 * in.K + k)] = big;
    in.A[static_cast<std::size_t>(3 * in.K + k)] = -big;
  }
  std::fill(in.B.begin(), in.B.end(), 1.0f);  // every term of rows 1 and 3 of one sign
  round_for_stage(stage, in);
  const std::vector<float> C = run_stage(stage, in, cfg);
  check_output(stage, in, C, true, "rows 1 and 3 of C overflow: +inf and -inf");
  for (std::int64_t j = 0; j < in.N; ++j) {
    CAPTURE(j);
    CHECK(C[static_cast<std::size_t>(1 * in.N + j)] == std::numeric_limits<float>::infinity());
    CHECK(C[static_cast<std::size_t>(3 * in.N + j)] == -std::numeric_limits<float>::infinity());
  }
}

void check_special_matrices(int stage, const config& cfg, std::uint64_t seed) {
  check_case(stage, make_inputs(stage, 45, 70, 39, fill::zeros, fill::uniform, seed), cfg, true, "A = 0");
  check_case(stage, make_inputs(stage, 45, 70, 39, fill::identity, fill::uniform, seed + 1), cfg, true,
             "A = identity (45 x 39): C = the first 39 rows of B, then zeros");
  check_case(stage, make_inputs(stage, 33, 31, 0, fill::uniform, fill::uniform, seed + 2), cfg, true, "K = 0: C = 0");
  check_case(stage, make_inputs(stage, 40, 36, 50, fill::extremes, fill::extremes, seed + 3), cfg, false,
             "magnitudes from 2^-60 to 2^60");
  check_case(stage, make_inputs(stage, 3, 5, (1 << 16) + 3, fill::small_integers, fill::small_integers, seed + 5), cfg,
             true, "K = 2^16 + 3");
  for (const shape s : {shape{0, 17, 9}, shape{17, 0, 9}, shape{0, 0, 0}}) {
    const inputs in = make_inputs(stage, s.M, s.N, s.K, fill::uniform, fill::uniform, seed + 4);
    CHECK(run_stage(stage, in, cfg).empty());
  }
}

void check_zero_k(int stage, const config& cfg, std::uint64_t seed) {
  for (const shape s : {shape{1, 1, 0}, shape{3, 2, 0}, shape{33, 31, 0}, shape{128, 256, 0}, shape{129, 257, 0},
                        shape{300, 520, 0}}) {
    const inputs in = make_inputs(stage, s.M, s.N, s.K, fill::uniform, fill::uniform, seed++);
    check_case(stage, in, cfg, true, fmt::format("K = 0: C ({} x {}) all zero, variant {}", s.M, s.N, cfg.variant));
  }
}

std::vector<float> run_defective(const inputs& in, const std::function<void(const float*, const float*, float*)>& run) {
  std::vector<float> A = in.A, B = in.B;
  A.insert(A.end(), static_cast<std::size_t>(in.K + 16), 1000.0f);
  B.insert(B.end(), static_cast<std::size_t>(in.N + 16), 1000.0f);
  wb::device_buffer<float> d_A(A), d_B(B), d_C(static_cast<std::size_t>(in.M * in.N));
  d_C.fill_bytes(output_poison);
  std::vector<device_matrix> matrices = problem_matrices(in, 4);
  matrices[0].bytes = A.size() * sizeof(float);
  matrices[0].note = "then a row of 1000s";
  matrices[1].bytes = B.size() * sizeof(float);
  matrices[1].note = "then a row of 1000s";
  naming_elements(matrices, [&] {
    run(d_A.data(), d_B.data(), d_C.data());
    WB_CHECK(cudaDeviceSynchronize());
  });
  return d_C.to_host();
}

bool right(const inputs& in, const std::vector<float>& C) {
  const reference_product ref = reference_host(in.A, in.B, in.M, in.N, in.K);
  return first_wrong(C, ref, fp32_error_model(in.K), "C").empty();
}

}  // namespace matmul::testing
