// What both tracks' stage 5 (onesweep.cu), its host side (onesweep_host.inl) and the
// workspace size (sort_common.cpp) share: the tile shapes, the plan of the passes, the
// arguments of the pass kernel, the scratch layout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sort.hpp"

namespace sort::onesweep {

inline constexpr int radix = 1 << onesweep_bits;  // 256 digit values (buckets) per pass
inline constexpr int max_passes = 8;              // 64-bit keys

// The histogram kernel: blocks of histogram_block threads, each thread loading
// histogram_items keys at once (several loads in flight); a grid-stride loop over chunks of
// histogram_block * histogram_items keys, with at most histogram_blocks_per_sm blocks per SM
// (a full SM: more blocks would only add global atomics at the end) and at least
// histogram_chunks_per_block chunks a block: every block ends with a global atomic for each
// of its passes x 256 counts, and on few keys (2^20) one block a chunk queued more of them on
// the same addresses than its keys cost in shared memory.
inline constexpr int histogram_block = 256;
inline constexpr int histogram_items = 8;
inline constexpr int histogram_blocks_per_sm = 8;
inline constexpr int histogram_chunks_per_block = 4;

// The histogram kernel's blocks for n keys on sm_count SMs; configured > 0: that many, or one
// a chunk where there are fewer chunks.
inline std::int64_t histogram_blocks_for(std::int64_t n, int sm_count, int configured) {
  constexpr std::int64_t chunk = std::int64_t{histogram_block} * histogram_items;
  const std::int64_t chunks_per_block = configured > 0 ? 1 : histogram_chunks_per_block;
  const std::int64_t most = configured > 0 ? configured : std::int64_t{histogram_blocks_per_sm} * sm_count;
  const std::int64_t wanted = (n + chunk * chunks_per_block - 1) / (chunk * chunks_per_block);
  return wanted < 1 ? 1 : wanted < most ? wanted : most;
}

// How a pass ranks a warp's keys of one step: which lanes hold the same digit.
enum class peer_method : int {
  match_any = 0,  // __match_any_sync on the digit: one instruction, but slow on an H100
  ballots = 1,    // 8 ballots, one per digit bit, and-ed together: only registers and votes
  shared_or = 2,  // each lane ors its bit into its warp's mask of its digit in shared memory,
                  // then reads the mask back: fewer instructions, more shared-memory traffic
};

// Where the tile is staged in digit order before it is written out.
enum class staging : int {
  over_counters = 0,    // over the warps' slot counters, once every key is ranked: each key
                        // keeps its slot in a register until then
  beside_counters = 1,  // beside them: each key is staged as soon as it is ranked, so (keys
                        // only) no slot needs a register; more shared memory
  beside_spread = 2,    // beside them, the slots and the counters spread over the banks
                        // (shape::staging_index, shape::counter_index)
};

// A tile: Block threads (a multiple of 32, at least one thread per digit), each holding
// Items keys in registers; MinBlocks: blocks an SM must hold at once (bounds the registers a
// thread may use, 65536 / (Block x MinBlocks)). The others say how a pass does its work:
//   Peers, Staging: above;
//   ByteDigits:     a 32-bit key's digit by one byte permute (byte shift / 8 of the key)
//                   instead of a shift and a mask: one instruction less each time a digit
//                   is needed (three times a key);
//   BucketPointers: the write-out reads, per digit, a pointer to where slot 0 of the tile
//                   would land in the output: a key's address is one multiply-add instead
//                   of a 64-bit sum and then an address;
//   OneDigitTiles:  a tile whose keys all share the pass's digit is already in digit order:
//                   its keys are staged where they are, without ranking (CUB's short path).
// Which choice is fastest depends on the registers: each saves instructions, but can cost
// the compiler registers it then spills (the measurements: chapter README, stage 5).
template <int Block, int Items, peer_method Peers, int MinBlocks, staging Staging = staging::over_counters,
          bool ByteDigits = true, bool BucketPointers = true, bool OneDigitTiles = false>
struct shape {
  static constexpr int block = Block;
  static constexpr int items = Items;
  static constexpr int min_blocks = MinBlocks;
  static constexpr int warps = Block / 32;
  static constexpr int tile = Block * Items;
  static constexpr peer_method peers = Peers;
  static constexpr staging staged = Staging;
  static constexpr bool direct_staging = Staging != staging::over_counters;
  static constexpr bool byte_digits = ByteDigits;
  static constexpr bool bucket_pointers = BucketPointers;
  static constexpr bool one_digit_tiles = OneDigitTiles;
  // Shared words before the staging area (beside) or under it (over): each warp's 256 slot
  // counters, and (shared_or) its 256 lane masks.
  static constexpr int counter_words = (Peers == peer_method::shared_or ? 2 : 1) * (Block / 32) * radix;
  static_assert(Block % 32 == 0 && Block >= radix, "one thread per digit");
  // Spread (the 8-byte long tiles): where a warp's keys of one step take a few digits in equal
  // numbers, they meet on few banks. Keys i << 20 (nearly in order or reversed) are the case:
  // in the third pass a warp's lanes hold 16 digits 16 apart, (i mod 16) * 16, two lanes each.
  static constexpr bool spread = Staging == staging::beside_spread;
  // Where the tile's slot j lies in the staging area. Spread: one slot spare after every 32.
  // The 16 buckets above hold 480 keys each in a tile of 7680, so they start 3840 bytes apart,
  // a multiple of the 128 bytes of a row of banks, and every lane's key meets the others' on
  // the same four banks (Nsight Compute: 6-way store conflicts); one spare slot a row moves
  // each bucket two banks on.
  __host__ __device__ static constexpr int staging_index(int j) { return spread ? j + (j >> 5) : j; }
  static constexpr int staging_slots = spread ? tile + tile / 32 : tile;
  // Where a warp's counter and lane mask of digit d lie among its 256. Spread: at d with its
  // high four bits xor-ed into its low four. Digits 16 apart share two of the 32 banks, so 16
  // lanes' atomics wait on each other; spread, they fall on 16 banks, and 32 consecutive digits
  // still on 32. One to one: the lanes of one digit are the lanes of one counter.
  __host__ __device__ static constexpr unsigned counter_index(unsigned d) { return spread ? d ^ (d >> 4) : d; }
  // The dynamic shared memory of a block, for keys of key_bytes: the counters and the staging
  // area beside or over them, then (keys with values) the tile's values as they arrive.
  __host__ __device__ static constexpr std::size_t staged_bytes(std::size_t key_bytes) {
    const std::size_t counters = sizeof(unsigned) * counter_words;
    const std::size_t staging_area = key_bytes * staging_slots;
    return direct_staging ? counters + staging_area : (staging_area > counters ? staging_area : counters);
  }
  static constexpr std::size_t shared_bytes(std::size_t key_bytes, bool pairs) {
    return staged_bytes(key_bytes) + (pairs ? sizeof(std::uint32_t) * tile : 0);
  }
};

// The same tile ranked by __match_any_sync: what the solution's few-digits kernel runs (a
// pass of few digit values, below). Its counters need no mask words, so its staging area
// (beside them) starts earlier in the same shared memory. Two blocks an SM, whatever the pass
// kernel's: the 4-byte pass kernels run three (56 registers a thread), and the same tiles
// ranked by match_any need 80 (at 56 they spilled 60-184 bytes a thread).
inline constexpr int few_digits_min_blocks = 2;
template <class Shape>
using match_any_shape = shape<Shape::block, Shape::items, peer_method::match_any, few_digits_min_blocks, Shape::staged,
                              Shape::byte_digits, Shape::bucket_pointers, Shape::one_digit_tiles>;

// The shapes stage 5 runs: the fastest measured on an H100 (chapter README, stage 5). Keys
// only, 4 bytes: short tiles below long_tiles_from keys (few tiles: a short tile keeps more
// SMs busy), long ones from there (fewer tiles: less of the per-tile work, fewer status words
// to look back over). Both rank with shared_or, which needs fewer instructions and registers
// than the ballots; in the long tiles the lanes of lane 0's digit find each other by one
// ballot instead (onesweep_pass.cuh), so a warp of one hot key does not serialize on one mask
// word (half-hot keys at 2^24-2^28: 0.86-0.97x CUB with the atomicOrs alone, 1.03-1.12x with
// the ballot; uint32 long tiles ranked by ballots at 384 x 26: 0.95-1.00x). Keys only, 8
// bytes: the long tiles rank with shared_or too, fastest on keys that spread over every digit,
// but its atomicOrs serialize on the lanes that share one: on keys half of which take 16
// values, every pass is 15% slower than on uniform ones (a pass takes 16.5 µs at 2^20 keys,
// CUB 14.5). The short tiles rank by ballots, which cost the same on any keys: at 2^20 keys
// 1.17x CUB on that input where shared_or is 1.01x, 1.22x on uniform keys where it is 1.24x
// (bench/sort/results/onesweep_variants.txt). The long tiles are spread over the banks
// (staging::beside_spread): keys nearly in order and reversed from 2^24 sort 8-9% and 17-21%
// faster, other keys within 1.5%; their ranking then goes step by step, as the 4-byte keys'
// does (onesweep_pass.cuh: without it, 124 bytes of spills). 4-byte keys with values: short
// tiles too below long_tiles_from keys, ranked by ballots (with 23 keys a thread a tile on
// 2^16 keys is one of 8, and 8 SMs sort; with 16, 11; H100, uniform uint32 keys at 2^16-2^18:
// 0.87-0.94x CUB with the long tiles, 1.03-1.12x with the short ones; chapter README, stage
// 5). One-digit tiles (the last field) skip their ranking in the short tiles, the 8-byte keys'
// long ones and the long ones with values: on 16 distinct keys at 2^18-2^22, 5-15% faster, on
// 8-byte keys nearly in order 5%; its test costs uniform keys up to 4% at 2^16-2^20 (chapter
// README, stage 5, "What the two tests cost"); with values, on 16 distinct 4-byte keys in the
// long tiles 2-4% faster from 2^24. The 4-byte long tiles without values leave it out: there
// the compiler spilled (40-84 bytes a thread). So do 8-byte keys with values: it cost them
// 1-3% on every distribution from 2^22, where they trail CUB (it bought 16 distinct keys and
// the extremes 6-14% at 2^16-2^20; chapter README, stage 5).
struct tile_shape {
  int block, items, min_blocks;
  peer_method peers;
  staging staged;
  bool byte_digits, bucket_pointers, one_digit_tiles;
  constexpr std::int64_t tile() const { return static_cast<std::int64_t>(block) * items; }
};
inline constexpr std::int64_t long_tiles_from = std::int64_t{1} << 24;
constexpr tile_shape stage_shape(std::size_t key_bytes, bool pairs, bool long_tiles) {
  using enum peer_method;
  using enum staging;
  if (key_bytes == 4 && pairs && !long_tiles) return {384, 16, 3, ballots, over_counters, false, false, true};
  if (key_bytes == 4 && pairs) return {384, 23, 2, ballots, over_counters, false, false, true};
  if (key_bytes == 4 && !long_tiles) return {384, 16, 3, shared_or, over_counters, true, true, true};
  if (key_bytes == 4) return {384, 20, 3, shared_or, beside_counters, true, true, false};
  if (pairs) return {384, 16, 2, ballots, over_counters, false, false, false};
  if (!long_tiles) return {384, 16, 2, ballots, beside_counters, true, true, true};
  return {384, 20, 2, shared_or, beside_spread, true, true, true};
}
inline constexpr std::int64_t smallest_tile = 6144;  // of all the shapes above: the workspace is sized for it

// Whether stage 5 sorts n keys in its long tiles (stage_shape: all but 8-byte keys with values):
// from cfg.onesweep_long_tiles_from keys on, or long_tiles_from.
inline bool long_tiles_for(std::int64_t n, const config& cfg) {
  return n >= (cfg.onesweep_long_tiles_from > 0 ? cfg.onesweep_long_tiles_from : long_tiles_from);
}

// A pass of few digit values (the idea of CUB's onesweep: chapter README, stage 5, "Other
// distributions"). __match_any_sync costs more the more distinct values a warp's 32 lanes
// hold: on an H100 more than the 8 ballots on random digits (about 30 distinct a step), less
// on few (16 digit values: about 14 a step); the ballots cost the same on any keys, and
// shared_or's atomicOrs serialize on the lanes that share a digit. So a sorting pass whose
// digit takes at most match_digits values over the whole input (the plan counts them from
// the histogram) is sorted by a second kernel, the same tiles ranked by match_any
// (solutions/sort/onesweep_few_digits.cuh); every other pass by the pass kernel.
//
// For keys without values only: there the second kernel, launched beside the pass kernel,
// won on few distinct keys and extremes (int64 1.08-1.17x CUB where the pass kernel alone is
// 0.81-0.85x; 4-byte keys 0.92-1.18x where it is 0.69-0.91x) and cost uniform and narrow keys
// 0-6% (chapter README). With values it lost: at two blocks an SM the tiles spilled (132 bytes for int64,
// 340 for uint32); at one, which holds their registers, an SM ran too few warps (0.74-0.86x
// CUB where the pass kernel alone is 0.90-1.02x). Key-value sorts run the pass kernel alone.
constexpr bool few_digits_kernel_for(bool pairs) { return !pairs; }
inline constexpr int match_digits = 16;
// 4-byte keys: at most 4. Their pass kernel ranks a warp whose lanes share one digit cheaply
// (the long tiles' lead ballot, the short tiles' path for tiles of one digit), and on the
// passes after the first of 16 distinct keys, where nearly every warp holds one digit, it beat
// the few-digits kernel by 5-11% (H100, 2^22-2^28); the few-digits kernel keeps the passes of
// 4 values or fewer, such as the extremes', whose warps hold several digits mixed.
inline constexpr int match_digits_4_byte = 4;
// ... from this many keys of key_bytes on (cfg.onesweep_few_digits_from; 0: this): on fewer,
// the second launch a pass costs more than match_any saves. 8-byte keys from 2^20 (there 16
// distinct int64 keys sort at 1.03x CUB, uniform ones at 1.10x); below it, it no longer pays
// (16 distinct int64 keys at 2^16-2^19: 0.87-0.94x with it, 0.93-1.00x without); 4-byte keys
// from 2^22 (chapter README, stage 5).
constexpr std::int64_t few_digits_from(std::size_t key_bytes) {
  return key_bytes == 8 ? std::int64_t{1} << 20 : std::int64_t{1} << 22;
}
// cfg.onesweep_match_digits, or the default for keys of key_bytes when it is 0 (negative:
// never; radix: always).
inline int match_digits_for(const config& cfg, std::size_t key_bytes) {
  if (cfg.onesweep_match_digits != 0) return cfg.onesweep_match_digits;
  return key_bytes == 4 ? match_digits_4_byte : match_digits;
}
// The first sorting pass is different: its keys arrive in input order, so a warp's 32 lanes hold
// about as many digit values as the pass has (on 16, about 13), where match_any costs the most;
// in the passes after it the keys arrive grouped by the lower digits (on few distinct keys, most
// warps hold one digit value), where it costs the least. On 16 distinct int32 keys at 2^24 the
// first pass took the few-digits kernel 123 µs and the pass kernel 94 (CUB 102), a later one
// 82 and 144 (CUB 79; Nsight Compute, H100). So the first sorting pass goes to the few-digits
// kernel only when its digit takes at most first_pass_match_digits values
// (cfg.onesweep_first_match_digits when that is not 0): the extremes' 4 (0x00, 0x01, 0xFE, 0xFF)
// but not 16 distinct keys' 16 (chapter README, stage 5). So does a pass after a sorting pass of
// more than match_digits digit values: the keys then arrive grouped by lower digits that can
// take many values, in groups of a few keys each, and are mixed again. Keys 0 to 2^28 - 1 are
// the case: after three passes of 256 values each, the top byte's 16 values alternate lane by
// lane, and at 2^28 uint32 keys that pass took the few-digits kernel 1.87 ms, the pass kernel
// about 1.2 (CUB 1.42; Nsight Compute, H100, clocks at base).
inline constexpr int first_pass_match_digits = 4;
inline int first_match_digits_for(const config& cfg) {
  return cfg.onesweep_first_match_digits != 0 ? cfg.onesweep_first_match_digits : first_pass_match_digits;
}
// A later pass of many digit values goes to the few-digits kernel too when one digit holds
// at least n / dominant_divisor of its keys (cfg.onesweep_dominant_divisor when that is not 0;
// negative: never). On keys nearly in order the high digits are one value but for the strays:
// a warp's lanes hold one or two digit values, cheap for match_any, and the pass kernel's
// ballots cost what they cost on any keys (H100, uint32 at 2^24: 0.93x CUB with the pass
// kernel, 0.99x with this). Only a digit of half the keys or more: where it holds less, the
// pass's tiles mix it with keys of every digit, and match_any lost (half the keys from 16
// values: 0.74-0.81x CUB against 0.88-0.96x; ascending keys whose top byte takes 16 values:
// 0.935x against 0.95x; chapter README, stage 5).
inline constexpr int dominant_divisor = 2;
inline int dominant_divisor_for(const config& cfg) {
  return cfg.onesweep_dominant_divisor != 0 ? cfg.onesweep_dominant_divisor : dominant_divisor;
}
// The first sorting pass too, but only when its largest digit holds all its keys but at most
// n / first_stray_divisor (cfg.onesweep_first_stray_divisor when that is not 0; negative:
// never): its keys arrive in input order, so the strays lie anywhere, and a warp's lanes hold
// the dominant digit and about 32 / first_stray_divisor others. 8-byte keys nearly in order
// are the case: their low digits are 0 but for the strays (H100, int64 keys at 2^24, one in
// 1024 a stray, that pass: the pass kernel 170 µs, the few-digits kernel 118, CUB 142). With
// one key in 16 a stray the few-digits kernel still wins (chapter README, stage 5).
inline constexpr int first_stray_divisor = 16;
inline int first_stray_divisor_for(const config& cfg) {
  return cfg.onesweep_first_stray_divisor != 0 ? cfg.onesweep_first_stray_divisor : first_stray_divisor;
}

// What a pass does, decided on the device from the histogram (so the host never waits).
enum pass_mode : int {
  pass_skip = 0,  // every key has the same digit here: the order does not change (the pass
                  // kernel's blocks return at once)
  pass_sort = 1,
  pass_copy = 2,  // the last pass when every pass is skipped, or when the keys are already in
                  // order: the input is copied to the output
};

struct pass_plan {
  int mode;
  int status_array;  // which of the two status arrays this pass looks back in (sorting passes alternate)
  const void* src_keys;
  void* dst_keys;
  const std::uint32_t* src_values;  // nullptr: keys only
  std::uint32_t* dst_values;
  int digits;  // how many digit values the pass's keys take (the solution's plan; few: the few-digits kernel)
  int digits_before;  // (the solution's plan) the digit values of the sorting pass before this one;
                      // 0: this is the first pass that sorts (its keys arrive in input order)
  unsigned long long largest;  // (the solution's plan) the keys of the pass's most frequent digit
};

// One launch of the pass kernel covers one portion of the input: at most 2^30 - 1 keys, so
// the look-back's 30-bit counts cannot overflow; portions run one after the other.
struct pass_args {
  const pass_plan* plan;
  std::int64_t n;                   // keys in all
  std::int64_t portion_begin;       // first key of this portion
  std::int64_t first_tile;          // its first tile, counted over all portions
  std::int64_t portion_tiles;       // its tiles
  int shift;                        // the digit's lowest bit
  const std::uint64_t* base_in;     // [radix]: where each bucket's keys of this portion start
  std::uint64_t* base_out;          // [radix]: ... of the next portion (written by the last tile)
  unsigned* status[2];              // [tile][radix] status words, two arrays
  unsigned* tile_counter;           // this pass's and portion's, zero before
  int match_digits;                 // (keys alone) a pass of at most this many digit values is
                                    // the few-digits kernel's; -1: none is
  int first_match_digits;           // ... a pass whose keys arrive mixed (few_digits_pass): at most this many
  int dominant_divisor;             // ... a later pass whose largest digit holds n / this many keys
                                    // or more (0: none)
  int first_stray_divisor;          // ... the first sorting pass, when at most n / this many of its
                                    // keys lie outside its largest digit (0: none)
  bool one_digit_tiles;             // (shapes with OneDigitTiles) a tile of one digit skips the ranking
};

// Whether the few-digits kernel sorts the pass of plan p (its other kernel returns at once).
// Every block of both kernels asks this first, so the plan's fields are all read before any is
// tested, and the tests are combined without branches: the loads go out together and a block
// waits for memory once, not once for each test.
constexpr bool few_digits_pass(const pass_plan& p, const pass_args& a) {
  const int mode = p.mode;
  const int digits = p.digits;
  const int digits_before = p.digits_before;
  const unsigned long long largest = p.largest;
  const bool first_sort = digits_before == 0;
  // Its keys arrive mixed: in input order, or after a pass of many digit values, which leaves
  // them in groups of a few keys each (first_pass_match_digits).
  const bool mixed = first_sort | (digits_before > a.match_digits);
  const auto n = static_cast<unsigned long long>(a.n);
  const bool first_dominant =
      (a.first_stray_divisor > 0) & ((n - largest) * static_cast<unsigned long long>(a.first_stray_divisor) <= n);
  const bool later_dominant =
      (a.dominant_divisor > 0) & (largest * static_cast<unsigned long long>(a.dominant_divisor) >= n);
  const bool dominant = (first_sort & first_dominant) | ((!first_sort) & later_dominant);
  const bool few = (digits <= (mixed ? a.first_match_digits : a.match_digits)) | dominant;
  return (mode == pass_sort) & few;
}

// The scratch of stage 5 for `tiles` tiles, `portions` portions of K keys.
struct layout {
  std::size_t counters;   // unsigned [max_passes][portions]         | zeroed by one memset
  std::size_t histogram;  // unsigned long long [max_passes][radix]   |
  std::size_t in_order;   // unsigned long long: keys in order        |
  std::size_t status0;    // unsigned [tiles][radix]                  |
  std::size_t zeroed_end;
  std::size_t status1;    // unsigned [tiles][radix]
  std::size_t base;       // std::uint64_t [max_passes][2][radix]
  std::size_t plan;       // pass_plan [max_passes]
  std::size_t end;
};

inline layout layout_for(std::int64_t tiles, std::int64_t portions) {
  layout l{};
  const auto t = static_cast<std::size_t>(tiles);
  l.counters = 0;
  l.histogram = wb::piece_bytes(sizeof(unsigned) * max_passes * static_cast<std::size_t>(portions));
  l.in_order = l.histogram + wb::piece_bytes(sizeof(unsigned long long) * max_passes * radix);
  l.status0 = l.in_order + wb::piece_bytes(sizeof(unsigned long long));
  l.zeroed_end = l.status0 + wb::piece_bytes(sizeof(unsigned) * t * radix);
  l.status1 = l.zeroed_end;
  l.base = l.status1 + wb::piece_bytes(sizeof(unsigned) * t * radix);
  l.plan = l.base + wb::piece_bytes(sizeof(std::uint64_t) * max_passes * 2 * radix);
  l.end = l.plan + wb::piece_bytes(sizeof(pass_plan) * max_passes);
  return l;
}

// Keys a portion holds at most: whole tiles, each count below 2^30.
inline std::int64_t portion_tiles_for(std::int64_t tile, std::int64_t requested_keys) {
  const std::int64_t most = ((std::int64_t{1} << 30) - 1) / tile;
  const std::int64_t asked = requested_keys > 0 ? requested_keys / tile : most;
  return asked < 1 ? 1 : (asked < most ? asked : most);
}

// Stage 5's workspace for n keys of key_bytes in tiles of `tile` keys, carved in order: the
// other buffer of keys and of values (the passes ping-pong between them and the output),
// then the scratch of `layout`.
struct workspace_pieces {
  void* other_keys;
  std::uint32_t* other_values;
  unsigned char* scratch;
  layout offsets;  // of the scratch's parts, from `scratch`
  std::int64_t tiles, portion_tiles, portions;
};

inline workspace_pieces carve(const workspace& ws, std::int64_t n, std::size_t key_bytes, std::int64_t tile,
                              const config& cfg) {
  workspace_pieces w{};
  w.tiles = (n + tile - 1) / tile;
  w.portion_tiles = portion_tiles_for(tile, cfg.portion);
  w.portions = (w.tiles + w.portion_tiles - 1) / w.portion_tiles;
  w.offsets = layout_for(w.tiles, w.portions);
  carver pieces(ws, "sort_onesweep");
  w.other_keys = pieces.take<unsigned char>(n * static_cast<std::int64_t>(key_bytes));
  w.other_values = pieces.take<std::uint32_t>(n);
  w.scratch = pieces.take<unsigned char>(static_cast<std::int64_t>(w.offsets.end));
  return w;
}

// What each pass of the last stage-5 sort of n keys in `ws` did, least significant digit
// first: the plan the device wrote, copied to the host (for the checks and the experiments;
// the stage itself never reads it back).
std::vector<pass_mode> pass_modes(const workspace& ws, std::int64_t n, std::size_t key_bytes, bool pairs,
                                  const config& cfg);
// ... how many digit values each pass's keys take (the plan's digits);
std::vector<int> pass_digits(const workspace& ws, std::int64_t n, std::size_t key_bytes, bool pairs,
                             const config& cfg);
// ... and how many tile numbers each pass's blocks took from its counters (all portions): the
// pass kernel takes one a tile; the few-digits kernel's blocks take one a tile and then each
// one more, past the last tile, to find that none is left.
std::vector<std::int64_t> tiles_taken(const workspace& ws, std::int64_t n, std::size_t key_bytes, bool pairs,
                                      const config& cfg);

}  // namespace sort::onesweep
