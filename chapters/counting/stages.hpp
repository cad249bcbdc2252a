// The stages of the counting chapter: ids (doctest suites, --stage, the progress report),
// titles, where they come from, hints for the exercises, and what each one runs on.
#pragma once

#include <array>
#include <cstddef>

#include "wb/stage.hpp"

namespace counting {

inline constexpr std::array<wb::stage, 9> stages = {{
    {0, "counting/0 sequential", "the article's sequential algorithm (specification)",
     "seeds/001 'Distribution counting algorithm overview'; D1",
     "stage0_sequential.cpp",
     {"Count each item's duplicates after it; append (value, count) unless the value is already "
       "in the table. Then sort the table by value.",
      "", ""}},
    {1, "counting/1 openmp", "OpenMP, fixed (D2-D4)",
     "seeds/001 'Code optimized with Intel OpenMP'; D2, D3, D4",
     "stage1_openmp.cpp",
     {"One '#pragma omp for' over ALL items with a 64-bit index; an item reports its value only "
       "if no EARLIER item has it (read the data, not a shared table); each thread appends to its "
       "own vector, no lock.",
      "", ""}},
    {2, "counting/2 cpu", "what a CPU programmer writes",
     "Sedgewick's key-indexed counting; sort + run-length",
     "stage2_cpu.cpp",
     {"int8: an array of 256 counters indexed by (uint8_t)v. int64: sort a copy, then one row "
       "per run of equal keys.",
      "", ""}},
    {3, "counting/3 direct port", "direct GPU port, O(N^2), race-free first-occurrence rule",
     "seeds/001 cdpCountChunkKernel; PMPP §5.4 tiling; D6, D12",
     "stage3_direct_port.cu",
     {"One thread per item: walk the input in shared-memory tiles, count equal items, and note "
       "whether an equal item sits at a smaller index. Then rank the first occurrences (how many "
       "reported values are smaller).",
      "", ""}},
    {4, "counting/4 dynamic parallelism", "dynamic parallelism done right for CUDA 12+ (GPU only)",
     "seeds/001 cdpCountChunkKernel, cdpCountIfKernel, cdpMergeAllReduction; D5-D9, D13",
     "dynamic/stage4_dynamic_parallelism.cu",
     {"Child grids go to cudaStreamFireAndForget; whatever needs their results goes to "
       "cudaStreamTailLaunch. In the count-if kernel: zero the shared counter, then "
       "__syncthreads() where every thread reaches it.",
      "", ""}},
    {5, "counting/5 global atomics", "histogram with global-memory atomics (int8)",
     "PMPP §9.2-9.3, Fig. 9.6",
     "stage5_global_atomics.cu",
     {"Grid-stride loop; atomicAdd(&bins[(uint8_t)in[i]], 1). The table is written for you from "
       "the bins.",
      "", ""}},
    {6, "counting/6 privatized", "privatized histogram: per-thread shared counters, 16-byte loads (int8)",
     "PMPP §9.4-9.6 (privatization, coarsening); CUDA Handbook ch. 12 (bandwidth)",
     "stage6_privatized.cu block_histogram.cuh",
     {"Give every thread its own narrow counters in shared memory, laid out so a warp hits 32 "
       "banks; load int4; empty the narrow counters before they overflow; one atomicAdd per bin "
       "and block at the end.",
      "", ""}},
    {7, "counting/7 hash table", "int64 keys: GPU hash table, then sort only the distinct keys",
     "open addressing with atomicCAS; PMPP ch. 13 (radix sort) for the distinct keys",
     "stage7_hash_count.cu hash_table.cuh",
     {"Probe from home_slot(u, capacity) (u = the flipped key) slot by slot, wrapping at the "
       "end: an empty slot is claimed with atomicCAS(empty, u); the slot holding u gets "
       "atomicAdd(count, 1). INT64_MAX is the empty pattern: count it on the side. Then pack the "
       "occupied slots (one atomicAdd per slot is enough to start).",
      "", ""}},
    {8, "counting/8 pipeline", "data larger than one transfer: pinned memory, streams, one table (D10, D11)",
     "seeds/001 cdpDistCountLaunch; CUDA Handbook ch. 6 (streams, pinned memory); D10, D11",
     "stage8_pipeline.cu",
     {"Copy chunk c on stream c % S with cudaMemcpyAsync from pinned memory, count it on the "
       "same stream into the same 256 bins, the last chunk shorter; the default stream waits for "
       "all streams (events), then writes the table.",
      "", ""}},
}};

// What a stage takes and where it runs.
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

inline constexpr int stage_count = static_cast<int>(stages.size());

}  // namespace counting
