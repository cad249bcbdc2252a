// Stage 6's shared pieces (app.hpp): the one-GPU baselines, reading an owned table back, and
// the exchange by peer copies.
#include "app.hpp"

#include <algorithm>
#include <stdexcept>

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
