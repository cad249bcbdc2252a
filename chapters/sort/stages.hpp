// The sort chapter's stages: one table read by the checks (suite names, progress report),
// the executable (--stage, report rows) and `wb` (list, check, hint).
#pragma once

#include <array>

#include "wb/stage.hpp"

namespace sort {

inline constexpr std::array<wb::stage, 7> stages = {{
    {0, "sort/0 sequential", "std::stable_sort: the specification", "PMPP §13.1 (what every kernel must match)",
     "sequential.cpp",
     {"A stable sort keeps equal keys in their input order; the standard library has one. Compare keys by the "
      "chapter's order (key_less), not by <: floats with NaNs are not ordered by <.",
      "Keys only: std::stable_sort with key_less. Key-value: sort the positions 0..n-1 by their keys (stably), "
      "then gather keys and values in that order.",
      "if values empty: stable_sort(keys, key_less); else order = iota; stable_sort(order, [](a, b) { return "
      "key_less(keys[a], keys[b]); }); k[i] = keys[order[i]], v[i] = values[order[i]]; copy back."}},
    {1, "sort/1 one-bit", "radix sort, one bit per pass", "PMPP §13.3", "one_bit.cu",
     {"A radix pass splits the keys by one bit, zeros before ones, each group in input order. A key's place: "
      "where its block's keys with its bit start (the scanned counts) plus how many keys before it in its block "
      "have the same bit.",
      "The count and the exclusive scan of the counts (digit-major: offsets[bit * blocks + block]) are done for "
      "you. In the scatter kernel each thread takes one key, computes its bit (on key_bits' pattern, so signed "
      "keys and floats order right: SO2), and finds the ones before it with an exclusive block sum of the bits "
      "(SO3: inclusive counts the key itself).",
      "i = blockIdx.x * blockDim.x + t; bit = valid ? digit_of(to_bits(key), shift, 1) : 0; ones_before = "
      "block_exclusive_sum(bit, scratch, total) (every thread calls it); return if !valid; zeros_before = t - "
      "ones_before; dst = bit ? offsets[blocks + b] + ones_before : offsets[b] + zeros_before; write key (and "
      "value when dst_values != nullptr)."}},
    {2, "sort/2 coalesced", "memory-coalesced radix sort: sort each tile locally first", "PMPP §13.4",
     "local_sort.cuh",
     {"Scattered writes are slow: neighbouring threads write to distant buckets. Sort each block's tile by the "
      "digit in shared memory first; then each bucket's keys are adjacent and go to adjacent addresses.",
      "block_split_by_bit: a stable split of the tile in shared memory (each thread owns `items` consecutive "
      "keys; an exclusive block sum of each thread's ones gives its place among the ones, the zeros before it "
      "follow). local_sort_scatter_kernel: load the tile as key_bits patterns, split once per bit of the digit, "
      "find where each digit's run starts, write key i of digit d to offsets[d * blocks + b] + (i - start[d]).",
      "split: ones = count of set bits among my keys; ones_before = block_exclusive_sum(ones); zeros_total = m - "
      "total; zeros_before = min(first, m) - ones_before; for my keys: pos = bit ? zeros_total + ones_before++ : "
      "zeros_before++; out[pos] = in[i]; __syncthreads(). kernel: load, for b < BITS split(shift + b) and swap "
      "buffers; start[d] where digit(keys[i-1]) != digit(keys[i]); __syncthreads(); scatter."}},
    {3, "sort/3 larger-radix", "a larger radix: 2, 4 or 8 bits per pass", "PMPP §13.5", "larger_radix.cu",
     {"r bits per pass: 32/r passes instead of 32, but 2^r buckets per block (more counts to scan, shorter runs "
      "per bucket). The trade-off is measured with --bits.",
      "The stage-2 kernel sorts a tile by a BITS-bit digit (BITS splits) and scatters 2^BITS runs; the passes "
      "(local_sort_passes) count 2^BITS buckets per block. Dispatch the configured width (bits_for(3, cfg)) to "
      "the matching template instance, one key per thread.",
      "validate(cfg); switch (bits_for(3, cfg)) { case 1: return local_sort_passes<K, 1>(keys_in, keys_out, "
      "values_in, values_out, n, ws, cfg.block, 1, \"sort_larger_radix\"); case 2, 4, 8: the same } throw."}},
    {4, "sort/4 coarsened", "thread coarsening: several keys per thread", "PMPP §13.6", "coarsened.cu",
     {"One key per thread makes small tiles: many blocks, many counts to scan, short runs. Give each thread C "
      "keys: tiles C times larger.",
      "The same passes as stage 3 with items_for(4, cfg) keys per thread (default 8) and the configured digit "
      "width (default 4): the split loops over a thread's own keys sequentially.",
      "validate(cfg); items = items_for(4, cfg); switch (bits_for(4, cfg)) { case B: return local_sort_passes<K, "
      "B>(..., cfg.block, items, \"sort_coarsened\"); } throw."}},
    {5, "sort/5 onesweep", "onesweep: one histogram, one kernel per digit, decoupled look-back",
     "past the book: Adinets & Merrill 2022 (CUB's radix sort)", "onesweep_histogram.cuh onesweep_pass.cuh",
     {"Count every digit of every key in one read, so every pass knows its bucket starts (and which passes "
      "change nothing); then each pass is one kernel that reads and writes every key once: a tile ranks its "
      "keys in registers and finds its place in each bucket by a decoupled look-back over earlier tiles' "
      "counts, one thread per digit (the scan chapter's stage 6).",
      "histogram: shared counts per (pass, digit), added to the global ones. plan (one block of 256): an "
      "exclusive sum of each pass's counts; a pass with one digit holding all n keys is skipped; sorting passes "
      "alternate buffers so the last writes keys_out (none: the last pass copies). pass: tile number from the "
      "counter; keys in registers (warp w owns 32 x items consecutive keys, lane l the ones at 32 s + l); count "
      "each warp's digits with shared atomics; per digit: sum over warps and publish at once, a block scan "
      "gives where each warp's keys of each digit start; rank within the warp step by step (the lanes sharing "
      "your digit: __match_any_sync, or 8 __ballot_sync votes, or each lane ors its bit into a shared mask "
      "word of its digit, faster on an H100; the highest of them moves the warp's slot on); per digit: look "
      "back, publish inclusive; stage the keys in shared memory in digit order and write slot j to base[d] + "
      "before[d] - tile_start[d] + j.",
      "peers = __match_any_sync(~0u, d); leader = 31 - __clz(peers); if lane == leader: first = "
      "atomicAdd(&slot[w][d], popc(peers)); first = shfl(first, leader); my slot = first + popc(peers & lanes "
      "<= me) - 1, where slot[w][d] started at tile_start[d] + digit d's keys in earlier warps. Status word = "
      "state << 30 | count, one 32-bit volatile access: wb::device::tile_counter_status and "
      "tile_counter_exclusive_prefix (wb/device/decoupled_lookback.cuh) are yours to call; they look back 4 "
      "tiles at a time and spin while a word is 0."}},
    {6, "sort/6 merge", "merge sort: sort tiles, then merge pass after pass", "PMPP §13.7", "tile_sort.cuh merge_pass.cuh",
     {"Sort tiles in a block, then merge pairs of sorted runs, doubling the run length each pass: log2(n / tile) "
      "passes over global memory. Each pass can cost no more than a copy if it merges the way the merge "
      "chapter's stage 6 does (a merge-path partition, then one block per output tile), and every doubling of "
      "the first tile saves a whole pass.",
      "Level 0 (block_sort_kernel): each thread sorts its ITEMS keys in registers (thread_sort: odd-even "
      "transposition, stable), then the block merges runs of ITEMS, 2 ITEMS, ... in shared memory: each thread "
      "co-ranks its first output in its pair of runs (the merge chapter's co_rank_lower_bound) and merges ITEMS "
      "outputs (thread_merge). Later levels: a partition kernel co-ranks each output tile's first output within "
      "its pair of runs (pair_of), then merge_pass_kernel hands the tile's input ranges to merge_tile. Keys "
      "travel as key_bits patterns; the last level turns them back into keys.",
      "thread_sort: for round < ITEMS, for x = round & 1; x + 1 < ITEMS; x += 2: exchange x and x+1 (and their "
      "values) if keys[x+1] < keys[x]. pair_of(c): begin = c / (2w) * 2w; A_length = min(w, n - begin); "
      "B_length = min(w, n - begin - A_length). Partition: partitions[t] = co_rank_lower_bound(t * tile - begin, "
      "src + begin, A_length, src + begin + A_length, B_length). A block-sort level: barrier; keys_S[t * ITEMS + "
      "x] = keys[x]; barrier; pair_begin = (t & ~(2 threads_per_run - 1)) * ITEMS; k = t * ITEMS - pair_begin; "
      "i = co_rank_lower_bound(k, A, w, B, w); thread_merge(A, w, B, w, i, k - i, keys, from); values[x] = "
      "values_S[pair_begin + from[x]]. Merge pass: a_next = k_end == pair length ? A_length : partitions[t + 1]; "
      "merge_tile(A + a_curr, a_next - a_curr, B + (k - a_curr), (k_end - k) - (a_next - a_curr), ...)."}},
}};

}  // namespace sort
