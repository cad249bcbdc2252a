// Stage 6, int64 distinct counts on data split across GPUs (app.hpp describes the result).
// Each rank counts its own keys (the counting chapter's stage 7), which shrinks them to one row
// per distinct key; then every row goes to the owner of its key, and each owner adds up the
// rows of its keys. What crosses the links is the tables, not the keys: with 2^26 keys and
// 2^20 distinct values per GPU that is 16 MiB of rows instead of 512 MiB of keys. Sending the
// keys themselves (then counting at the owner) would cost less only when almost every key is
// distinct: a table then is as long as the keys, and twice as wide.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "wb/check.hpp"
#include "wb/kernel.hpp"
#include "wb/multi_gpu.hpp"
#if defined(WB_HAVE_NCCL)
#include "wb/nccl.hpp"
#endif

#include "allreduce.hpp"
#include "app.hpp"
#include "counting.hpp"
#include "team.hpp"

namespace allreduce::WB_TRACK {

// How many rows go to each owner: owner_rows[q] += #{rows of owner q}.
__global__ void count_by_owner(const std::int64_t* keys, std::int64_t rows, int ranks, std::uint64_t* owner_rows) {
  for (std::int64_t i = wb::global_thread_index(); i < rows; i += wb::grid_thread_count()) {
    atomicAdd(reinterpret_cast<unsigned long long*>(owner_rows + owner_of_key(keys[i], ranks)), 1ull);
  }
}

// Each row into its owner's part of `send`: cursors[q] starts where owner q's rows begin.
__global__ void group_by_owner(const std::int64_t* keys, const std::uint64_t* counts, std::int64_t rows, int ranks,
                               std::uint64_t* cursors, key_count* send) {
  for (std::int64_t i = wb::global_thread_index(); i < rows; i += wb::grid_thread_count()) {
    const int q = owner_of_key(keys[i], ranks);
    const auto at = atomicAdd(reinterpret_cast<unsigned long long*>(cursors + q), 1ull);
    send[at] = key_count{keys[i], counts[i]};
  }
}

// The owner adds up its rows in an open-addressing table (mask + 1 slots, a power of two):
// claim a free slot for a new key with atomicCAS, then add the row's count with atomicAdd.
__global__ void add_rows(const key_count* rows, std::int64_t n, std::int64_t* slot_key, std::uint64_t* slot_count,
                         std::uint64_t mask) {
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    const key_count row = rows[i];
    if (row.key == empty_key) {  // the marker of a free slot is counted apart
      atomicAdd(reinterpret_cast<unsigned long long*>(slot_count + mask + 1), static_cast<unsigned long long>(row.count));
      continue;
    }
    for (std::uint64_t s = mix64(static_cast<std::uint64_t>(row.key)) & mask;; s = (s + 1) & mask) {
      const auto seen = static_cast<std::int64_t>(atomicCAS(reinterpret_cast<unsigned long long*>(slot_key + s),
                                                            static_cast<unsigned long long>(empty_key),
                                                            static_cast<unsigned long long>(row.key)));
      if (seen == empty_key || seen == row.key) {
        atomicAdd(reinterpret_cast<unsigned long long*>(slot_count + s), static_cast<unsigned long long>(row.count));
        break;
      }
    }
  }
}

// The occupied slots (and key -1, if counted) as the owned table.
__global__ void write_owned(const std::int64_t* slot_key, const std::uint64_t* slot_count, std::uint64_t mask,
                            std::int64_t* keys, std::uint64_t* counts, std::int64_t* size) {
  for (std::int64_t s = wb::global_thread_index(); s <= static_cast<std::int64_t>(mask) + 1; s += wb::grid_thread_count()) {
    const bool extra = s == static_cast<std::int64_t>(mask) + 1;
    if (extra ? slot_count[s] == 0 : slot_key[s] == empty_key) continue;
    const auto at = atomicAdd(reinterpret_cast<unsigned long long*>(size), 1ull);
    keys[at] = extra ? empty_key : slot_key[s];
    counts[at] = slot_count[s];
  }
}

