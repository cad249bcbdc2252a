// Stage 2: the basic merge kernel (PMPP §12.5, Fig. 12.9).
//
// Each thread owns an equal slice of the output C. It finds the co-ranks of both ends of its
// slice and merges the two input slices that produce it with merge_sequential, straight from
// global memory.
#include "wb/kernel.hpp"

#include "co_rank.cuh"
#include "merge.hpp"
#include "output_ranges.cuh"
#include "sequential.cuh"

namespace merge::WB_TRACK {

template <class K>
__global__ void merge_basic_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n, K* C, const value_t* A_val,
                                   const value_t* B_val, value_t* C_val) {
  // TODO (stage 2, PMPP §12.5, Fig. 12.9):
  //   1. This thread's output range [k_curr, k_next): part_begin(tid) and part_begin(tid + 1)
  //      of grid_thread_count() parts of m + n (fix part_begin in output_ranges.cuh first).
  //      Use wb::global_thread_index(): 64-bit (M12).
  //   2. i_curr = co_rank(k_curr, ...), i_next = co_rank(k_next, ...); j = k - i.
  //   3. merge_sequential(A + i_curr, i_next - i_curr, B + j_curr, j_next - j_curr, C + k_curr,
  //      and the value pointers moved the same way: offset_or_null(A_val, i_curr), ...).
  // Delete the next line when you write the kernel.
  (void)A, (void)m, (void)B, (void)n, (void)C, (void)A_val, (void)B_val, (void)C_val;
}

template <class K>
void merge_basic(const problem<K>& p, const config& requested) {
  const config cfg = resolve(2, requested, p.m + p.n, sizeof(K), p.has_values());
  if (p.m + p.n == 0) return;
  wb::launch({static_cast<unsigned>(cfg.grid), static_cast<unsigned>(cfg.block)}, merge_basic_kernel<K>, p.A, p.m, p.B,
             p.n, p.C, p.A_val, p.B_val, p.C_val);
}

#define MERGE_INSTANTIATE(K) template void merge_basic<K>(const problem<K>&, const config&);
MERGE_FOR_EACH_KEY(MERGE_INSTANTIATE)
#undef MERGE_INSTANTIATE

}  // namespace merge::WB_TRACK
