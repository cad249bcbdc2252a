// The distribution counting chapter's interface: what every stage computes, the types it
// computes them with, and (in track_interface.inl) the stage functions of both tracks.
//
// The problem (the DCA article: "Implementing a parallel scalable distribution counting
// algorithm (DCA) using the CUDA 8.0 runtime API", CodeProject, "Background"): given N items, how often does each value occur? The answer is the frequency
// table, one (value, count) pair per distinct value.
//
//     table = { (v, #{ i : data[i] == v }) : v occurs in data }
//
// Our choice of order: the pairs come in ASCENDING VALUE ORDER. The article appends a value
// when it first meets it (first-seen order), which depends on where each value happens to
// sit in the input; ascending order is what a reader of the table wants, and what a parallel
// program can produce without remembering positions. Counts are 64-bit (10^9 items of one
// value do not fit in 32 bits' worth of headroom once several chunks are added up).
//
// Item types: int8 (the article's CUDA data: 256 possible values, a histogram) and int64 (its
// sequential data: any number of distinct values, a hash table or a sort).
//
// Conventions (common/README.md):
//   - stages 0-2 run on the HOST and take host data (a std::span) and return the table;
//   - stages 3-7 take DEVICE pointers and 64-bit sizes, write the table to a device_table,
//     may use the scratch memory in `ws` (ask the stage's *_workspace_bytes first, like CUB's
//     temp storage), enqueue on the default stream and copy none of their data between host
//     and device, so they can be timed on their own (stage 7 reads back one small record,
//     twice where keys spilled: how many distinct keys it found, to size its sort);
//   - stage 8 is the transfer stage: its input is in pinned HOST memory and moving it to the
//     device is the point.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "wb/device_info.hpp"
#include "wb/runtime.hpp"    // cudaStream_t in stage 6's accumulate
#include "wb/stage.hpp"
#include "wb/track.hpp"
#include "wb/workspace.hpp"

