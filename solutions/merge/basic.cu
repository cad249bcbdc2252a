// Stage 2: the basic merge kernel (PMPP §12.5, Fig. 12.9).
//
// Each thread owns an equal slice of the output C. It finds the co-ranks of both ends of its
// slice and merges the two input slices that produce it with merge_sequential, straight from
// global memory. Simple and correct; slow, because neighbouring threads read and write
// addresses far apart (no coalescing) and every co_rank step is a dependent global load.
#include "wb/kernel.hpp"

#include "co_rank.cuh"
#include "merge.hpp"
#include "output_ranges.cuh"
#include "sequential.cuh"

namespace merge::WB_TRACK {

template <class K>
__global__ void merge_basic_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n, K* C, const value_t* A_val,
                                   const value_t* B_val, value_t* C_val) {
  const std::int64_t tid = wb::global_thread_index();  // M12: 64-bit
  const std::int64_t threads = wb::grid_thread_count();
  // This thread's output range [k_curr, k_next): M4, ceil of the true quotient, so the last
  // outputs are covered even when m+n is not a multiple of the thread count, and threads
  // past the end get an empty range instead of a rank beyond m+n.
  const std::int64_t k_curr = part_begin(tid, threads, m + n);
  const std::int64_t k_next = part_begin(tid + 1, threads, m + n);
  // The input ranges that produce it (Fig. 12.4): [i_curr, i_next) of A, [j_curr, j_next) of B.
  const std::int64_t i_curr = co_rank(k_curr, A, m, B, n);
  const std::int64_t i_next = co_rank(k_next, A, m, B, n);
  const std::int64_t j_curr = k_curr - i_curr;
  const std::int64_t j_next = k_next - i_next;
  merge_sequential(A + i_curr, i_next - i_curr, B + j_curr, j_next - j_curr, C + k_curr,
                   offset_or_null(A_val, i_curr), offset_or_null(B_val, j_curr), offset_or_null(C_val, k_curr));
}

}  // namespace merge::WB_TRACK

#include "basic_host.inl"  // the host side of stage 2, shared by both tracks
