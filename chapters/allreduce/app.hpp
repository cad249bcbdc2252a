// Stage 6's buffers and the pieces both tracks share: the counting chapter's histogram and
// distinct counts on data split across the team's GPUs (the stage itself is in the tracks:
// histogram_across_gpus, distinct_across_gpus).
//
// Distinct counts, as the stage computes them. Rank r counts its own keys with the counting
// chapter's stage 7 into its table of (key, count) rows, ascending. Every key has an OWNER
// rank, owner_of_key(key, G), the same on every rank. Rank r sends each row to the row's
// owner; the owner adds the counts of equal keys from all ranks in a hash table of its own and
// writes the rows out (its owned table, in the hash table's order). Afterwards the owned
// tables of all ranks hold every key once, with its count over all the keys of all ranks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wb/device_buffer.hpp"
#include "wb/runtime.hpp"

#include "allreduce.hpp"

namespace allreduce {

// One row of a table on its way to its owner.
struct key_count {
  std::int64_t key;
  std::uint64_t count;
};

// A 64-bit mixing function (SplitMix64's finaliser: a bijection, every bit depends on every
// bit): the owner of a key and its first slot in the owner's hash table.
__host__ __device__ inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
__host__ __device__ inline int owner_of_key(std::int64_t key, int ranks) {
  return static_cast<int>((mix64(static_cast<std::uint64_t>(key)) >> 32) % static_cast<std::uint64_t>(ranks));
}

// The owner's hash table marks a free slot with this key (all one bits, what a memset of 0xFF
// writes); the key -1 itself is counted apart, in the word after the table's counts.
inline constexpr std::int64_t empty_key = -1;

// --phases: one rank's steps of one call, timed by CUDA events recorded on the rank's stream
// (created on the rank's device on first use, kept between calls). restart() begins a call,
// mark(name) ends the step `name`; line() waits for the last event and gives
// "count 1.052 group 0.011 ... total 1.186 ms".
class phase_marks {
 public:
  phase_marks() = default;
  phase_marks(phase_marks&& other) noexcept;
  phase_marks& operator=(phase_marks&&) = delete;
  phase_marks(const phase_marks&) = delete;
  ~phase_marks();
  void restart(cudaStream_t stream);
  void mark(const char* name, cudaStream_t stream);
  std::string line() const;

 private:
  struct entry {
    const char* name;
    cudaEvent_t event;
  };
  std::vector<entry> marks_;  // created so far
  std::size_t used_ = 0;      // recorded in this call
};

// Everything stage 6 needs on each rank, grown on first use and kept between calls (the first
// call of a timed run is a warm-up).
struct app_rank {
  // histogram
  wb::device_buffer<std::uint64_t> local_bins;  // this rank's own 256 counts
  // distinct counts
  wb::device_buffer<unsigned char> counting_workspace;
  wb::device_buffer<std::int64_t> table_keys;   // this rank's own table (counting's stage 7)
  wb::device_buffer<std::uint64_t> table_counts;
  wb::device_buffer<std::int64_t> table_size;   // 1 word
  wb::device_buffer<std::uint64_t> owner_rows;  // rows for each owner (G words), then G cursors
  wb::device_buffer<key_count> send;            // this rank's rows, grouped by owner
  wb::device_buffer<key_count> recv;            // the rows this rank owns, from every rank
  wb::device_buffer<std::int64_t> slots_key;    // the owner's hash table (a power of two + 0)
  wb::device_buffer<std::uint64_t> slots_count; // ... and one more word: the count of key -1
  wb::device_buffer<std::int64_t> owned_keys;   // the result: this rank's keys, their counts
  wb::device_buffer<std::uint64_t> owned_counts;
  wb::device_buffer<std::int64_t> owned_size;   // 1 word
  // host side, per call
  std::vector<std::int64_t> rows_to;    // rows_to[q]: rows this rank sends to rank q
  std::int64_t rows_received = 0;
  std::string count_note;               // how counting's stage 7 counted this rank's keys
  phase_marks phases;                   // --phases only
};

struct app_workspace {
  std::vector<app_rank> ranks;
  bool phases = false;  // time each rank's steps (start_phases, mark_phase; read by phase_report)
  explicit app_workspace(int ranks_) : ranks(static_cast<std::size_t>(ranks_)) {}
};

// With ws.phases on: rank r's call begins (start_phases) and its step `name` ends (mark_phase),
// as events on t.stream(r); without, nothing. phase_report: one line per rank, "rank 0 (stage 7:
// <its note>): count 1.052 group 0.011 ... total 1.186 ms" (it waits for the events).
void start_phases(team& t, app_workspace& ws, int r);
void mark_phase(team& t, app_workspace& ws, int r, const char* name);
std::string phase_report(team& t, app_workspace& ws);

// Grows a buffer to at least `count` elements (on the current device); keeps it otherwise.
template <class T>
void ensure(wb::device_buffer<T>& buffer, std::size_t count) {
  if (buffer.size() < count) buffer = wb::device_buffer<T>(count);
}

// Rank q's owned table, read back: (key, count) rows, in the owner's order.
std::vector<key_count> owned_rows(team& t, app_workspace& ws, int q);

// Stage 6's baselines on one GPU (the current device), the same library stages on all the data.
void histogram_one_gpu(const std::int8_t* items, std::int64_t n, std::uint64_t* bins, cudaStream_t stream);
// The distinct counts of n keys: the counting chapter's stage 7 (ascending table of `rows`).
struct one_gpu_table {
  wb::device_buffer<unsigned char> workspace;
  wb::device_buffer<std::int64_t> keys;
  wb::device_buffer<std::uint64_t> counts;
  wb::device_buffer<std::int64_t> size;
};
void distinct_one_gpu(const std::int64_t* keys, std::int64_t n, one_gpu_table& out);
std::vector<key_count> table_rows(const one_gpu_table& t);

// Sends each rank's rows to their owners by peer copies (no NCCL): every owner pulls its rows
// from every rank on its own stream once that rank has grouped them, and each rank's stream
// waits until the owners have pulled. ws.ranks[r].rows_to must be set (and rows_received).
void exchange_by_peer_copies(team& t, app_workspace& ws);

}  // namespace allreduce
