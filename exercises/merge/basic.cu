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
  // TODO(merge/2): each thread takes its equal part of C (part_begin), co-ranks both ends of it,
  // and merges the input slices that produce it (PMPP §12.5, Fig. 12.9).
}

}  // namespace merge::WB_TRACK

#include "basic_host.inl"  // the host side of stage 2, shared by both tracks
