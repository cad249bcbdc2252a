// What every path of stage 7 shares, in both tracks: the small record the device fills and the
// host reads back (how many distinct keys, did a table fill, what the sample saw), the pieces
// of the workspace, the grid sizes, the empty table. Included by the tracks' stage 7 files and
// compiled in their namespace (it builds on the track's hash_table.cuh).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "counting.hpp"
#include "distinct_table.hpp"
#include "hash_count_plan.hpp"
#include "hash_table.cuh"
#include "phase_clock.hpp"
#include "wb/kernel.hpp"

namespace counting::WB_TRACK {

namespace {

namespace ht = hash_table;

struct table_state {
  unsigned long long distinct;        // pairs written by compact / the bucket tables
  unsigned long long sentinel_count;  // items equal to INT64_MAX (see hash_table.cuh)
  unsigned long long overflow;        // set when a table was full: count again by sorting
  unsigned long long spilled;         // two-level: items past their bucket's capacity
  unsigned long long sample_seen;     // the sample: distinct keys in it,
  unsigned long long sample_once;     // those seen once,
  unsigned long long sample_twice;    // and twice
  unsigned long long hot;             // two-level: hot keys listed (may pass max_hot: the first max_hot count)
  unsigned long long sample_min = ~0ull;  // the sample's smallest and largest (flipped) keys
  unsigned long long sample_max;
  unsigned long long range_min;       // the buckets by key range, as the device decided them
  unsigned long long range_mult;      // (0: buckets by hash; see range_most_kernel)
  unsigned long long sample_most;     // the most times the sample saw one key
  unsigned long long sample_changes;  // sampled places whose next item holds another key
  unsigned sample_digits[8][8];       // the values byte b of the sampled keys took: bit v of the 256 in [b]
};

constexpr int block = 256;

// Keys a thread loads before it adds any, per tile of the input (8 loads in flight).
constexpr int tile_items = 8;

// Enough blocks for `work` threads, at most a full GPU (2048 threads an SM).
unsigned grid_for(std::int64_t work) {
  const std::int64_t fill = static_cast<std::int64_t>(wb::multiprocessor_count()) * (2048 / block);
  const std::int64_t needed = wb::ceil_div(work > 0 ? work : 1, block);
  return static_cast<unsigned>(needed < fill ? needed : fill);
}

// Empties a table and zeroes the state (every path starts with one).
template <class Count>
__global__ void clear_table_kernel(ht::table_view<Count> t, table_state* state) {
  if (wb::global_thread_index() == 0) *state = table_state{};
  for (std::int64_t i = wb::global_thread_index(); i < static_cast<std::int64_t>(t.capacity);
       i += wb::grid_thread_count()) {
    t.keys[i] = ht::empty_key;
    t.counts[i] = 0;
  }
}

// Slots for `expected` distinct keys at no more than 3/4 load, or 1/2 with `half_load` (a
// multiple of 32, at least 1024).
std::int64_t capacity_for(std::int64_t expected, bool half_load = false) {
  const std::int64_t e = expected > 0 ? expected : 1;
  const std::int64_t wanted = half_load ? 2 * e : e / 3 * 4 + 4;
  const std::int64_t slots = wanted < 1024 ? 1024 : wanted;
  return (slots + 31) / 32 * 32;
}

// 32-bit counts are enough unless N itself does not fit in 32 bits.
constexpr std::int64_t max_narrow_count = 0xFFFFFFFFll;

// Hands out 256-byte aligned pieces of the workspace in order; with a null base it only adds
// up the bytes (the *_workspace_bytes function).
class arena {
 public:
  explicit arena(void* base) : base_(static_cast<unsigned char*>(base)) {}
  template <class T>
  T* take(std::int64_t count) {
    unsigned char* at = base_ == nullptr ? nullptr : base_ + offset_;
    offset_ += (static_cast<std::size_t>(count > 0 ? count : 0) * sizeof(T) + 255) / 256 * 256;
    return reinterpret_cast<T*>(at);
  }
  void* rest() const { return base_ == nullptr ? nullptr : base_ + offset_; }
  std::size_t used() const { return offset_; }

