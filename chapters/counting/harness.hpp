// Running one stage of one track on one input: the glue the checks and the executable share.
// (Not something a learner needs to read: the stages are in solutions/ and exercises/.)
//
//   counting::stage_runner<counting::WB_TRACK::id, std::int8_t> run(6, input, cfg);
//   run.run();                                  // enqueue (device stages) or compute (host stages)
//   std::vector<entry<std::int8_t>> t = run.result();
//
// The runner owns the output table (poisoned with 0xA5 bytes before every run, so a stage
// that forgets to write shows up), the stage's workspace (poisoned once) and, for stage 8,
// a pinned host copy of the input.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <sstream>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "counting.hpp"
#include "stages.hpp"
#include "wb/check.hpp"
#include "wb/device_buffer.hpp"
#include "wb/track.hpp"
#include "wb/workspace.hpp"

namespace counting {

// The input of a run: on the host always; on the device for the device stages.
template <class T>
struct input {
  std::span<const T> host;
  const T* device = nullptr;  // n items, or null (then the runner copies `host` itself)
};

// A device_table with its storage.
template <class T>
class table_buffers {
 public:
  explicit table_buffers(std::int64_t n)
      : capacity_(table_capacity<T>(n)),
        values_(static_cast<std::size_t>(capacity_)),
        counts_(static_cast<std::size_t>(capacity_)),
        size_(1) {}
  void poison() {
    values_.fill_bytes(0xA5);
    counts_.fill_bytes(0xA5);
    size_.fill_bytes(0xA5);
  }
  device_table<T> view() { return {values_.data(), counts_.data(), size_.data(), capacity_}; }
  std::vector<entry<T>> to_host() const {
    const std::int64_t size = size_.to_host()[0];
    if (size < 0 || size > capacity_) {
      std::ostringstream what;
      what << "the stage wrote a table size of " << size << " (capacity " << capacity_ << ")";
      if (size < 0 && size > -10000) what << ": a device-side launch failed with CUDA error " << -size;
      throw std::runtime_error(what.str());
    }
    std::vector<T> values(static_cast<std::size_t>(capacity_));
    std::vector<std::uint64_t> counts(static_cast<std::size_t>(capacity_));
    values_.copy_to(values);
    counts_.copy_to(counts);
    std::vector<entry<T>> table(static_cast<std::size_t>(size));
    for (std::size_t i = 0; i < table.size(); ++i) table[i] = {values[i], counts[i]};
    return table;
  }

 private:
  std::int64_t capacity_;
  wb::device_buffer<T> values_;
  wb::device_buffer<std::uint64_t> counts_;
  wb::device_buffer<std::int64_t> size_;
};

// Pinned host memory (stage 8's input), freed on destruction.
template <class T>
class pinned_buffer {
 public:
  explicit pinned_buffer(std::span<const T> from) : size_(from.size()) {
    if (size_ > 0) {
      WB_CHECK(cudaMallocHost(reinterpret_cast<void**>(&data_), size_ * sizeof(T)));
      std::memcpy(data_, from.data(), size_ * sizeof(T));
    }
  }
  pinned_buffer(const pinned_buffer&) = delete;
  pinned_buffer& operator=(const pinned_buffer&) = delete;
  ~pinned_buffer() {
    if (data_ != nullptr) cudaFreeHost(data_);
  }
  const T* data() const { return data_; }

 private:
  T* data_ = nullptr;
  std::size_t size_;
};

template <class T>
constexpr bool stage_applies(int stage) {
  if (stage < 0 || stage >= stage_count) return false;
  return std::is_same_v<T, std::int8_t> ? traits[stage].int8 : traits[stage].int64;
}

template <track_id Track, class T>
class stage_runner {
 public:
  // Throws std::invalid_argument for a stage that does not take T.
  stage_runner(int stage, input<T> in, const config& cfg)
      : stage_(stage), n_(static_cast<std::int64_t>(in.host.size())), host_(in.host), device_(in.device), cfg_(cfg),
        table_(n_) {
    if (!stage_applies<T>(stage)) throw std::invalid_argument("stage " + std::to_string(stage) + " does not take this item type");
    if (!traits[stage].host) {
      if (device_ == nullptr) {
        own_input_ = wb::device_buffer<T>(host_);
        device_ = own_input_.data();
      }
      workspace_.emplace(workspace_bytes());  // poisoned: a stage initialises what it reads
    }
    if (stage == 8) pinned_.emplace(host_);
  }

  int stage() const { return stage_; }

  // Poisons the output, then runs the stage once (device stages: enqueued, not waited for).
  // Throws stage_refused, or whatever the stage throws.
  void run() {
    poison();
    run_timed();
  }
  // Fills the output table with 0xA5 bytes, so a stage that forgets to write it shows.
  void poison() {
    if (!traits[stage_].host) table_.poison();
  }
  // Only the device part, for timing (the output is not poisoned again).
  void run_timed() {
    if (traits[stage_].host) {
      host_result_ = run_host();
    } else {
      run_device();
    }
  }

