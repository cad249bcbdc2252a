// The merge chapter's stages, in order: the one table the checks, the executable (--stage,
// report rows), the README and the `wb` program read. Plain C++ (no kernel headers), so a
// host-only program can include it.
#pragma once

#include <array>

#include "wb/stage.hpp"

namespace merge {

inline constexpr std::array<wb::stage, 7> stages = {{
    {0, "merge/0 sequential", "sequential merge: the specification", "PMPP §12.2, Fig. 12.2", "sequential.cuh",
     {"A merge walks both sorted inputs at once and always copies the smaller front element. Which one should go "
      "first when the two fronts are equal, and what is left to do when one input runs out?",
      "Three indices: i over A, j over B, k over C. While both inputs have elements, compare the fronts and copy "
      "one (ties to A: that keeps the merge stable). After the loop exactly one input may have a tail: copy it. "
      "Copy a value with every key when the value pointers are set.",
      "while (i < m && j < n): if A[i] <= B[j] copy A[i++] else copy B[j++] into C[k++] (and C_val[k] from "
      "A_val[i] or B_val[j] when C_val != nullptr). Then, AFTER the loop (M1: the printed code copies the tail "
      "inside it), copy A[i, m) and B[j, n) to the end of C."}},
    {1, "merge/1 co-rank", "co_rank: binary search for the split", "PMPP §12.3-12.4, Figs. 12.4-12.8", "co_rank.cuh",
     {"The first k outputs of a merge are the first i elements of A and the first k - i of B. The co-rank i "
      "can be found without merging: a binary search on i with a test that says 'too big' or 'too small'.",
      "Keep i + j == k. If A[i-1] > B[j], A contributed too much: move i down (and j up) by half the remaining "
      "range. If B[j-1] >= A[i], B contributed too much: move j down. When neither test fires, i is the answer. "
      "The >= on B's side is the stable tie rule (A first).",
      "i = min(k, m), j = k - i, i_low = max(0, k - n), j_low = max(0, k - m). Loop: if (i > 0 && j < n && "
      "A[i-1] > B[j]) { delta = (i - i_low + 1) / 2; j_low = j; i -= delta; j += delta; } else if (B's mirror "
      "test, with >= for ties: M3) { B's mirror move } else return i (M2: return only here, after both tests "
      "failed). The mirror branch is yours: swap the roles of A and B, of i and j."}},
    {2, "merge/2 basic", "basic kernel: one output slice per thread", "PMPP §12.5, Fig. 12.9",
     "output_ranges.cuh basic.cu",
     {"Give every thread an equal slice of the OUTPUT; co_rank tells it which input slices produce it, and "
      "merge_sequential does the rest. First fix part_begin: the book's ceil((m+n)/threads) with integer "
      "operands loses outputs.",
      "part_begin(p) = p * ceil(total / parts), clamped to total, in 64-bit integers. Each thread takes "
      "[part_begin(tid), part_begin(tid + 1)), co-ranks both ends, and merges A[i_curr, i_next) and "
      "B[j_curr, j_next) into C + k_curr, values alongside.",
      "part_begin: round the division up (M4), clamp the product to total, and compute it in 64 bits (M12). "
      "Kernel: wb::global_thread_index() and wb::grid_thread_count() give the thread and the parts; its outputs are "
      "[part_begin(tid), part_begin(tid + 1)); co_rank at each end gives i (and j = k - i); one merge_sequential "
      "call merges the two input slices into C at k_curr. offset_or_null moves a value pointer by the same "
      "offset as its keys, or keeps it null."}},
    {3, "merge/3 tiled", "tiled kernel: coalesced tiles in shared memory", "PMPP §12.6, Figs. 12.10-12.14",
     "tiled.cu",
     {"Stage 2's threads read global memory far apart. Let a whole block own a slice of C and bring its inputs "
      "into shared memory one tile at a time with coalesced loads; the threads then co-rank and merge inside "
      "the tile.",
      "Part 1: the block's output slice (part_begin over blocks) and its co-ranks, searched once by thread 0 "
      "and shared through shared variables of their own. Part 2, per tile: load up to tile_size elements of "
      "A and of B. Part 3: each thread's share of the tile's outputs, co-ranked over what the tile really holds. "
      "Then advance by what the tile consumed and wait before overwriting the buffers.",
      "__shared__ std::int64_t block_co_rank[2] (M8: not A_S[0], A_S[1]); thread 0 co-ranks C_curr and C_next; "
      "__syncthreads. Per tile (ceil_div(C_length, tile_size) of them, M5): A_tile = min(tile_size, A_length - "
      "A_consumed) loaded with a block-stride loop, same for B; __syncthreads; C_tile = min(tile_size, C_length "
      "- C_completed); c_curr and c_next = part_begin of threadIdx.x and of threadIdx.x + 1 over blockDim.x "
      "parts of C_tile (M11); co_rank over "
      "A_tile, B_tile (M6: the filled lengths); merge into C + C_curr + C_completed + c_curr (values read from "
      "global memory). Then A_consumed += co_rank(C_tile, ...); C_completed += C_tile; B_consumed = C_completed "
      "- A_consumed (M7); __syncthreads before the next load (M7)."}},
    {4, "merge/4 circular", "circular-buffer kernel: load each input once", "PMPP §12.7, Figs. 12.15-12.21",
     "circular_buffer.cuh circular.cu",
     {"Stage 3 reloads elements a tile did not consume. Keep them in shared memory: treat A_S and B_S as "
      "circular buffers and load only as many new elements as the last tile used.",
      "Callers use virtual indices from the tile's start; circular_slot turns one into a slot. co_rank and "
      "merge_sequential read every element through it. The kernel tracks how far each input has been LOADED "
      "as well as consumed: the buffer holds the difference, and new elements go right after it.",
      "co_rank_circular / merge_sequential_circular: your stage 1 and stage 0 code with A[x] read as "
      "A_S[circular_slot(A_S_start, x, tile_size)] (M10: B[j-1] from j - 1, not from i). Kernel: A_loaded beside "
      "A_consumed (M9); A_kept = A_loaded - A_consumed; A_new = min(tile_size - A_kept, A_length - A_loaded) "
      "loaded from A[A_curr + A_loaded + i] into slot circular_slot(A_S_start, A_kept + i); same for B (M9: "
      "B_length). Part 3 as stage 3 with A_tile = A_kept + A_new. After the tile: A_S_consumed = "
      "co_rank_circular(C_tile, ...); A_S_start and B_S_start advance (wrapping) by what each input used; "
      "__syncthreads."}},
    {5, "merge/5 coarsened", "thread coarsening: exact tiles, items per thread as the knob", "PMPP §12.8",
     "coarsened.cu",
     {"Every kernel so far gives a thread several outputs so one search serves many (§12.8). Make the amount "
      "the knob: one block, one tile of blockDim.x * items_per_thread outputs, and load exactly the inputs that "
      "tile needs.",
      "The block co-ranks both ends of its tile in global memory (two threads, at the same time), loads exactly "
      "those A and B elements into shared memory one after the other, and each thread co-ranks and merges its "
      "items_per_thread outputs there.",
      "tile = blockDim.x * items_per_thread; C_curr = blockIdx.x * tile (64-bit, M12), C_next = min(C_curr + "
      "tile, m + n); threads 0 and 1 write co_rank of C_curr and C_next into a __shared__ std::int64_t[2] (a "
      "block of one thread writes both); "
      "__syncthreads; copy A[A_curr, A_next) into AB_S and B[B_curr, B_next) after it; __syncthreads; c_curr = "
      "min(threadIdx.x * items_per_thread, C_length), c_next = min(c_curr + items_per_thread, C_length); "
      "co_rank both in shared memory; merge_sequential into C + C_curr + c_curr (values from global memory)."}},
    {6, "merge/6 at-bandwidth", "at bandwidth: partition pass + register-blocked tiles", "after the book: merge path",
     "co_rank_lower_bound.cuh partition.cuh thread_merge.cuh block_merge.cuh",
     {"What still costs in stage 5: searches on the critical path, sequential merges that write global memory "
      "uncoalesced. Co-rank every tile boundary in a pass of its own, then merge each tile in registers and move "
      "data in and out through shared memory in coalesced order.",
      "co_rank as a lower bound (fixed number of cheap steps); a partition kernel with one thread per tile "
      "boundary; a tile kernel that loads its inputs striped into shared memory, co-ranks each thread's first "
      "output there, merges a fixed number of outputs in registers (unrolled), and stores them blocked -> "
      "striped through shared memory.",
      "co_rank_lower_bound: low = max(0, k - n), high = min(k, m); while (low < high) { mid = low + (high - low) "
      "/ 2; if (B[k-1-mid] < A[mid]) high = mid; else low = mid + 1; } return low. Partition kernel: thread t < "
      "num_partitions writes co_rank_lower_bound(min(t * tile_items, m + n), ...). load_tile_striped: element x "
      "* BLOCK + threadIdx.x from A or B into registers, then into AB_S. thread_merge: merge_sequential for "
      "ITEMS outputs, unrolled, keys[x] and from[x]. store_tile_blocked: barrier, staging[threadIdx.x * ITEMS + "
      "x] = item[x], barrier, C[x * BLOCK + threadIdx.x] = staging[...], barrier. Tile kernel: A_curr = "
      "partitions[blockIdx.x], A_next = partitions[blockIdx.x + 1]; load; __syncthreads; a_curr = "
      "co_rank_lower_bound<K, int>(c_curr, ...) in shared memory; thread_merge; store; then the values: load "
      "them like the keys, vals[x] = AB_val_S[from[x]], store like the keys."}},
}};

}  // namespace merge
