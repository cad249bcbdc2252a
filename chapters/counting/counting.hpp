// The distribution counting chapter's interface: what every stage computes, the types it
// computes them with, and (in counting_api.hpp) the stage functions of both tracks.
//
// The problem (the DCA article, the DCA article, "Background"): given N items, how often does each
// value occur? The answer is the frequency table, one (value, count) pair per distinct value.
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

#include "wb/runtime.hpp"  // cudaStream_t in stage 6's accumulate

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

// Scratch device memory a stage may use (size from the stage's *_workspace_bytes function).
// Its contents on entry are undefined: a stage initialises what it reads.
struct workspace {
  void* data = nullptr;
  std::size_t bytes = 0;
};

// Tuning knobs. The defaults are what the benchmark uses; the checks vary them.
struct config {
  int block = 256;                         // threads per block (stages 3, 4, 5)
  int blocks_per_sm = 0;                   // stage 6: resident blocks per SM; 0 = as many as fit
  int blocks = 0;                          // stage 6: grid size; 0 = one full wave (persistent)
  int variant = 0;                         // stage 6: counter layout; stage 7: path (see counting_api.hpp)
  std::int64_t expected_distinct = 0;      // stage 7: distinct keys to plan for instead of its own estimate; 0: estimate
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
struct stage_refused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The N above which the quadratic stages refuse to run (stage 0 and 1 on the host, 3 on the
// device): the article's algorithm does about N*(N+k)/2 comparisons (D1).
inline constexpr std::int64_t max_quadratic_host_items = 200'000;
inline constexpr std::int64_t max_quadratic_device_items = std::int64_t{1} << 20;
// Stage 4 launches one child grid per (chunk, distinct value) pair: bounded by this.
inline constexpr std::int64_t max_dynamic_parallelism_items = std::int64_t{1} << 20;

// Multiprocessors of the current device (the persistent and grid-filling launches size their
// grids by it).
int multiprocessor_count();

// Comparisons the article's sequential algorithm makes on n items with k distinct values:
// the duplicate search n(n-1)/2 plus the table search, about n*k/2 (Table 1's O(N(N+k))).
double quadratic_comparisons(double n, double k);

}  // namespace counting

// The stage functions, declared once per track: the build compiles solutions/counting/ with
// WB_TRACK=solution and exercises/counting/ with WB_TRACK=exercise, so the two sets of
// definitions live in counting::solution and counting::exercise, and the executable links both
// (--track, --compare). counting_api.hpp is the list; it is included once in each namespace.
namespace counting {
enum class track_id { solution, exercise };
}
namespace counting::solution {
inline constexpr track_id id = track_id::solution;
#include "counting_api.hpp"
}
namespace counting::exercise {
inline constexpr track_id id = track_id::exercise;
#include "counting_api.hpp"
}
