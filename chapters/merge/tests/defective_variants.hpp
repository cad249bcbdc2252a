// Deliberately defective variants of the solution's merge code, one mutation each, for the
// regression tests of the source defects M1-M12 (see the chapter README's defect table).
//
// Each variant is a copy of the solution's function or kernel (int32 keys) with a switch:
// `none` is the unmutated copy (the tests check it is right, so the mutation is the only
// difference); every other value re-introduces one defect of the printed listings.
//
// The host functions run on both backends. The kernels are run by the tests on the cpu
// backend only: there the emulator poisons shared memory and fixes the scheduling order, so
// a stale read or a race gives the same wrong answer every time; on a GPU the same variant
// may or may not show its defect, and would trip compute-sanitizer on purpose.
#pragma once

#include <cstdint>

#include "merge.hpp"

namespace merge::defective {

// ---- host and device functions (§12.2, §12.4, §12.7) ------------------------------------
enum class sequential_defect {
  none,
  M1_tail_in_loop,  // the tail copy sits inside the main while loop
  M1_unstable,      // A[i] < B[j]: ties take B first
};
void merge_sequential(sequential_defect defect, const std::int32_t* A, std::int64_t m, const std::int32_t* B,
                      std::int64_t n, std::int32_t* C, const value_t* A_val = nullptr,
                      const value_t* B_val = nullptr, value_t* C_val = nullptr);

enum class co_rank_defect {
  none,
  M2_return_in_loop,    // `return i;` inside the while loop
  M3_strict_tie,        // B[j-1] > A[i] instead of >=
};
std::int64_t co_rank(co_rank_defect defect, std::int64_t k, const std::int32_t* A, std::int64_t m,
                     const std::int32_t* B, std::int64_t n);

enum class co_rank_circular_defect {
  none,
  M10_i_for_j,  // the slot of B[j-1] computed from B_S_start + i - 1
};
// Returns -1 when the search has not ended after 64 steps (the M10 variant may not end).
int co_rank_circular(co_rank_circular_defect defect, int k, const std::int32_t* A_S, int m, const std::int32_t* B_S,
                     int n, int A_S_start, int B_S_start, int tile_size);

enum class part_defect {
  none,
  M4_truncating_ceil,  // ceil(total / parts) with integer operands: rounds down
  M12_int32,           // 32-bit sizes and products
};
std::int64_t part_begin(part_defect defect, std::int64_t p, std::int64_t parts, std::int64_t total);

// ---- kernels (int32 keys; device pointers; values only in merge_basic) -------------------
enum class basic_defect {
  none,
  M3_strict_tie,       // co_rank with the strict comparison
  M4_truncating_ceil,  // elements per thread rounded down
};
void merge_basic(basic_defect defect, const problem<std::int32_t>& device, int grid, int block);

enum class tiled_defect {
  none,
  M5_block_range,        // block's output range per block rounded down
  M5_iterations,         // total_iteration rounded down: the last partial tile skipped
  M6_full_tile_lengths,  // A_consumed from a co-rank over full tiles
  M7_running_offset,     // B_consumed += tile - A_consumed (the running total)
  M7_no_end_barrier,     // no barrier before the next tile overwrites A_S, B_S
  M8_co_ranks_in_tile,   // block co-ranks passed through A_S[0], A_S[1]
  M11_floor_share,       // each thread's share tile_size / blockDim.x, rounded down
};
void merge_tiled(tiled_defect defect, const problem<std::int32_t>& device, int grid, int block, int tile_size);

enum class circular_defect {
  none,
  M9_refill_from_consumed,  // new elements read from A_consumed (translation), not from A_loaded
  M9_overwrite_kept,        // new elements written at A_S_start + i, over the kept ones (3rd ed.)
  M9_B_length_typo,         // B_loaded grows by min(.., A_length - B_loaded) (the translation's note)
};
void merge_circular(circular_defect defect, const problem<std::int32_t>& device, int grid, int block, int tile_size);

}  // namespace merge::defective
