// Stage 6's shared pieces (app.hpp): the one-GPU baselines, reading an owned table back, and
// the exchange by peer copies.
#include "app.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "wb/check.hpp"

#include "counting.hpp"
#include "team.hpp"

namespace allreduce {

std::vector<key_count> owned_rows(team& t, app_workspace& ws, int q) {
  device_scope on(t.device(q));
  app_rank& a = ws.ranks.at(static_cast<std::size_t>(q));
  WB_CHECK(cudaStreamSynchronize(t.stream(q)));
  if (a.owned_size.empty()) return {};
  const std::int64_t size = a.owned_size.to_host()[0];
  if (size < 0 || static_cast<std::size_t>(size) > a.owned_keys.size()) {
    throw std::runtime_error("rank " + std::to_string(q) + "'s owned table has size " + std::to_string(size));
  }
  const std::vector<std::int64_t> keys = a.owned_keys.to_host(static_cast<std::size_t>(size));
  const std::vector<std::uint64_t> counts = a.owned_counts.to_host(static_cast<std::size_t>(size));
  std::vector<key_count> rows(static_cast<std::size_t>(size));
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = {keys[i], counts[i]};
  return rows;
}

void histogram_one_gpu(const std::int8_t* items, std::int64_t n, std::uint64_t* bins, cudaStream_t stream) {
  WB_CHECK(cudaMemsetAsync(bins, 0, 256 * sizeof(std::uint64_t), stream));
  counting::solution::histogram_privatized_accumulate(items, n, bins, {}, stream);
}

void distinct_one_gpu(const std::int64_t* keys, std::int64_t n, one_gpu_table& out) {
  const std::int64_t capacity = counting::table_capacity<std::int64_t>(n);
  ensure(out.workspace, counting::solution::count_hash_table_workspace_bytes(n));
  ensure(out.keys, static_cast<std::size_t>(capacity));
  ensure(out.counts, static_cast<std::size_t>(capacity));
  ensure(out.size, 1);
  counting::solution::count_hash_table(keys, n, {out.keys.data(), out.counts.data(), out.size.data(), capacity},
                                       {out.workspace.data(), out.workspace.bytes()});
}

std::vector<key_count> table_rows(const one_gpu_table& t) {
  WB_CHECK(cudaDeviceSynchronize());
  const std::int64_t size = t.size.to_host()[0];
  const std::vector<std::int64_t> keys = t.keys.to_host(static_cast<std::size_t>(size));
  const std::vector<std::uint64_t> counts = t.counts.to_host(static_cast<std::size_t>(size));
  std::vector<key_count> rows(static_cast<std::size_t>(size));
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = {keys[i], counts[i]};
  return rows;
}

phase_marks::phase_marks(phase_marks&& other) noexcept
    : marks_(std::exchange(other.marks_, {})), used_(std::exchange(other.used_, 0)) {}

phase_marks::~phase_marks() {
  for (const entry& e : marks_) cudaEventDestroy(e.event);  // (a destructor: nothing to report to)
}

void phase_marks::restart(cudaStream_t stream) {
  used_ = 0;
  mark("start", stream);
}

void phase_marks::mark(const char* name, cudaStream_t stream) {
  if (used_ == marks_.size()) {
    cudaEvent_t e{};
    WB_CHECK(cudaEventCreate(&e));  // with timing, on the current device: the stream's
    marks_.push_back({name, e});
  }
  entry& e = marks_[used_++];
  e.name = name;
  WB_CHECK(cudaEventRecord(e.event, stream));
}

std::string phase_marks::line() const {
  if (used_ < 2) return "no steps timed";
  WB_CHECK(cudaEventSynchronize(marks_[used_ - 1].event));
  std::string text;
  float total = 0;
  for (std::size_t i = 1; i < used_; ++i) {
    float ms = 0;
    WB_CHECK(cudaEventElapsedTime(&ms, marks_[i - 1].event, marks_[i].event));
    total += ms;
    text += fmt::format("{} {:.3f} ", marks_[i].name, ms);
  }
  return text + fmt::format("total {:.3f} ms", total);
}

void start_phases(team& t, app_workspace& ws, int r) {
  if (!ws.phases) return;
  device_scope on(t.device(r));
  ws.ranks.at(static_cast<std::size_t>(r)).phases.restart(t.stream(r));
}

void mark_phase(team& t, app_workspace& ws, int r, const char* name) {
  if (!ws.phases) return;
  device_scope on(t.device(r));
  ws.ranks.at(static_cast<std::size_t>(r)).phases.mark(name, t.stream(r));
}

std::string phase_report(team& t, app_workspace& ws) {
  std::string text;
  for (int r = 0; r < t.size(); ++r) {
    device_scope on(t.device(r));
    const app_rank& a = ws.ranks.at(static_cast<std::size_t>(r));
    std::int64_t rows = 0;
    for (const std::int64_t k : a.rows_to) rows += k;
    text += fmt::format("  rank {} (GPU {}; stage 7: {}; {} rows out, {} in): {}\n", r, t.device(r),
                        a.count_note.empty() ? "-" : a.count_note, rows, a.rows_received, a.phases.line());
  }
  return text;
}

void exchange_by_peer_copies(team& t, app_workspace& ws) {
  const int G = t.size();
  // Events: rank r's 0 "rows grouped" (on its stream), 1 "my rows pulled" (on each owner's).
  enum : int { grouped = 0, pulled = 1 };
  t.for_each_rank([&](int r) { WB_CHECK(cudaEventRecord(t.event(r, grouped), t.stream(r))); });
  for (int q = 0; q < G; ++q) {  // owner q pulls from every rank r
    device_scope on(t.device(q));
    app_rank& owner = ws.ranks[static_cast<std::size_t>(q)];
    std::int64_t at = 0;
    for (int r = 0; r < G; ++r) {
      app_rank& from = ws.ranks[static_cast<std::size_t>(r)];
      std::int64_t first = 0;
      for (int k = 0; k < q; ++k) first += from.rows_to[static_cast<std::size_t>(k)];
      const std::int64_t rows = from.rows_to[static_cast<std::size_t>(q)];
      if (rows > 0) {
        WB_CHECK(cudaStreamWaitEvent(t.stream(q), t.event(r, grouped), 0));
        WB_CHECK(cudaMemcpyPeerAsync(owner.recv.data() + at, t.device(q), from.send.data() + first, t.device(r),
                                     static_cast<std::size_t>(rows) * sizeof(key_count), t.stream(q)));
      }
      at += rows;
    }
    WB_CHECK(cudaEventRecord(t.event(q, pulled), t.stream(q)));
  }
  // A rank's send buffer is free again once every owner has pulled from it.
  t.for_each_rank([&](int r) {
    for (int q = 0; q < G; ++q) WB_CHECK(cudaStreamWaitEvent(t.stream(r), t.event(q, pulled), 0));
  });
}

}  // namespace allreduce
