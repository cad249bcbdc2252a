// Stage 5: onesweep radix sort (Adinets & Merrill 2022, "Onesweep: A Faster Least
// Significant Digit Radix Sort for GPUs"; the design of CUB's DeviceRadixSort), 8-bit digits.
//
// Stages 1-4 read the keys twice per pass (count, then scatter) and scan a count per block
// and bucket in between. Onesweep reads and writes them once per pass:
//   1. one histogram kernel counts every pass's digits in a single read of the input, so
//      every pass knows where its buckets start before the first pass runs; a pass in which
//      every key has the same digit changes nothing and is skipped (the plan kernel);
//   2. each pass is one kernel. A tile (its number from an atomic counter, so earlier tiles
//      are running) holds its keys in registers, counts its digits and publishes the counts;
//      ranks its keys within each warp (which lanes hold the same digit: __match_any_sync);
//      looks back over earlier tiles' published counts, one thread per digit (the scan
//      chapter's decoupled look-back, stage 6); then writes its keys through shared memory
//      in digit order, so each bucket's run is stored by neighbouring threads to
//      neighbouring addresses.
// The host side (onesweep_host.inl) and the shared types (onesweep.hpp: shape, pass_plan,
// pass_args) are given; write the three kernels.
#include <cstdint>

#include "onesweep.hpp"
#include "sort.hpp"
#include "wb/kernel.hpp"

namespace sort::WB_TRACK {

using namespace sort::onesweep;

// 1. histogram[p * radix + d] += keys whose digit p is d (zero before): every pass's counts
// from one read of the keys. Launched with 256 threads a block, as many blocks as fit.
template <class K>
__global__ void onesweep_histogram_kernel(const K* keys, std::int64_t n, unsigned long long* histogram) {
  // TODO(sort/5): a shared count per (pass, digit); a grid-stride loop over the keys adds
  // every pass's digit of each key (on key_bits' pattern); then add the block's counts to
  // histogram with global atomics.
}

// 2. One block of radix threads: each pass's bucket starts (an exclusive sum of its counts)
// into base[p][0][d], and the plan: which passes sort (a digit position where some keys
// differ), from which buffer into which, so that the last sorting pass lands in the output.
__global__ void onesweep_plan_kernel(const unsigned long long* histogram, int passes, std::int64_t n,
                                     std::uint64_t* base, pass_plan* plan, const void* keys_in, void* keys_out,
                                     void* other_keys, const std::uint32_t* values_in, std::uint32_t* values_out,
                                     std::uint32_t* other_values) {
  // TODO(sort/5): thread d scans digit d's counts of each pass into base[(p * 2) * radix + d];
  // a pass whose one digit holds all n keys is skipped. Thread 0 writes plan[p]: sorting passes
  // alternate between other_keys and keys_out so that the last one writes keys_out (the first
  // reads keys_in); with no sorting pass at all, the last pass copies keys_in to keys_out.
}

// 3. One pass over one portion (a.portion_tiles tiles of Shape::tile keys). Dynamic shared
// memory: Shape::counter_words unsigned (each warp's digit counters), then the staging area
// of the tile (Shape::tile keys) beside them (Shape::direct_staging) or over them. Shape's
// other choices (onesweep.hpp: Shape::peers, byte_digits, bucket_pointers) are the
// solution's tuning; any correct ranking passes the checks.
template <class K, bool Pairs, class Shape>
__global__ void onesweep_pass_kernel(const pass_args a) {
  // TODO(sort/5): read *a.plan (skip: return; copy: copy this block's tile). Take a tile
  // number from a.tile_counter; load Shape::items keys a thread (warp w: keys w * 32 * items
  // + 32 s + lane); count the tile's digits and publish them (partial, tile 0 inclusive) in
  // a.status[plan.status_array]; rank each key within its warp (peers with the same digit:
  // __match_any_sync); per digit (one thread each) look back over earlier tiles' counts, as
  // in the scan chapter's stage 6; stage the keys in shared memory in digit order and write
  // the key in slot j with digit d to a.base_in[d] + (keys of d in earlier tiles) + j -
  // (where d starts in the tile). The last tile writes a.base_out; clear this tile's row of
  // the other status array for the next pass.
}

}  // namespace sort::WB_TRACK

#include "onesweep_host.inl"  // the host side of stage 5, shared by both tracks
