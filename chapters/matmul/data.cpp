#include "data.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "wb/generate.hpp"

namespace matmul {

std::vector<float> generate(std::int64_t rows, std::int64_t cols, fill f, std::uint64_t seed, std::uint64_t salt) {
  const auto count = static_cast<std::size_t>(rows * cols);
  std::vector<float> out(count, 0.0f);
  wb::gen::rng r(seed ^ (0x9E3779B97F4A7C15ull * (salt + 1)));
  switch (f) {
    case fill::uniform:
      for (auto& v : out) v = static_cast<float>(2 * r.unit() - 1);
      break;
    case fill::small_integers:
      for (auto& v : out) v = static_cast<float>(static_cast<int>(r.below(5)) - 2);
      break;
    case fill::extremes:
      for (auto& v : out) {
        const int e = static_cast<int>(r.below(121)) - 60;
        v = std::ldexp(r.below(2) != 0 ? 1.0f : -1.0f, e);
      }
      break;
    case fill::zeros:
      break;
    case fill::identity:
      for (std::int64_t i = 0; i < std::min(rows, cols); ++i) out[static_cast<std::size_t>(i * cols + i)] = 1.0f;
      break;
  }
  return out;
}

const char* fill_name(fill f) {
  switch (f) {
    case fill::uniform:
      return "uniform";
    case fill::small_integers:
      return "small-integers";
    case fill::extremes:
      return "extremes";
    case fill::zeros:
      return "zeros";
    case fill::identity:
      return "identity";
  }
  return "?";
}

bool parse_fill(const std::string& name, fill& out) {
  for (fill f : {fill::uniform, fill::small_integers, fill::extremes, fill::zeros, fill::identity}) {
    if (name == fill_name(f)) {
      out = f;
      return true;
    }
  }
  return false;
}

std::vector<bf16> to_bf16(std::span<const float> values) {
  std::vector<bf16> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = wb::to_bf16(values[i]);
  return out;
}

std::vector<float> to_float(std::span<const bf16> values) {
  std::vector<float> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = wb::to_float(values[i]);
  return out;
}

reference_product reference_host(std::span<const float> A, std::span<const float> B, std::int64_t M, std::int64_t N,
                                 std::int64_t K) {
  if (static_cast<std::int64_t>(A.size()) != M * K || static_cast<std::int64_t>(B.size()) != K * N) {
    throw std::invalid_argument("reference_host: A must hold M x K and B K x N elements");
  }
  reference_product ref{M, N, K, std::vector<double>(static_cast<std::size_t>(M * N), 0.0),
                        std::vector<double>(static_cast<std::size_t>(M * N), 0.0)};
  std::vector<double> b_row(static_cast<std::size_t>(N));
  // i-k-j order: every C[i][j] still sums its terms in k order, and B is read row by row.
  for (std::int64_t i = 0; i < M; ++i) {
    double* c = ref.C.data() + i * N;
    double* s = ref.abs_sum.data() + i * N;
    for (std::int64_t k = 0; k < K; ++k) {
      const double a = A[static_cast<std::size_t>(i * K + k)];
      const float* b = B.data() + k * N;
      for (std::int64_t j = 0; j < N; ++j) {
        const double p = a * static_cast<double>(b[j]);  // exact: 24 + 24 significant bits < 53
        c[j] += p;
        s[j] += std::fabs(p);
      }
    }
  }
  return ref;
}

std::string first_wrong(std::span<const float> C, const reference_product& ref, const error_model& model,
                        const std::string& what) {
  if (C.size() != ref.C.size()) {
    return fmt::format("{}: {} elements instead of {}", what, C.size(), ref.C.size());
  }
  for (std::size_t e = 0; e < C.size(); ++e) {
    if (!element_ok(C[e], ref.C[e], ref.abs_sum[e], model)) {
      const auto i = static_cast<std::int64_t>(e) / std::max<std::int64_t>(ref.N, 1);
      const auto j = static_cast<std::int64_t>(e) % std::max<std::int64_t>(ref.N, 1);
      return fmt::format("{}: C[{}][{}] = {:.9g}, expected {:.9g} within {:.3g} (K = {})", what, i, j, C[e], ref.C[e],
                         error_bound(model, ref.C[e], ref.abs_sum[e]), ref.K);
    }
  }
  return "";
}

std::int64_t count_wrong(std::span<const float> C, const reference_product& ref, const error_model& model) {
  std::int64_t wrong = 0;
  for (std::size_t e = 0; e < C.size() && e < ref.C.size(); ++e) {
    if (!element_ok(C[e], ref.C[e], ref.abs_sum[e], model)) ++wrong;
  }
  return wrong;
}

}  // namespace matmul
