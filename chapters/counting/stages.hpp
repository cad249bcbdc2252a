// The stages of the counting chapter, in one table (common/EXERCISES.md): read by the checks
// (suite names, progress report), the executable (--stage, report rows) and the `wb` program
// (list, check, hint). A plain C++ header: no kernel headers, so `wb` can include it.
#pragma once

#include <array>

#include "wb/stage.hpp"

namespace counting {

inline constexpr std::array<wb::stage, 9> stages = {{
    {0, "counting/0 sequential", "the article's sequential algorithm (the specification)",
     "the DCA article, 'Distribution counting algorithm overview'; D1",
     "stage0_sequential.cpp",
     {"The article's dist_count is three nested loops: for each item, count its duplicates after it, and add "
      "(value, count) to the table unless the value is already there.",
      "Walk the items in order. For item i, count the items from i on that equal it (the count starts at 1: the "
      "item itself). Then search the table built so far for the value; only a value's first occurrence is "
      "appended, and its count covers every later occurrence.",
      "In dist_count_first_seen: for index in [0, N): count = 1 + #{j > index : data[j] == data[index]}; search "
      "freq_t[ft_item-1 .. 0] (only the entries written so far) for data[index]; if absent, "
      "freq_t.push_back({data[index], count}). Use 64-bit indices. dist_count then sorts by value (written)."}},
    {1, "counting/1 openmp", "OpenMP, fixed (D2-D4)", "the DCA article, 'Code optimized with Intel OpenMP'; D2, D3, D4",
     "stage1_openmp.cpp",
     {"The article shares the O(N^2) loop among threads, but drops items (D2), reads table entries nobody wrote "
      "(D3) and serialises on one lock (D4). Keep the algorithm; share the work right.",
      "One parallel loop over ALL items with a 64-bit index. An item reports its value only if no EARLIER item "
      "has the same value: decide that from the data, which nobody writes, not from a shared table. Each thread "
      "collects its own rows (no lock); the per-thread tables hold disjoint values, so joining them is a "
      "concatenation and a sort.",
      "#pragma omp parallel num_threads(threads) { auto& mine = found[omp_get_thread_num()]; #pragma omp for "
      "schedule(dynamic, 256) for (std::int64_t index = 0; index < N; ++index) { first = no j < index with "
      "d[j] == d[index]; if (!first) continue; count = 1 + #{j > index : d[j] == d[index]}; "
      "mine.push_back({d[index], count}); } }. The join and sort after the region are written."}},
    {2, "counting/2 cpu", "what a CPU programmer writes", "Sedgewick's key-indexed counting; sort + run-length",
     "stage2_cpu.cpp",
     {"Drop the O(N^2) search: with 256 possible values count into an array; with 2^64 possible values sort first.",
      "int8: one counter per possible value, one pass, one increment per item, then the non-zero counters in "
      "value order. int64: sort a copy; every run of equal keys is one row, already in ascending order.",
      "if constexpr (std::is_same_v<T, std::int8_t>): std::array<std::uint64_t, 256> counts{}; "
      "++counts[(uint8_t)v] for each v; for value = -128..127, push {value, counts[(uint8_t)value]} if non-zero. "
      "else: sorted = copy of data; std::sort; for each run [i, j) of equal keys push {sorted[i], j - i}."}},
    {3, "counting/3 direct port", "direct GPU port, O(N^2), race-free first-occurrence rule",
     "the DCA article's cdpCountChunkKernel; PMPP §5.4 tiling; D6, D12", "stage3_direct_port.cu",
     {"The article's outer loop becomes the grid: one thread per item, each walking the whole input through "
      "shared-memory tiles (PMPP §5.4). Who reports a value must not depend on which thread runs first (D12).",
      "Thread i counts the items equal to in[i], tile by tile, and notes whether an equal item sits at a smaller "
      "index: only the first occurrence reports its count (decided from the input, which nobody writes). A second "
      "kernel puts each reported value at its rank among the reported values (how many are smaller), which sorts "
      "the table without a sort. Every thread takes part in every tile load and barrier, also past the end (D6).",
      "count_duplicates_kernel: for base in [0, n) step blockDim.x: tile[threadIdx.x] = in[base + threadIdx.x] if "
      "in range; __syncthreads(); for k < min(blockDim.x, n - base): if tile[k] == mine { ++count; if base + k < i: "
      "first = false; } __syncthreads(). Then counts[i] = first ? count : 0 (for i < n). rank_and_write_kernel: "
      "tile in[] and (counts[] > 0) the same way; rank = #{j reported : in[j] < in[i]}; if counts[i] > 0: "
      "out.values[rank] = in[i], out.counts[rank] = counts[i], atomicAdd 1 to *out.size."}},
    {4, "counting/4 dynamic parallelism", "dynamic parallelism done right for CUDA 12+ (GPU only)",
     "the DCA article's cdpCountChunkKernel, cdpCountIfKernel, cdpMergeAllReduction; D5-D9, D13",
     "dynamic/stage4_dynamic_parallelism.cu",
     {"Kernels launch kernels (CUDA dynamic parallelism). Since CUDA 12 a parent cannot wait for its children "
      "(cudaDeviceSynchronize on the device is gone, D5): what needs their results is launched after them.",
      "The parent gives each block one chunk; every first occurrence of a value in its chunk launches a child that "
      "counts the value over the chunk, fire-and-forget. A tail launch (runs when the parent and all its children "
      "are done) merges the chunk tables by value (D8, D9) and a second tail launch ranks the merged rows into the "
      "table. The child's shared counter is zeroed before a barrier that every thread reaches (D6).",
      "count_if_kernel: __shared__ counter, thread 0 zeroes it, __syncthreads(); grid-stride over ALL n items (D7) "
      "counting into a register; atomicAdd to the shared counter; __syncthreads(); thread 0 adds it to *count. "
      "parent_kernel: block c takes chunk_bounds(blockIdx.x, chunk, n) (D13); for each item: first in its chunk? "
      "(D12) slot_count[i] = 0; if first, slot_value[i] = in[i] and count_if_kernel<<<..., "
      "cudaStreamFireAndForget>>>(chunk, value, &slot_count[i]); record cudaGetLastError() with "
      "atomicCAS(launch_error, 0, e). Thread 0 of block 0 launches merge_kernel<T, true> into "
      "cudaStreamTailLaunch. merge_kernel: merged[i] = total over this and later chunks if slot i has a count "
      "(D8) and no earlier chunk holds the same VALUE (D9), else 0; then tail-launch rank_kernel. rank_kernel: "
      "*out.size = -*launch_error on a failed launch; else rank each merged row as in stage 3."}},
    {5, "counting/5 global atomics", "histogram with global-memory atomics (int8)", "PMPP §9.2-9.3, Fig. 9.6",
     "stage5_global_atomics.cu",
     {"With 256 possible values the frequency table is a histogram: one counter per value, every item adds one to "
      "its counter, and the threads share the counters through atomics (PMPP §9.2-9.3).",
      "A grid-stride loop over the items; each item does one atomic add of 1 to the 64-bit counter of its raw byte. "
      "The host code zeroes the counters before and turns them into the table after.",
      "for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) { one atomic add "
      "per item }. The body is yours: the counter is the one of in[i]'s raw byte (histogram_table.cuh says why), "
      "and CUDA's 64-bit atomicAdd takes an unsigned long long* (bins holds std::uint64_t). A plain += would lose "
      "counts when two threads add at once: the check's race report names it."}},
    {6, "counting/6 privatized", "privatized histogram: per-thread shared counters, 16-byte loads (int8)",
     "PMPP §9.4-9.6 (privatization, coarsening); CUDA Handbook ch. 12 (bandwidth)",
     "block_histogram.cuh stage6_privatized.cu",
     {"Privatization (PMPP §9.4) moves the atomics from global to shared memory; coarsening (§9.5) gives each "
      "thread more bytes per load. Take privatization one step further: a private histogram per THREAD.",
      "Every thread owns 256 narrow (16-bit) counters in shared memory, laid out so the 32 threads of a warp "
      "always use 32 different banks whatever their values. The input is read 16 bytes a load, several loads in "
      "flight per thread. Before a 16-bit counter can overflow the block drains its counters into the 256 global "
      "bins; at the end each block adds its counts there with one atomic per bin.",
      "block_histogram.cuh: count_byte(b): atomicAdd on the 32-bit word at byte address ((b & 0xFE) << 8) | column "
      "(column = t << 2) of 1 for an even bin, 1 << 16 for an odd one. flush(bins): __syncthreads(); thread p "
      "(p < 128) sums the low and the high halves of words p*128 .. p*128+127 into bins 2p and 2p+1 with "
      "add_to_bin. stage6_privatized.cu: body = reinterpret_cast<const int4*>(in + head); per round, thread t "
      "loads vectors first + t + u*T (u < U) of body into an int4 array, skipping those at or past `vectors`, "
      "then counts .x .y .z .w of each with count_word. "
      "Faster: issue the next round's loads before counting this round's."}},
    {7, "counting/7 hash table", "int64 keys: GPU hash table, then sort only the distinct keys",
     "open addressing with atomicCAS; PMPP ch. 13 (radix sort) for the distinct keys",
     "hash_table.cuh global_table.cuh stage7_hash_count.cu",
     {"Sorting every int64 key costs 8 radix passes over the data, but only the DISTINCT keys need to be in "
      "order: count them in a hash table first (open addressing, atomicCAS to claim a slot), then sort the few.",
      "A sample (written for you) sizes one table in global memory. One pass over the items: each "
      "finds its key's slot (probing from a hashed home slot, claiming an empty one with a compare-and-swap) and "
      "adds one to the slot's count. Then pack the occupied slots into (key, count) arrays; the chapter's sort "
      "and table writer do the rest. One key's pattern marks an empty slot (INT64_MAX, flipped): count it on the "
      "side. A key that finds no slot sets the overflow flag, and the stage counts by sorting instead.",
      "hash_table.cuh insert: h = home_slot(u, t.capacity); probes = min(t.capacity, max_probes); for each probe: "
      "here = t.keys[h]; if here == empty_key, here = atomicCAS(&t.keys[h], empty_key, u) (empty_key back: the "
      "slot is ours, here = u); if here == u: atomicAdd(&t.counts[h], count), return true; else h = h + 1, "
      "wrapping to 0. Return false after the last probe. global_table.cuh insert_kernel: grid-stride over the "
      "items; u = ht::flip(__ldcs((const long long*)in + i)); u == ht::empty_key -> "
      "atomicAdd(&state->sentinel_count, 1ull); else if !ht::insert(t, u, Count{1}) state->overflow = 1. "
      "compact_kernel: grid-stride over the slots; occupied -> place = atomicAdd(&state->distinct, 1ull), "
      "keys[place] = t.keys[i], counts[place] = t.counts[i]. Faster: each thread loads tile_items keys before it "
      "adds any; with `aggregate` 1, __match_any_sync finds a warp's lanes with one key and the lowest adds for "
      "all; in compact, one atomicAdd per block."}},
    {8, "counting/8 pipeline", "data larger than one transfer: pinned memory, streams, one table (D10, D11)",
     "the DCA article's cdpDistCountLaunch; CUDA Handbook ch. 6 (streams, pinned memory); D10, D11", "stage8_pipeline.cu",
     {"Overlap the copies with the counting: pinned host memory and several streams (CUDA Handbook ch. 6), every "
      "chunk counted into one shared set of bins instead of one table per chunk.",
      "Split the input into chunks, the last one shorter (D10). Chunk c goes to stream c % S: an asynchronous copy "
      "into that stream's buffer, then stage 6's counting into the same 256 bins, on the same stream. Nothing "
      "waits inside the loop (D11); the default stream waits for all streams at the end, then writes the table.",
      "buffers = ws.bytes + bins_bytes; for c in [0, chunks): s = c % used; r = "
      "chunk_bounds(c, cfg.chunk_items, n); buffer = reinterpret_cast<std::int8_t*>(buffers + s * "
      "buffer_stride(cfg)); cudaMemcpyAsync(buffer, host_in + r.begin, r.end - r.begin, cudaMemcpyHostToDevice, "
      "p.streams[s]); histogram_privatized_accumulate(buffer, r.end - r.begin, bins, cfg, p.streams[s])."}},
}};

// What a stage takes and where it runs (parallel to `stages`).
struct stage_traits {
  bool int8;       // runs on int8 items
  bool int64;      // runs on int64 items
  bool host;       // runs on the host (stages 0-2)
  bool gpu_only;   // refuses to run on the cpu backend
  bool quadratic;  // O(N^2): refused above a size limit
};

inline constexpr std::array<stage_traits, 9> traits = {{
    {true, true, true, false, true},     // 0
    {true, true, true, false, true},     // 1
    {true, true, true, false, false},    // 2
    {true, true, false, false, true},    // 3
    {true, true, false, true, true},     // 4
    {true, false, false, false, false},  // 5
    {true, false, false, false, false},  // 6
    {false, true, false, false, false},  // 7
    {true, false, false, false, false},  // 8
}};
static_assert(traits.size() == stages.size());

inline constexpr int stage_count = static_cast<int>(stages.size());

}  // namespace counting