 private:
  unsigned char* base_;
  std::size_t offset_ = 0;
};

// What a path did: `counted` when the table is in `out`; else one of its tables filled and the
// stage counts by sorting. `what` names the path for the stage's note ("two-level, 512 buckets").
struct path_outcome {
  bool counted = false;
  std::string what;
};

// The state, read back by the host: a kernel of one warp stores it in pinned host memory,
// which the device addresses directly (unified virtual addressing), and the host waits for
// that kernel. On an H200 that costs about 6 µs less than a cudaMemcpy of the same bytes (a
// copy engine's start; the chapter README), and stage 7 waits for the state once or twice a
// call. The host memory and the event the host waits on are made once a thread and device,
// and kept. One warp stores it, a word a lane, so the stores reach host memory in a few whole
// lines (one thread took 4.5 µs for the 368 bytes, the warp 2.8 µs).
__global__ void store_state_kernel(const table_state* state, table_state* host) {
  static_assert(sizeof(table_state) % sizeof(unsigned) == 0, "copied in 4-byte words");
  constexpr int words = static_cast<int>(sizeof(table_state) / sizeof(unsigned));
  const auto* from = reinterpret_cast<const unsigned*>(state);
  auto* to = reinterpret_cast<unsigned*>(host);
  for (int w = static_cast<int>(threadIdx.x); w < words; w += 32) to[w] = from[w];
}

struct host_state {
  table_state* state = nullptr;
  cudaEvent_t stored{};
};

host_state& host_copy() {
  constexpr int most_devices = 64;
  static thread_local host_state per_device[most_devices];
  int device = 0;
  WB_CHECK(cudaGetDevice(&device));
  if (device < 0 || device >= most_devices)
    throw std::runtime_error("stage 7: device " + std::to_string(device) + ": at most 64 devices");
  host_state& h = per_device[device];
  if (h.state == nullptr) {
    void* p = nullptr;
    WB_CHECK(cudaHostAlloc(&p, sizeof(table_state), cudaHostAllocMapped));
    h.state = static_cast<table_state*>(p);
    WB_CHECK(cudaEventCreateWithFlags(&h.stored, cudaEventDisableTiming));
  }
  return h;
}

// Queues the store; the host may queue more work before it waits for it (await_state, given
// the copy this returns).
host_state& request_state(const table_state* state) {
  host_state& h = host_copy();
  wb::launch({1, 32}, store_state_kernel, state, h.state);
  WB_CHECK(cudaEventRecord(h.stored));
  return h;
}

table_state await_state(host_state& h) {
  WB_CHECK(cudaEventSynchronize(h.stored));
  return *h.state;
}

table_state read_state(const table_state* state) { return await_state(request_state(state)); }

// The end of every call: where the path did not count (the sort path, or a path whose table
// filled), sort every key and run-length encode, from the start, in `scratch` (the workspace
// after the state and the sample); then the note. `sort_started`: the sort's first kernel ran
// on the same keys and scratch (detail::start_sort_run_length_encode), and nothing since wrote
// the scratch.
void sort_unless_counted(const std::int64_t* in, std::int64_t n, device_table<std::int64_t> out, const hash_plan& plan,
                         const path_outcome& done, void* scratch, const hash_count_config& cfg, phase_clock& clock,
                         bool sort_started = false) {
  std::string what = done.what;
  if (done.counted) {
    clock.mark("sorted_pairs");
  } else {
    if (plan.path != hash_path::sort) what += " full -> sort";
    else what = plan.forced && cfg.path != hash_path::sort ? std::string(path_name(cfg.path)) + " refused -> sort" : "sort";
    if (!plan.few_digits_kernel) what += " (no byte of few values)";
    detail::sort_run_length_encode(in, n, out, scratch, detail::sort_count_scratch_bytes(n), cfg.phases, sort_started,
                                   plan.few_digits_kernel);
    clock.mark("sort");
  }
  const std::string note = plan_note(plan, what);
  clock.print("stage 7 phases (" + note + ")");
  set_stage_note(note);
}

}  // namespace

}  // namespace counting::WB_TRACK