namespace {
unsigned grid_for(std::int64_t items) {
  return static_cast<unsigned>(std::clamp<std::int64_t>((items + 255) / 256, 1, 1024));
}
}  // namespace

void distinct_across_gpus(team& t, app_workspace& ws, std::span<const std::int64_t* const> keys,
                          std::span<const std::int64_t> counts, exchange_method how) {
  const int G = t.size();
  // 1. Every rank at once: count its keys, then group its table's rows by owner. (Stage 7
  //    reads back its table's size: on a GPU each rank gets a host thread of its own, so one
  //    rank's wait does not hold up the others.)
  wb::for_each_concurrently(G, [&](int r) {
    device_scope on(t.device(r));
    app_rank& a = ws.ranks[static_cast<std::size_t>(r)];
    const std::int64_t n = counts[static_cast<std::size_t>(r)];
    const std::int64_t capacity = counting::table_capacity<std::int64_t>(n);
    ensure(a.counting_workspace, counting::solution::count_hash_table_workspace_bytes(n));
    ensure(a.table_keys, static_cast<std::size_t>(capacity));
    ensure(a.table_counts, static_cast<std::size_t>(capacity));
    ensure(a.table_size, 1);
    ensure(a.owner_rows, 2 * static_cast<std::size_t>(G));
    ensure(a.send, static_cast<std::size_t>(capacity));
    counting::solution::count_hash_table(keys[static_cast<std::size_t>(r)], n,
                                         {a.table_keys.data(), a.table_counts.data(), a.table_size.data(), capacity},
                                         {a.counting_workspace.data(), a.counting_workspace.bytes()});
    WB_CHECK(cudaMemcpyAsync(&a.table_rows, a.table_size.data(), sizeof(std::int64_t), cudaMemcpyDeviceToHost, t.stream(r)));
    WB_CHECK(cudaMemsetAsync(a.owner_rows.data(), 0, 2 * static_cast<std::size_t>(G) * sizeof(std::uint64_t), t.stream(r)));
    WB_CHECK(cudaStreamSynchronize(t.stream(r)));
    if (a.table_rows > 0) {
      wb::launch({grid_for(a.table_rows), 256, 0, t.stream(r)}, count_by_owner,
                 static_cast<const std::int64_t*>(a.table_keys.data()), a.table_rows, G, a.owner_rows.data());
    }
    std::vector<std::uint64_t> per_owner(static_cast<std::size_t>(G));
    WB_CHECK(cudaMemcpyAsync(per_owner.data(), a.owner_rows.data(), per_owner.size() * sizeof(std::uint64_t),
                             cudaMemcpyDeviceToHost, t.stream(r)));
    WB_CHECK(cudaStreamSynchronize(t.stream(r)));
    a.rows_to.assign(per_owner.begin(), per_owner.end());
    // Cursors: where each owner's rows begin in `send` (an exclusive prefix sum, on the host).
    std::vector<std::uint64_t> cursors(static_cast<std::size_t>(G));
    for (int q = 1; q < G; ++q) cursors[static_cast<std::size_t>(q)] = cursors[static_cast<std::size_t>(q) - 1] + per_owner[static_cast<std::size_t>(q) - 1];
    WB_CHECK(cudaMemcpyAsync(a.owner_rows.data() + G, cursors.data(), cursors.size() * sizeof(std::uint64_t),
                             cudaMemcpyHostToDevice, t.stream(r)));
    if (a.table_rows > 0) {
      wb::launch({grid_for(a.table_rows), 256, 0, t.stream(r)}, group_by_owner,
                 static_cast<const std::int64_t*>(a.table_keys.data()),
                 static_cast<const std::uint64_t*>(a.table_counts.data()), a.table_rows, G, a.owner_rows.data() + G,
                 a.send.data());
    }
    WB_CHECK(cudaStreamSynchronize(t.stream(r)));  // `cursors` lives on this host thread's stack
  });

  // 2. Every owner's buffers, sized by what it will receive.
  for (int q = 0; q < G; ++q) {
    device_scope on(t.device(q));
    app_rank& owner = ws.ranks[static_cast<std::size_t>(q)];
    owner.rows_received = 0;
    for (const app_rank& from : ws.ranks) owner.rows_received += from.rows_to[static_cast<std::size_t>(q)];
    const std::uint64_t slots = std::bit_ceil(static_cast<std::uint64_t>(std::max<std::int64_t>(2 * owner.rows_received, 2)));
    ensure(owner.recv, static_cast<std::size_t>(std::max<std::int64_t>(owner.rows_received, 1)));
    ensure(owner.slots_key, slots);
    ensure(owner.slots_count, slots + 1);
    ensure(owner.owned_keys, static_cast<std::size_t>(std::max<std::int64_t>(owner.rows_received, 1)));
    ensure(owner.owned_counts, static_cast<std::size_t>(std::max<std::int64_t>(owner.rows_received, 1)));
    ensure(owner.owned_size, 1);
  }

  // 3. The exchange: every row to its owner.
  if (how == exchange_method::nccl) {
#if defined(WB_HAVE_NCCL)
    for (int r = 0; r < G; ++r) t.nccl(r);
    WB_NCCL_CHECK(ncclGroupStart());
    for (int r = 0; r < G; ++r) {
      app_rank& a = ws.ranks[static_cast<std::size_t>(r)];
      std::int64_t sent = 0;
      for (int q = 0; q < G; ++q) {  // rows to q, in send order
        const std::int64_t rows = a.rows_to[static_cast<std::size_t>(q)];
        if (rows > 0) {
          WB_NCCL_CHECK(ncclSend(a.send.data() + sent, static_cast<std::size_t>(rows) * 2, ncclUint64, q, t.nccl(r),
                                 t.stream(r)));
        }
        sent += rows;
      }
      std::int64_t received = 0;
      for (int q = 0; q < G; ++q) {  // rows from q, in rank order
        const std::int64_t rows = ws.ranks[static_cast<std::size_t>(q)].rows_to[static_cast<std::size_t>(r)];
        if (rows > 0) {
          WB_NCCL_CHECK(ncclRecv(a.recv.data() + received, static_cast<std::size_t>(rows) * 2, ncclUint64, q, t.nccl(r),
                                 t.stream(r)));
        }
        received += rows;
      }
    }
    WB_NCCL_CHECK(ncclGroupEnd());
#else
    throw std::runtime_error(t.nccl_unavailable());
#endif
  } else {
    exchange_by_peer_copies(t, ws);
  }

  // 4. Every owner adds up its rows and writes its owned table.
  t.for_each_rank([&](int q) {
    app_rank& owner = ws.ranks[static_cast<std::size_t>(q)];
    const std::uint64_t slots = std::bit_ceil(static_cast<std::uint64_t>(std::max<std::int64_t>(2 * owner.rows_received, 2)));
    WB_CHECK(cudaMemsetAsync(owner.slots_key.data(), 0xFF, slots * sizeof(std::int64_t), t.stream(q)));  // all empty_key
    WB_CHECK(cudaMemsetAsync(owner.slots_count.data(), 0, (slots + 1) * sizeof(std::uint64_t), t.stream(q)));
    WB_CHECK(cudaMemsetAsync(owner.owned_size.data(), 0, sizeof(std::int64_t), t.stream(q)));
    if (owner.rows_received > 0) {
      wb::launch({grid_for(owner.rows_received), 256, 0, t.stream(q)}, add_rows,
                 static_cast<const key_count*>(owner.recv.data()), owner.rows_received, owner.slots_key.data(),
                 owner.slots_count.data(), slots - 1);
    }
    wb::launch({grid_for(static_cast<std::int64_t>(slots) + 1), 256, 0, t.stream(q)}, write_owned,
               static_cast<const std::int64_t*>(owner.slots_key.data()),
               static_cast<const std::uint64_t*>(owner.slots_count.data()), slots - 1, owner.owned_keys.data(),
               owner.owned_counts.data(), owner.owned_size.data());
  });
}

}  // namespace allreduce::WB_TRACK