namespace counting {

// One row of the frequency table.
template <class T>
struct entry {
  T value;
  std::uint64_t count;
  friend bool operator==(const entry&, const entry&) = default;
};

// The item types the chapter is built for.
template <class T>
inline constexpr bool is_item_type = std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::int64_t>;

// The frequency table in device memory, as stages 3-8 write it: `*size` pairs, ascending by
// value, in values[0, *size) and counts[0, *size). `capacity` is what the arrays hold: every
// possible value for int8 (256), at most one per item for int64 (n).
template <class T>
struct device_table {
  T* values = nullptr;
  std::uint64_t* counts = nullptr;
  std::int64_t* size = nullptr;
  std::int64_t capacity = 0;
};

// The table capacity a stage needs for n items of type T.
template <class T>
constexpr std::int64_t table_capacity(std::int64_t n) {
  if constexpr (std::is_same_v<T, std::int8_t>) {
    return 256;
  } else {
    return n > 0 ? n : 1;
  }
}

// Scratch device memory a stage may use: wb::workspace (`bytes`, `size` of them; the size from
// the stage's *_workspace_bytes function). Its contents on entry are undefined: a stage
// initialises what it reads.
using wb::workspace;

// Stage 7's paths (track_interface.inl); its plan chooses one unless the configuration forces it.
enum class hash_path { automatic, shared_tables, two_level, sort, global_table };

// Stage 7's knobs. The defaults leave every decision to the plan, which is what the benchmark
// measures; each field set forces one decision, for the checks and the README's measurements.
struct hash_count_config {
  hash_path path = hash_path::automatic;  // the path; automatic: the plan's choice from the sample
  std::int64_t expected_distinct = 0;     // distinct keys to plan for instead of the sample's estimate; 0: estimate
  int aggregate = -1;          // how a warp's lanes with one key add: 0 each its own, 1 one for all (64-bit match),
                               // 2 one for all (32-bit match, then a check); -1: 0 in shared memory, 1 in the global table
  int partition_bits = -1;     // forced shared tables: 2^b partitions (0-3); -1: the fewest that hold the planned keys
  int bucket_bits = -1;        // two-level: 2^b buckets (0-12); -1: planned from the estimate
  bool key_ranges = true;      // two-level: buckets by key range where the sample spreads evenly (else by hash)
  bool hot_keys = true;        // two-level: the sample's hot keys counted in the scatter, never moved;
                               // sort: counted aside (false: neither)
  double aside_share = -1;     // sort: the hot keys counted aside where the sample's repeated keys hold at least
                               // this share of its items (0-1); -1: the plan's share
  bool small_shared_tables = false;  // shared tables of 8192 slots and 512 threads (two blocks an SM) instead of
                                     // 16384 and 1024 (the cpu backend always takes the small ones)
  bool phases = false;         // print the time of each step (CUDA events) on stderr
};

// Stage 7's plan (plan_hash_count, track_interface.inl): which path counts the keys and how large
// its tables are, decided on the host from what a sample of the input saw, before any table is
// built. Host code, so the checks test the decision table on any machine, without a GPU.
//
// What the sample saw (hash_sample.hpp): the numbers the plan decides from. Keys are compared
// sign-flipped (int64 order as uint64 order, as the hash tables store them). INT64_MAX is left
// out: it is the tables' empty-slot pattern, counted on the side wherever it goes.
struct sample_summary {
  std::int64_t samples = 0;  // items sampled (0: no sample was taken)
  std::int64_t seen = 0;     // distinct keys among them
  std::int64_t once = 0;     // keys seen once
  std::int64_t twice = 0;    // keys seen twice
  std::int64_t most = 0;     // the most times one key was seen
  unsigned long long min = ~0ull;  // the smallest and largest key seen (flipped)
  unsigned long long max = 0;
  std::int64_t changes = 0;  // sampled places whose next item holds another key (runs; INT64_MAX counts)
  int fewest_digit_values = 0;  // the fewest values any byte of the sampled (flipped) keys took (0: none sampled)
};

// The two-level count's buckets (the solution's two_level_count.cuh plans them).
struct bucket_plan {
  int bucket_bits = 0;              // 2^bucket_bits buckets
  std::int64_t capacity = 0;        // places of each bucket
  std::int64_t spill_capacity = 0;  // slots of the spill table (keys past a full bucket)
  std::int64_t max_pairs = 0;       // pairs the bucket tables, the spill table and the hot keys can give
  std::int64_t room = 0;            // buckets by key range: places for one bucket's sorted pairs
};

struct hash_plan {
  hash_path path = hash_path::sort;
  bool forced = false;            // the configuration chose the path, not the table
  const char* rule = "";          // the row of the decision table that chose it
  const char* basis = "";         // where `distinct` comes from: "est." (the sample), "told" (the configuration)
  double distinct = 0;            // the estimate of the distinct keys (or the configuration's number)
  double planned = 0;             // the keys the shared and global tables are sized for (the estimate and a margin)
  bool skewed = false;            // the sample saw a key as often as a hot one (or there is no sample)
  unsigned hot_sample_count = 0;  // two-level: a key the sample saw this often is hot (0: none are)
  int partition_bits = 0;         // shared tables: 2^partition_bits partitions
  bucket_plan buckets;            // two-level
  bool hot_keys_aside = false;    // sort: the hot keys counted aside, only the other keys sorted
  bool few_digits_kernel = true;  // sort: a pass may take few digit values (the sort chapter's few-digits kernel runs)
};

// Tuning knobs. The defaults are what the benchmark uses; the checks vary them.
struct config {
  int block = 256;                         // threads per block (stages 3, 4, 5)
  int blocks_per_sm = 0;                   // stage 6: resident blocks per SM; 0 = as many as fit
  int blocks = 0;                          // stage 6: grid size; 0 = one full wave (persistent)
  int variant = 0;                         // stage 6: counter layout (0-3, see track_interface.inl)
  hash_count_config hash;                  // stage 7
  std::int64_t dp_chunk = 4096;            // stage 4: items per chunk (one parent block each)
  std::int64_t chunk_items = std::int64_t{1} << 24;  // stage 8: items per transfer
  int streams = 4;                         // stage 8: copy/count streams
};

// Throws std::invalid_argument naming the knob when cfg is out of range.
void validate(const config& cfg);

// A stage that chooses its own path (stage 7) leaves a word about its choice here; the
// executable prints it in the stage's note column. take_stage_note() returns it and clears it.
void set_stage_note(std::string note);
std::string take_stage_note();

// Thrown by a stage that cannot run on this backend or at this size; the executable prints
// the message in the stage's row instead of a time, the checks skip it.
using stage_refused = wb::stage_refused;

// The N above which the quadratic stages refuse to run (stage 0 and 1 on the host, 3 on the
// device): the article's algorithm does about N*(N+k)/2 comparisons (D1).
inline constexpr std::int64_t max_quadratic_host_items = 200'000;
inline constexpr std::int64_t max_quadratic_device_items = std::int64_t{1} << 20;
// Stage 4 launches one child grid per (chunk, distinct value) pair: bounded by this.
inline constexpr std::int64_t max_dynamic_parallelism_items = std::int64_t{1} << 20;


// Comparisons the article's sequential algorithm makes on n items with k distinct values:
// the duplicate search n(n-1)/2 plus the table search, about n*k/2 (Table 1's O(N(N+k))).
double quadratic_comparisons(double n, double k);

}  // namespace counting

// The stage functions, declared once per track: the build compiles solutions/counting/ with
// WB_TRACK=solution and exercises/counting/ with WB_TRACK=exercise, so the two sets of
// definitions live in counting::solution and counting::exercise, and the executable links both
// (--track, --compare). track_interface.inl is the list; it is included once in each namespace.
namespace counting {
using track_id = wb::track;
}
namespace counting::solution {
inline constexpr track_id id = track_id::solution;
#include "track_interface.inl"
}  // namespace counting::solution
namespace counting::exercise {
inline constexpr track_id id = track_id::exercise;
#include "track_interface.inl"
}  // namespace counting::exercise
