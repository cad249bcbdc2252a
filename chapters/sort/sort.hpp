// The sort chapter's interface: what every stage computes, how it is configured, and the
// stage functions of both tracks (solutions/sort/ and exercises/sort/).
//
// Every stage sorts n keys into ascending order, stably: keys that compare equal keep their
// input order. Keys only, or key-value: each key carries a 32-bit value (an index, a
// payload) that moves with it. The order is the one key_bits.hpp defines (for floats: -0.0
// before +0.0, NaNs at the end their sign bit names).
//
// Stage 0 runs on the host (the specification), stages 1-6 on the device. A device stage
// reads n keys at keys_in (and n values at values_in, or nullptr: keys only), writes the
// sorted keys to keys_out (values to values_out), may use the scratch memory in `ws`,
// launches on the default stream and copies nothing to or from the host, so it can be
// timed on its own. keys_in is not modified; outputs do not overlap inputs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "key_bits.hpp"
#include "wb/device_buffer.hpp"
#include "wb/workspace.hpp"
#include "wb/runtime.hpp"

namespace sort {

// ---------------------------------------------------------------------------------------
// Launch configuration
// ---------------------------------------------------------------------------------------

inline constexpr int min_block = 32;    // one warp
inline constexpr int max_block = 1024;  // CUDA's limit on threads per block
inline constexpr int max_items_per_thread = 16;
inline constexpr int max_tile_items = 4096;  // block x items: a tile in shared memory
inline constexpr int onesweep_bits = 8;      // stage 5's digit

// Which part of stage 5 a call runs: all of it; only its start (the memset and the histogram
// of every pass's digits, one read of the keys); or the rest, after a call that ran the start
// on the same keys (with values or without), n and workspace. The counting chapter starts the
// histogram while its host waits to learn whether it will sort.
enum class onesweep_part { all, histogram, after_histogram };

// Stage 5 runs its own tuned tile shape (onesweep_tile below): block and items_per_thread
// configure stages 1-4 and 6.
struct config {
  int block = 256;           // threads per block: a power of two from 32 to 1024
  int items_per_thread = 0;  // stages 4 and 6; 0: the stage's default (stages 1-3 use one key a thread)
  int bits = 0;              // digit width of stages 3 and 4: 1, 2, 4 or 8; 0: 4
  // Stage 5 looks back over one portion of the input at a time (its counts have 30 bits):
  // keys per portion, rounded down to whole tiles; 0: the most that 30 bits allow (about
  // 2^30). Tests set it small to cross portions with few keys.
  std::int64_t portion = 0;
  // Stage 5 sorts 4-byte keys (with values or not) and 8-byte keys without values in longer
  // tiles from this many keys on; 0: its default (onesweep.hpp, 2^24). Tests set it small to run
  // the long tiles on few keys.
  std::int64_t onesweep_long_tiles_from = 0;
  // Stage 5 (keys without values, the solution) sorts a pass whose digit takes at most this many
  // values over the whole input with its few-digits kernel (ranking by __match_any_sync); 0:
  // its default (onesweep.hpp, match_digits); negative: never; 256: every sorting pass. Tests
  // run both kernels on the same keys; the experiments sweep it.
  int onesweep_match_digits = 0;
  // ... except the first pass that sorts (its keys arrive in input order): at most this many
  // digit values; 0: its default (onesweep.hpp, first_pass_match_digits); negative: never.
  // The experiments sweep it.
  int onesweep_first_match_digits = 0;
  // ... and a later pass whose largest digit holds at least n / this many keys; 0: its
  // default (onesweep.hpp, dominant_divisor); negative: never. The experiments sweep it.
  int onesweep_dominant_divisor = 0;
  // ... and the first sorting pass when at most n / this many of its keys lie outside its
  // largest digit; 0: its default (onesweep.hpp, first_stray_divisor); negative: never. The
  // experiments sweep it.
  int onesweep_first_stray_divisor = 0;
  // ... on this many keys or more; 0: its default (onesweep.hpp, few_digits_from). Tests set
  // it small to run the few-digits kernel on few keys.
  std::int64_t onesweep_few_digits_from = 0;
  // ... in this many blocks a portion at most; 0: as many as the SMs hold at once. Tests set it
  // small so that a block sorts several tiles of few keys.
  int onesweep_few_digits_blocks = 0;
  // Stage 5's histogram kernel in this many blocks (one a chunk of keys where there are fewer
  // chunks); 0: its rule (onesweep.hpp, histogram_blocks_for). The experiments sweep it.
  int onesweep_histogram_blocks = 0;
  // Stage 5 (the solution, in the shapes that have it: onesweep.hpp, stage_shape) writes a tile
  // whose keys all share the pass's digit without ranking it; false: ranks every tile. Tests
  // run both; the experiments compare them.
  bool onesweep_one_digit_tiles = true;
  // Stage 5 (the solution) launches its plan kernel and the kernels of each pass with
  // programmatic dependent launch (wb::launch_config's early_start, Hopper and later), so each
  // launch overlaps the end of the kernel ahead of it; false: one kernel after the other. The
  // experiments compare them.
  bool onesweep_early_start = true;
  // The part of stage 5 this call runs (onesweep_part above).
  onesweep_part onesweep_run = onesweep_part::all;
};

// Keys per thread of a stage: 1 for stages 1-3 (the book's one key per thread),
// cfg.items_per_thread or 8 (stage 4); stage 5: see onesweep_tile; stage 6: its compiled
// shape's (below) for 4-byte keys.
int items_for(int stage, const config& cfg);

// Stage 6's compiled shapes, chosen by cfg.block (stage 6 ignores cfg.items_per_thread): the
// tile sort runs `sort block` threads; then, for each kind of record (4-byte keys, 4-byte keys
// with values, 8-byte keys, 8-byte keys with values), the merge levels' threads per block and
// the keys every thread holds in registers (odd: conflict-free shared memory). Block 256, the
// default, is the shape measured fastest on an H100 (README); 32 and 64 give small tiles for
// the checks, 512 one block size everywhere.
//   X(block, sort block, merge block 4B, items 4B, merge block 4B+values, items 4B+values,
//     merge block 8B, items 8B, merge block 8B+values, items 8B+values)
#define SORT_MERGE_SHAPES(X)                             \
  X(32, 32, 32, 3, 32, 3, 32, 3, 32, 3)                  \
  X(64, 64, 64, 3, 64, 3, 64, 3, 64, 3)                  \
  X(256, 1024, 512, 17, 256, 17, 512, 17, 512, 9)        \
  X(512, 512, 512, 17, 512, 11, 512, 17, 512, 9)
inline constexpr int merge_min_tile = 96;  // stage 6's smallest output tile: 32 threads x 3 keys

// Stage 6's tiles with cfg: keys a block sorts at level 0 (the first run width), keys a
// block merges at each later level.
struct merge_tiles {
  std::int64_t sort_tile;
  std::int64_t merge_tile;
  int items;  // keys per thread
};
merge_tiles merge_tiles_for(const config& cfg, std::size_t key_bytes, bool with_values);
// Digit width of a stage: 1 (stages 1, 2), cfg.bits or 4 (stages 3, 4), 8 (stage 5).
int bits_for(int stage, const config& cfg);

// Throws std::invalid_argument naming what is wrong and what is allowed.
void validate(const config& cfg);

// ---------------------------------------------------------------------------------------
// Scratch memory
// ---------------------------------------------------------------------------------------

using wb::carver;
using wb::workspace;

// The most any stage needs for n keys of key_bytes each with cfg.
std::size_t workspace_bytes(std::int64_t n, std::size_t key_bytes, const config& cfg);
// What stage 5 alone needs (less than workspace_bytes: for a caller that only runs stage 5).
std::size_t onesweep_workspace_bytes(std::int64_t n, std::size_t key_bytes, const config& cfg);

// Stage 5's tile: the keys one block sorts (its own shape, whatever cfg.block and
// cfg.items_per_thread say), for keys of key_bytes with or without 32-bit values, below
// cfg.onesweep_long_tiles_from keys (all but 8-byte keys with values sort longer tiles from
// there on: onesweep.hpp's stage_shape).
std::int64_t onesweep_tile(std::size_t key_bytes, bool pairs);

// Owns a workspace large enough for every stage on n keys of K with cfg.
template <class K>
class workspace_buffer : public wb::workspace_buffer {
 public:
  workspace_buffer(std::int64_t n, const config& cfg) : wb::workspace_buffer(workspace_bytes(n, sizeof(K), cfg)) {}
};

}  // namespace sort

// ---------------------------------------------------------------------------------------
// The stages: both tracks implement track_interface.inl, each in its own namespace.
// ---------------------------------------------------------------------------------------
namespace sort::solution {
#include "track_interface.inl"
}  // namespace sort::solution
namespace sort::exercise {
#include "track_interface.inl"
}  // namespace sort::exercise

#define SORT_INSTANTIATE_ONE(name, K)                                                                             \
  template void name<K>(const K*, K*, const std::uint32_t*, std::uint32_t*, std::int64_t, const workspace&, \
                        const config&);
#define SORT_INSTANTIATE_DEVICE_STAGE(name)      \
  SORT_INSTANTIATE_ONE(name, std::uint32_t)      \
  SORT_INSTANTIATE_ONE(name, std::int32_t)       \
  SORT_INSTANTIATE_ONE(name, float)              \
  SORT_INSTANTIATE_ONE(name, std::int64_t)
