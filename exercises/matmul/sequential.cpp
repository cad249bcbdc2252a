// Stage 0: the specification (PMPP §3.4, Fig. 3.11, on the host): C[i][j] is the sum over k
// of A[i][k] * B[k][j], added in k order in fp32. Every other stage is checked against a
// double-precision product with a stated error bound, and this one too.
#include "matmul.hpp"

namespace matmul::WB_TRACK {

void matmul_sequential_host(const fp32_problem& p) {
  // TODO(matmul/0): C = A B as in PMPP §3.4: for every row i and column j of C, the dot product
  // of row i of A and column j of B (all three row-major: A[i][k] is p.A[i * p.K + k]).
}

}  // namespace matmul::WB_TRACK