  std::vector<entry<T>> result() {
    if (traits[stage_].host) return host_result_;
    WB_CHECK(cudaDeviceSynchronize());
    return table_.to_host();
  }

 private:
  std::size_t workspace_bytes() const {
    std::size_t bytes = 0;
    WB_WITH_TRACK(counting, wb::track_constant<Track>{}, {
      if constexpr (std::is_same_v<T, std::int8_t>) {
        switch (stage_) {
          case 3: bytes = tr::count_direct_port_workspace_bytes<T>(n_); break;
          case 4: bytes = tr::count_dynamic_parallelism_workspace_bytes<T>(n_, cfg_); break;
          case 5: bytes = tr::histogram_global_atomics_workspace_bytes(); break;
          case 6: bytes = tr::histogram_privatized_workspace_bytes(); break;
          case 8: bytes = tr::count_pipelined_workspace_bytes(cfg_); break;
          default: break;
        }
      } else {
        switch (stage_) {
          case 3: bytes = tr::count_direct_port_workspace_bytes<T>(n_); break;
          case 4: bytes = tr::count_dynamic_parallelism_workspace_bytes<T>(n_, cfg_); break;
          case 7: bytes = tr::count_hash_table_workspace_bytes(n_, cfg_); break;
          default: break;
        }
      }
    });
    return bytes;
  }

  std::vector<entry<T>> run_host() {
    std::vector<entry<T>> table;
    WB_WITH_TRACK(counting, wb::track_constant<Track>{}, {
      switch (stage_) {
        case 0: table = tr::dist_count<T>(host_); break;
        case 1: table = tr::omp_dist_count<T>(host_, 0); break;
        default: table = tr::count_cpu<T>(host_); break;
      }
    });
    return table;
  }

  void run_device() {
    const workspace ws = workspace_->view();
    device_table<T> out = table_.view();
    WB_WITH_TRACK(counting, wb::track_constant<Track>{}, {
      if constexpr (std::is_same_v<T, std::int8_t>) {
        switch (stage_) {
          case 3: tr::count_direct_port<T>(device_, n_, out, ws, cfg_); break;
          case 4: tr::count_dynamic_parallelism<T>(device_, n_, out, ws, cfg_); break;
          case 5: tr::histogram_global_atomics(device_, n_, out, ws, cfg_); break;
          case 6: tr::histogram_privatized(device_, n_, out, ws, cfg_); break;
          default: tr::count_pipelined(pinned_->data(), n_, out, ws, cfg_); break;
        }
      } else {
        switch (stage_) {
          case 3: tr::count_direct_port<T>(device_, n_, out, ws, cfg_); break;
          case 4: tr::count_dynamic_parallelism<T>(device_, n_, out, ws, cfg_); break;
          default: tr::count_hash_table(device_, n_, out, ws, cfg_); break;
        }
      }
    });
  }

  int stage_;
  std::int64_t n_;
  std::span<const T> host_;
  const T* device_;
  config cfg_;
  table_buffers<T> table_;
  wb::device_buffer<T> own_input_;
  std::optional<wb::workspace_buffer> workspace_;
  std::optional<pinned_buffer<T>> pinned_;
  std::vector<entry<T>> host_result_;
};

// "at row 3: expected -5:12, got -5:11", or nothing when the tables are equal.
template <class T>
std::optional<std::string> table_mismatch(const std::vector<entry<T>>& expected, const std::vector<entry<T>>& got) {
  const std::size_t common = expected.size() < got.size() ? expected.size() : got.size();
  for (std::size_t i = 0; i < common; ++i) {
    if (!(expected[i] == got[i])) {
      std::ostringstream out;
      out << "at row " << i << ": expected " << +expected[i].value << ":" << expected[i].count << ", got "
          << +got[i].value << ":" << got[i].count;
      return out.str();
    }
  }
  if (expected.size() != got.size()) {
    std::ostringstream out;
    out << "expected " << expected.size() << " distinct values, got " << got.size();
    if (common < expected.size()) out << " (first missing: " << +expected[common].value << ":" << expected[common].count << ")";
    if (common < got.size()) out << " (first extra: " << +got[common].value << ":" << got[common].count << ")";
    return out.str();
  }
  return std::nullopt;
}

// "3:2 1:2 6:2 2:1"
template <class T>
std::string format_table(const std::vector<entry<T>>& table) {
  std::ostringstream out;
  for (std::size_t i = 0; i < table.size(); ++i) out << (i ? " " : "") << +table[i].value << ":" << table[i].count;
  return out.str();
}

}  // namespace counting
