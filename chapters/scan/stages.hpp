// The scan chapter's stages: one table read by the checks (suite names, progress report),
// the executable (--stage, report rows) and `wb` (list, check, hint).
#pragma once

#include <array>

#include "wb/stage.hpp"

namespace scan {

inline constexpr std::array<wb::stage, 7> stages = {{
    {0, "scan/0 sequential", "sequential scan: the specification", "PMPP §11.1 (what every kernel must match)",
     "sequential.cpp",
     {"A scan is a running total: each output is the previous output plus one more input.",
      "Walk the input once, keeping the running total; for an inclusive scan write the total after adding the "
      "item, for an exclusive scan before. Integers wrap: add them with scan::plus.",
      "T running = 0; for i in [0, n): if exclusive { out[i] = running; running = plus(running, in[i]); } else { "
      "running = plus(running, in[i]); out[i] = running; }"}},
    {1, "scan/1 kogge-stone", "Kogge-Stone, one block", "PMPP §11.2 (Kogge & Stone 1973)", "kogge_stone.cu",
     {"Kogge-Stone: at stride 1, 2, 4, ... every item adds the item `stride` places before it; after log2(B) "
      "steps each item holds its prefix. Every thread must read before any thread writes (S1).",
      "One block of B threads sweeps the input in sections of B items, carrying the running total of the "
      "sections before. In each step a thread reads its two values, waits at a barrier, then writes; another "
      "barrier before the next step reads.",
      "for base = 0; base < n; base += B: xy[t] = base+t < n ? in[base+t] : 0; __syncthreads(); for stride = 1; "
      "stride < B; stride *= 2 { T v = xy[t]; if (t >= stride) v = plus(xy[t-stride], v); __syncthreads(); xy[t] = "
      "v; __syncthreads(); }. The end of the section is yours: each thread's output from the carry and xy "
      "(inclusive, and exclusive: shifted by one), the carry for the next section, and the barrier that keeps the "
      "next load from overwriting xy while others still read it. Add with plus: int32 sums wrap, and a plain + that "
      "overflows is undefined (the check stops at it)."}},
    {2, "scan/2 brent-kung", "Brent-Kung, one block, two items a thread", "PMPP §11.4 (Brent & Kung 1982)",
     "brent_kung.cu",
     {"Brent-Kung builds a reduction tree (up-sweep) and then hands its partial sums forward (down-sweep): "
      "about 2n additions instead of Kogge-Stone's n log2 n.",
      "A section is 2B items, B threads. Up-sweep: at stride s = 1, 2, ..., B, thread t updates the last item of "
      "its pair of subtrees, index (t+1)*2s - 1, adding the item s before it (S2: forget the -1 and the pairs "
      "are wrong). Down-sweep: at s = B/2, ..., 1 the same index hands its value to index + s.",
      "Each thread loads items t and t + B of the section. Up-sweep: strides 1, 2, 4, ... up to B, a barrier "
      "before every step; the thread's index is (t+1)*2s - 1 and only an index inside the section adds the item s "
      "before it. Down-sweep: strides B/2 down to 1, the same index, which now adds itself into the item s after "
      "it (again only inside the section). A last barrier, then each thread writes its two items plus the carry "
      "of the earlier sections, and the carry grows by the section's last item."}},
    {3, "scan/3 coarsened", "thread coarsening: three phases, one block", "PMPP §11.5",
     "coarsened_block_scan.cuh coarsened.cu",
     {"Give each thread C consecutive items: a cheap sequential scan inside the thread, a parallel scan only "
      "across the B thread totals.",
      "Load the section (B*C items) into shared memory coalesced. Phase 1: each thread scans its own C items. "
      "Phase 2: a Kogge-Stone scan over the last item of every thread. Phase 3: each thread adds its "
      "predecessor's last item to its first C-1 items. Phase 2 reads other threads' phase-1 results: a barrier "
      "between the phases (S3).",
      "block_scan_coarsened: mine = s + t*C; acc = mine[0]; for k in 1..C-1 mine[k] = acc = plus(acc, mine[k]); "
      "__syncthreads(); for stride (Kogge-Stone on mine[C-1], reading s[(t-stride)*C + C-1]; read, barrier, "
      "write, barrier); if t > 0: before = s[t*C-1]; mine[k] = plus(before, mine[k]) for k < C-1; "
      "__syncthreads(). load_section / store_section move the section with the carry."}},
    {4, "scan/4 hierarchical", "hierarchical scan for any length", "PMPP §11.6",
     "hierarchical.cu",
     {"Many blocks: each scans its own section and reports the section's sum; scan the sums; add each "
      "section's predecessor sum back.",
      "Three launches: (1) one block per section, the coarsened block scan, writing the section's scan and "
      "its total to sums[b]; (2) the same scan on the sums (in place; recursion when there is more than one "
      "section of sums); (3) a kernel adding sums[b-1] to every output of section b > 0.",
      "sections = ceil(n / (B*C)); sums = carver.take<T>(sections); launch scan_sections(in, out, sums); if "
      "sections > 1 { scan_level(sums, sums, sections) inclusive; launch add_section_sums(out, sums) with a "
      "grid of sections - 1 blocks }. 64-bit section starts."}},
    {5, "scan/5 domino", "single pass, adjacent tiles synchronise (domino)", "PMPP §11.7",
     "domino.cu",
     {"One kernel: tile i waits until tile i-1 has published its running total, adds its own, publishes the "
      "result. A waiting block needs its predecessor to be running already: take the tile index from an "
      "atomic counter, not from blockIdx (S4).",
      "Thread 0 draws the tile with atomicAdd on a counter zeroed before the launch; the block scans its tile; "
      "thread 0 of tile i > 0 spins on flags[i-1] (volatile), reads carries[i-1], writes carries[i], "
      "__threadfence(), then sets flags[i]; the block adds the carry to its outputs.",
      "__shared__ tile; if t == 0 tile = atomicAdd(counter, 1); __syncthreads(); load_section; "
      "block_scan_coarsened; if t == 0 { T before = 0; if tile > 0 { while (volatile flags[tile-1] == 0) {} before "
      "= volatile carries[tile-1]; } carries[tile] = plus(before, s[S-1]); __threadfence(); flags[tile] = 1; "
      "shared_before = before; } __syncthreads(); store_section with shared_before."}},
    {6, "scan/6 single-pass", "single pass at bandwidth: decoupled look-back", "past the book: Merrill & Garland 2016",
     "warp_scan.cuh tile_lookback.cuh single_pass.cu",
     {"Decoupled look-back: a tile publishes its own sum at once (partial) and its running total later "
      "(inclusive); a successor adds partials going back until it meets an inclusive one, a warp's worth of "
      "predecessors at a time, so nobody waits for a chain. To keep memory busy during the look-back, a "
      "persistent block loads its next tile while it looks back for this one, and publishes that next tile's "
      "sum before it looks back (else each block's look-back waits for the others' look-backs).",
      "warp_scan.cuh: shuffle scans. tile_lookback.cuh: a status word per tile (status and value in 64 bits for "
      "32-bit types; status plus separate values and a fence for 64-bit types), tile_look_back (32 predecessors "
      "a round). single_pass.cu: a persistent grid (the host sizes it); thread 32 "
      "claims tiles from the counter and starts their bulk copies into a ring of shared-memory stages "
      "(bulk_copy.cuh: bulk_copy_to_shared, copy_barrier_wait); each iteration sums the next tile, scans this "
      "one, and warp 0 publishes the next tile's sum, then looks back for this one.",
      "prologue: claim `stages` tiles (one per stage), publish the first tile's sum. Loop k: s = k % stages; "
      "tile = stage_tile[s] (stop when >= tiles); next = stage_tile[(k+1) % stages]; wait for next's copy "
      "(phase (k+1)/stages), thread sum, warp_sum; load this tile's V vectors from stage s, warp-scan each run; "
      "warp totals and next sums to shared; __syncthreads(); thread 32 claims a tile into stage s; warp 0: "
      "publish next's sum (partial), tile_look_back(tile, sum of warp totals); other warps: their warp prefix; "
      "__syncthreads(); add tile, warp, run and lane prefixes; 16-byte stores (item by item for the last tile "
      "or a misaligned input)."}},
}};

}  // namespace scan
