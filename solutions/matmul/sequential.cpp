// Stage 0: the specification (PMPP §3.4, Fig. 3.11, on the host): C[i][j] is the sum over k
// of A[i][k] * B[k][j], added in k order in fp32. Every other stage is checked against a
// double-precision product with a stated error bound, and this one too (README: "How right is
// right"): the bound is what lets a GPU add in another order and still be right.
#include "matmul.hpp"

namespace matmul::WB_TRACK {

void matmul_sequential_host(const fp32_problem& p) {
  for (std::int64_t i = 0; i < p.M; ++i) {
    for (std::int64_t j = 0; j < p.N; ++j) {
      float sum = 0.0f;
      for (std::int64_t k = 0; k < p.K; ++k) sum += p.A[i * p.K + k] * p.B[k * p.N + j];
      p.C[i * p.N + j] = sum;
    }
  }
}

}  // namespace matmul::WB_TRACK
