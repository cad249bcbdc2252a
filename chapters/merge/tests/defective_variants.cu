// Deliberately defective variants of the solution's merge code (see defective_variants.hpp).
//
// Copies of solutions/merge/{sequential,co_rank,output_ranges,circular_buffer}.cuh and of the
// basic, tiled and circular kernels, int32 keys, with each defect behind a switch. Every
// mutation is marked `DEFECT Mx`; everything else is the solution's code.
#include "defective_variants.hpp"

#include "wb/kernel.hpp"

#include "index_math.hpp"

namespace merge::defective {
namespace {

using K = std::int32_t;

// ---- stage 0 ---------------------------------------------------------------------------
__host__ __device__ void merge_sequential_copy(sequential_defect defect, const K* A, std::int64_t m, const K* B,
                                               std::int64_t n, K* C, const value_t* A_val, const value_t* B_val,
                                               value_t* C_val) {
  std::int64_t i = 0;
  std::int64_t j = 0;
  std::int64_t k = 0;
  while (i < m && j < n) {
    const bool take_a = defect == sequential_defect::M1_unstable ? A[i] < B[j]  // DEFECT M1: ties take B
                                                                  : A[i] <= B[j];
    if (take_a) {
      if (C_val != nullptr) C_val[k] = A_val[i];
      C[k++] = A[i++];
    } else {
      if (C_val != nullptr) C_val[k] = B_val[j];
      C[k++] = B[j++];
    }
    if (defect == sequential_defect::M1_tail_in_loop) {  // DEFECT M1: the tail copy inside the loop
      if (i == m) {
        for (; j < n; ++j, ++k) {
          if (C_val != nullptr) C_val[k] = B_val[j];
          C[k] = B[j];
        }
      } else {
        for (; i < m; ++i, ++k) {
          if (C_val != nullptr) C_val[k] = A_val[i];
          C[k] = A[i];
        }
      }
    }
  }
  if (defect == sequential_defect::M1_tail_in_loop) return;  // DEFECT M1: ...and nowhere else
  for (; i < m; ++i, ++k) {
    if (C_val != nullptr) C_val[k] = A_val[i];
    C[k] = A[i];
  }
  for (; j < n; ++j, ++k) {
    if (C_val != nullptr) C_val[k] = B_val[j];
    C[k] = B[j];
  }
}

// ---- stage 1 ---------------------------------------------------------------------------
__host__ __device__ std::int64_t co_rank_copy(co_rank_defect defect, std::int64_t k, const K* A, std::int64_t m,
                                              const K* B, std::int64_t n) {
  std::int64_t i = min_of(k, m);
  std::int64_t j = k - i;
  std::int64_t i_low = max_of<std::int64_t>(0, k - n);
  std::int64_t j_low = max_of<std::int64_t>(0, k - m);
  while (true) {
    if (i > 0 && j < n && A[i - 1] > B[j]) {
      const std::int64_t delta = (i - i_low + 1) / 2;
      j_low = j;
      i -= delta;
      j += delta;
    } else if (j > 0 && i < m &&
               (defect == co_rank_defect::M3_strict_tie ? B[j - 1] > A[i]  // DEFECT M3: strict
                                                        : B[j - 1] >= A[i])) {
      const std::int64_t delta = (j - j_low + 1) / 2;
      i_low = i;
      i += delta;
      j -= delta;
    } else {
      return i;
    }
    if (defect == co_rank_defect::M2_return_in_loop) return i;  // DEFECT M2: returns after one step
  }
}

__host__ __device__ std::int64_t part_begin_copy(part_defect defect, std::int64_t p, std::int64_t parts,
                                                 std::int64_t total) {
  if (defect == part_defect::M4_truncating_ceil) {  // DEFECT M4/M5: integer division first
    const std::int64_t per_part = total / parts;
    return min_of(p * per_part, total);
  }
  if (defect == part_defect::M12_int32) {  // DEFECT M12: `int` sizes (C++20: conversions wrap)
    const auto total32 = static_cast<std::int32_t>(total);
    const auto parts32 = static_cast<std::int32_t>(parts);
    const std::int32_t per_part = static_cast<std::int32_t>((static_cast<std::int64_t>(total32) + parts32 - 1) / parts32);
    const auto begin32 = static_cast<std::int32_t>(static_cast<std::uint32_t>(p) * static_cast<std::uint32_t>(per_part));
    return begin32 < total32 ? begin32 : total32;
  }
  return min_of(p * ceil_div(total, parts), total);
}

// ---- stage 4 helpers -------------------------------------------------------------------
__host__ __device__ int circular_slot(int start, int offset, int tile_size) {
  const int slot = start + offset;
  return slot >= tile_size ? slot - tile_size : slot;
}

__host__ __device__ int co_rank_circular_copy(co_rank_circular_defect defect, int k, const K* A_S, int m,
                                              const K* B_S, int n, int A_S_start, int B_S_start, int tile_size) {
  int i = k < m ? k : m;
  int j = k - i;
  int i_low = k - n > 0 ? k - n : 0;
  int j_low = k - m > 0 ? k - m : 0;
  // Test harness, not part of the defect: with a wrong comparison the search need not end;
  // give up after 64 steps (a right search of int-sized tiles needs at most 32) and return -1.
  for (int step = 0; step < 64; ++step) {
    // DEFECT M10: the slot of B[j-1] computed with i.
    const int j_m_1 = defect == co_rank_circular_defect::M10_i_for_j ? i - 1 : j - 1;
    if (i > 0 && j < n &&
        A_S[circular_slot(A_S_start, i - 1, tile_size)] > B_S[circular_slot(B_S_start, j, tile_size)]) {
      const int delta = (i - i_low + 1) / 2;
      j_low = j;
      i -= delta;
      j += delta;
    } else if (j > 0 && i < m &&
               B_S[circular_slot(B_S_start, j_m_1, tile_size)] >= A_S[circular_slot(A_S_start, i, tile_size)]) {
      const int delta = (j - j_low + 1) / 2;
      i_low = i;
      i += delta;
      j -= delta;
    } else {
      return i;
    }
  }
  return -1;
}

__host__ __device__ void merge_sequential_circular_copy(const K* A_S, int m, const K* B_S, int n, K* C,
                                                        int A_S_start, int B_S_start, int tile_size) {
  int i = 0;
  int j = 0;
  int k = 0;
  while (i < m && j < n) {
    const K a = A_S[circular_slot(A_S_start, i, tile_size)];
    const K b = B_S[circular_slot(B_S_start, j, tile_size)];
    if (a <= b) {
      C[k++] = a;
      ++i;
    } else {
      C[k++] = b;
      ++j;
    }
  }
  for (; i < m; ++i) C[k++] = A_S[circular_slot(A_S_start, i, tile_size)];
  for (; j < n; ++j) C[k++] = B_S[circular_slot(B_S_start, j, tile_size)];
}

// ---- stage 2 ---------------------------------------------------------------------------
__global__ void merge_basic_kernel(basic_defect defect, const K* A, std::int64_t m, const K* B, std::int64_t n, K* C,
                                   const value_t* A_val, const value_t* B_val, value_t* C_val) {
  const std::int64_t tid = wb::global_thread_index();
  const std::int64_t threads = wb::grid_thread_count();
  const part_defect pd = defect == basic_defect::M4_truncating_ceil ? part_defect::M4_truncating_ceil  // DEFECT M4
                                                                     : part_defect::none;
  const co_rank_defect cd = defect == basic_defect::M3_strict_tie ? co_rank_defect::M3_strict_tie  // DEFECT M3
                                                                  : co_rank_defect::none;
  const std::int64_t k_curr = part_begin_copy(pd, tid, threads, m + n);
  const std::int64_t k_next = part_begin_copy(pd, tid + 1, threads, m + n);
  const std::int64_t i_curr = co_rank_copy(cd, k_curr, A, m, B, n);
  const std::int64_t i_next = co_rank_copy(cd, k_next, A, m, B, n);
  const std::int64_t j_curr = k_curr - i_curr;
  const std::int64_t j_next = k_next - i_next;
  merge_sequential_copy(sequential_defect::none, A + i_curr, i_next - i_curr, B + j_curr, j_next - j_curr, C + k_curr,
                        offset_or_null(A_val, i_curr), offset_or_null(B_val, j_curr), offset_or_null(C_val, k_curr));
}

// ---- stage 3 ---------------------------------------------------------------------------
__global__ void merge_tiled_kernel(tiled_defect defect, const K* A, std::int64_t m, const K* B, std::int64_t n, K* C,
                                   int tile_size) {
  K* A_S = wb::dynamic_shared<K>();
  K* B_S = A_S + tile_size;
  __shared__ std::int64_t block_co_rank[2];

  const part_defect range_defect = defect == tiled_defect::M5_block_range ? part_defect::M4_truncating_ceil  // DEFECT M5
                                                                          : part_defect::none;
  const std::int64_t C_curr = part_begin_copy(range_defect, blockIdx.x, gridDim.x, m + n);
  const std::int64_t C_next = part_begin_copy(range_defect, blockIdx.x + 1, gridDim.x, m + n);
  std::int64_t A_curr = 0;
  std::int64_t A_next = 0;
  if (defect == tiled_defect::M8_co_ranks_in_tile) {
    // DEFECT M8: the co-ranks travel through A_S[0], A_S[1], which the first tile load below
    // overwrites with no barrier between these reads and that load.
    if (threadIdx.x == 0) {
      A_S[0] = static_cast<K>(co_rank_copy(co_rank_defect::none, C_curr, A, m, B, n));
      A_S[1] = static_cast<K>(co_rank_copy(co_rank_defect::none, C_next, A, m, B, n));
    }
    __syncthreads();
    // Test harness, not part of the defect: keep a stale value inside the range a co-rank
    // can take, so the race gives wrong output rather than out-of-bounds accesses.
    const std::int64_t A_curr_lo = max_of<std::int64_t>(0, C_curr - n);
    A_curr = min_of(max_of<std::int64_t>(A_S[0], A_curr_lo), min_of(C_curr, m));
    const std::int64_t A_next_lo = max_of(max_of<std::int64_t>(0, C_next - n), A_curr);
    A_next = min_of(max_of<std::int64_t>(A_S[1], A_next_lo), min_of(min_of(C_next, m), A_curr + (C_next - C_curr)));
  } else {
    if (threadIdx.x == 0) {
      block_co_rank[0] = co_rank_copy(co_rank_defect::none, C_curr, A, m, B, n);
      block_co_rank[1] = co_rank_copy(co_rank_defect::none, C_next, A, m, B, n);
    }
    __syncthreads();
    A_curr = block_co_rank[0];
    A_next = block_co_rank[1];
  }
  const std::int64_t B_curr = C_curr - A_curr;
  const std::int64_t B_next = C_next - A_next;
  const std::int64_t C_length = C_next - C_curr;
  const std::int64_t A_length = A_next - A_curr;
  const std::int64_t B_length = B_next - B_curr;
  const std::int64_t total_iteration = defect == tiled_defect::M5_iterations ? C_length / tile_size  // DEFECT M5
                                                                             : ceil_div(C_length, tile_size);
  std::int64_t C_completed = 0;
  std::int64_t A_consumed = 0;
  std::int64_t B_consumed = 0;
  for (std::int64_t counter = 0; counter < total_iteration; ++counter) {
    const int A_tile = static_cast<int>(min_of<std::int64_t>(tile_size, A_length - A_consumed));
    const int B_tile = static_cast<int>(min_of<std::int64_t>(tile_size, B_length - B_consumed));
    for (int i = threadIdx.x; i < A_tile; i += blockDim.x) A_S[i] = A[A_curr + A_consumed + i];
    for (int i = threadIdx.x; i < B_tile; i += blockDim.x) B_S[i] = B[B_curr + B_consumed + i];
    __syncthreads();

    const int C_tile = static_cast<int>(min_of<std::int64_t>(tile_size, C_length - C_completed));
    int c_curr = 0;
    int c_next = 0;
    if (defect == tiled_defect::M11_floor_share) {  // DEFECT M11: tile_size / blockDim.x outputs each
      const int share = tile_size / static_cast<int>(blockDim.x);
      c_curr = min_of(static_cast<int>(threadIdx.x) * share, C_tile);
      c_next = min_of(static_cast<int>(threadIdx.x + 1) * share, C_tile);
    } else {
      c_curr = static_cast<int>(part_begin_copy(part_defect::none, threadIdx.x, blockDim.x, C_tile));
      c_next = static_cast<int>(part_begin_copy(part_defect::none, threadIdx.x + 1, blockDim.x, C_tile));
    }
    const int a_curr = static_cast<int>(co_rank_copy(co_rank_defect::none, c_curr, A_S, A_tile, B_S, B_tile));
    const int a_next = static_cast<int>(co_rank_copy(co_rank_defect::none, c_next, A_S, A_tile, B_S, B_tile));
    const int b_curr = c_curr - a_curr;
    const int b_next = c_next - a_next;
    merge_sequential_copy(sequential_defect::none, A_S + a_curr, a_next - a_curr, B_S + b_curr, b_next - b_curr,
                          C + C_curr + C_completed + c_curr, nullptr, nullptr, nullptr);

    const int A_used =
        defect == tiled_defect::M6_full_tile_lengths
            ? static_cast<int>(co_rank_copy(co_rank_defect::none, C_tile, A_S, tile_size, B_S, tile_size))  // DEFECT M6
            : static_cast<int>(co_rank_copy(co_rank_defect::none, C_tile, A_S, A_tile, B_S, B_tile));
    C_completed += C_tile;
    A_consumed += A_used;
    if (defect == tiled_defect::M7_running_offset) {
      B_consumed += C_tile - A_consumed;  // DEFECT M7: subtracts the running total
    } else {
      B_consumed = C_completed - A_consumed;
    }
    if (defect != tiled_defect::M7_no_end_barrier) __syncthreads();  // DEFECT M7: barrier left out
  }
}

// ---- stage 4 ---------------------------------------------------------------------------
__global__ void merge_circular_kernel(circular_defect defect, const K* A, std::int64_t m, const K* B, std::int64_t n,
                                      K* C, int tile_size) {
  K* A_S = wb::dynamic_shared<K>();
  K* B_S = A_S + tile_size;
  __shared__ std::int64_t block_co_rank[2];
  const std::int64_t C_curr = part_begin_copy(part_defect::none, blockIdx.x, gridDim.x, m + n);
  const std::int64_t C_next = part_begin_copy(part_defect::none, blockIdx.x + 1, gridDim.x, m + n);
  if (threadIdx.x == 0) {
    block_co_rank[0] = co_rank_copy(co_rank_defect::none, C_curr, A, m, B, n);
    block_co_rank[1] = co_rank_copy(co_rank_defect::none, C_next, A, m, B, n);
  }
  __syncthreads();
  const std::int64_t A_curr = block_co_rank[0];
  const std::int64_t B_curr = C_curr - A_curr;
  const std::int64_t C_length = C_next - C_curr;
  const std::int64_t A_length = block_co_rank[1] - A_curr;
  const std::int64_t B_length = (C_next - block_co_rank[1]) - B_curr;
  const std::int64_t total_iteration = ceil_div(C_length, tile_size);
  std::int64_t C_completed = 0;
  std::int64_t A_consumed = 0;
  std::int64_t B_consumed = 0;
  std::int64_t A_loaded = 0;
  std::int64_t B_loaded = 0;
  int A_S_start = 0;
  int B_S_start = 0;
  for (std::int64_t counter = 0; counter < total_iteration; ++counter) {
    const int A_kept = static_cast<int>(A_loaded - A_consumed);
    const int B_kept = static_cast<int>(B_loaded - B_consumed);
    const int A_new = static_cast<int>(min_of<std::int64_t>(tile_size - A_kept, A_length - A_loaded));
    const int B_new = static_cast<int>(min_of<std::int64_t>(
        tile_size - B_kept, (defect == circular_defect::M9_B_length_typo ? A_length : B_length)  // DEFECT M9
                                - B_loaded));
    for (int i = threadIdx.x; i < A_new; i += blockDim.x) {
      if (defect == circular_defect::M9_refill_from_consumed) {  // DEFECT M9 (translation): reads from A_consumed
        A_S[circular_slot(A_S_start, A_kept + i, tile_size)] = A[A_curr + A_consumed + i];
      } else if (defect == circular_defect::M9_overwrite_kept) {  // DEFECT M9 (3rd ed.): writes over the kept ones
        A_S[circular_slot(A_S_start, i, tile_size)] = A[A_curr + A_consumed + i];
      } else {
        A_S[circular_slot(A_S_start, A_kept + i, tile_size)] = A[A_curr + A_loaded + i];
      }
    }
    for (int i = threadIdx.x; i < B_new; i += blockDim.x) {
      if (defect == circular_defect::M9_refill_from_consumed) {
        B_S[circular_slot(B_S_start, B_kept + i, tile_size)] = B[B_curr + B_consumed + i];
      } else if (defect == circular_defect::M9_overwrite_kept) {
        B_S[circular_slot(B_S_start, i, tile_size)] = B[B_curr + B_consumed + i];
      } else {
        B_S[circular_slot(B_S_start, B_kept + i, tile_size)] = B[B_curr + B_loaded + i];
      }
    }
    A_loaded += A_new;
    B_loaded += B_new;
    __syncthreads();

    const int A_tile = A_kept + A_new;
    const int B_tile = B_kept + B_new;
    const int C_tile = static_cast<int>(min_of<std::int64_t>(tile_size, C_length - C_completed));
    const int c_curr = static_cast<int>(part_begin_copy(part_defect::none, threadIdx.x, blockDim.x, C_tile));
    const int c_next = static_cast<int>(part_begin_copy(part_defect::none, threadIdx.x + 1, blockDim.x, C_tile));
    const auto cd = co_rank_circular_defect::none;
    const int a_curr = co_rank_circular_copy(cd, c_curr, A_S, A_tile, B_S, B_tile, A_S_start, B_S_start, tile_size);
    const int a_next = co_rank_circular_copy(cd, c_next, A_S, A_tile, B_S, B_tile, A_S_start, B_S_start, tile_size);
    const int b_curr = c_curr - a_curr;
    const int b_next = c_next - a_next;
    merge_sequential_circular_copy(A_S, a_next - a_curr, B_S, b_next - b_curr, C + C_curr + C_completed + c_curr,
                                   circular_slot(A_S_start, a_curr, tile_size),
                                   circular_slot(B_S_start, b_curr, tile_size), tile_size);
    const int A_S_consumed =
        co_rank_circular_copy(cd, C_tile, A_S, A_tile, B_S, B_tile, A_S_start, B_S_start, tile_size);
    const int B_S_consumed = C_tile - A_S_consumed;
    C_completed += C_tile;
    A_consumed += A_S_consumed;
    B_consumed = C_completed - A_consumed;
    A_S_start = circular_slot(A_S_start, A_S_consumed, tile_size);
    B_S_start = circular_slot(B_S_start, B_S_consumed, tile_size);
    __syncthreads();
  }
}

}  // namespace

void merge_sequential(sequential_defect defect, const std::int32_t* A, std::int64_t m, const std::int32_t* B,
                      std::int64_t n, std::int32_t* C, const value_t* A_val, const value_t* B_val, value_t* C_val) {
  merge_sequential_copy(defect, A, m, B, n, C, A_val, B_val, C_val);
}

std::int64_t co_rank(co_rank_defect defect, std::int64_t k, const std::int32_t* A, std::int64_t m,
                     const std::int32_t* B, std::int64_t n) {
  return co_rank_copy(defect, k, A, m, B, n);
}

int co_rank_circular(co_rank_circular_defect defect, int k, const std::int32_t* A_S, int m, const std::int32_t* B_S,
                     int n, int A_S_start, int B_S_start, int tile_size) {
  return co_rank_circular_copy(defect, k, A_S, m, B_S, n, A_S_start, B_S_start, tile_size);
}

std::int64_t part_begin(part_defect defect, std::int64_t p, std::int64_t parts, std::int64_t total) {
  return part_begin_copy(defect, p, parts, total);
}

void merge_basic(basic_defect defect, const problem<std::int32_t>& p, int grid, int block) {
  wb::launch({static_cast<unsigned>(grid), static_cast<unsigned>(block)}, merge_basic_kernel, defect, p.A, p.m, p.B,
             p.n, p.C, p.A_val, p.B_val, p.C_val);
}

void merge_tiled(tiled_defect defect, const problem<std::int32_t>& p, int grid, int block, int tile_size) {
  wb::launch({static_cast<unsigned>(grid), static_cast<unsigned>(block), 2 * sizeof(K) * tile_size},
             merge_tiled_kernel, defect, p.A, p.m, p.B, p.n, p.C, tile_size);
}

void merge_circular(circular_defect defect, const problem<std::int32_t>& p, int grid, int block, int tile_size) {
  wb::launch({static_cast<unsigned>(grid), static_cast<unsigned>(block), 2 * sizeof(K) * tile_size},
             merge_circular_kernel, defect, p.A, p.m, p.B, p.n, p.C, tile_size);
}

}  // namespace merge::defective
