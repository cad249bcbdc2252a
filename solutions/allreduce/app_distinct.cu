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
#include "launch_shape.hpp"
#include "team.hpp"

namespace allreduce::WB_TRACK {

// Every kernel below but add_rows handles rows by TILES of blockDim.x (a multiple of 32): all
// threads of a block take the same trips through the loop, so they can meet at barriers, and
// each tile makes one global atomic per counter instead of one per row. A global atomic per
// row would queue on a handful of addresses (G owners' counters, one table size): the counting
// chapter's one-address histogram runs about 1.4 G atomics/s on an H100, so 2^20 rows on one
// counter cost about 0.75 ms, as long as counting all the keys.

// How many rows go to each owner: owner_rows[q] = #{rows of owner q}. Privatized (PMPP §9.4):
// each block counts in shared memory and adds its G counts into owner_rows once, at the end.
__global__ void count_by_owner(const std::int64_t* keys, const std::int64_t* rows, int ranks, std::uint64_t* owner_rows) {
  __shared__ unsigned long long block_rows[max_ranks];
  if (static_cast<int>(threadIdx.x) < ranks) block_rows[threadIdx.x] = 0;
  __syncthreads();
  const std::int64_t n = *rows;  // the table's size, as counting's stage 7 left it
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    atomicAdd(&block_rows[owner_of_key(keys[i], ranks)], 1ull);
  }
  __syncthreads();
  if (static_cast<int>(threadIdx.x) < ranks && block_rows[threadIdx.x] > 0) {
    atomicAdd(reinterpret_cast<unsigned long long*>(owner_rows + threadIdx.x), block_rows[threadIdx.x]);
  }
}

// cursors[q] = the rows of the owners before q: where owner q's rows begin in `send` (an
// exclusive prefix sum of G numbers: one thread).
__global__ void owner_cursors(const std::uint64_t* owner_rows, int ranks, std::uint64_t* cursors) {
  if (wb::global_thread_index() != 0) return;
  std::uint64_t sum = 0;
  for (int q = 0; q < ranks; ++q) {
    cursors[q] = sum;
    sum += owner_rows[q];
  }
}

// Each row into its owner's part of `send`, a tile at a time: the tile's rows take their
// places among the tile's rows of their owner (shared-memory atomics), then one thread per
// owner reserves that many places after cursors[q] (one global atomicAdd per owner and tile).
__global__ void group_by_owner(const std::int64_t* keys, const std::uint64_t* counts, const std::int64_t* rows,
                               int ranks, std::uint64_t* cursors, key_count* send) {
  __shared__ unsigned tile_rows[max_ranks];
  __shared__ unsigned long long tile_base[max_ranks];
  const std::int64_t n = *rows;
  const std::int64_t tile = blockDim.x;
  for (std::int64_t first = blockIdx.x * tile; first < n; first += gridDim.x * tile) {
    if (static_cast<int>(threadIdx.x) < ranks) tile_rows[threadIdx.x] = 0;
    __syncthreads();
    const std::int64_t i = first + threadIdx.x;
    const int q = i < n ? owner_of_key(keys[i], ranks) : -1;
    const unsigned place = q >= 0 ? atomicAdd(&tile_rows[q], 1u) : 0u;
    __syncthreads();
    if (static_cast<int>(threadIdx.x) < ranks && tile_rows[threadIdx.x] > 0) {
      tile_base[threadIdx.x] = atomicAdd(reinterpret_cast<unsigned long long*>(cursors + threadIdx.x),
                                         static_cast<unsigned long long>(tile_rows[threadIdx.x]));
    }
    __syncthreads();
    if (q >= 0) send[tile_base[q] + place] = key_count{keys[i], counts[i]};
    // (no barrier here: the next tile rewrites tile_base only after its first barrier)
  }
}

// The owner adds up its rows in an open-addressing table (mask + 1 slots, a power of two):
// claim a free slot for a new key with atomicCAS, then add the row's count with atomicAdd.
// (These atomics are spread over 2^21 slots: nothing queues.)
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

// The occupied slots (and key -1, if counted: the word after the table) as the owned table: a
// stream compaction, a tile at a time. Each warp finds its occupied slots with a ballot, thread
// 0 turns the warps' counts into their places (an exclusive scan) and reserves the tile's
// places with one atomicAdd on `size`, and every occupied slot is written at its place.
__global__ void write_owned(const std::int64_t* slot_key, const std::uint64_t* slot_count, std::uint64_t mask,
                            std::int64_t* keys, std::uint64_t* counts, std::int64_t* size) {
  __shared__ unsigned warp_place[32];  // occupied slots of the tile's earlier warps
  __shared__ unsigned long long tile_place;
  const std::int64_t slots = static_cast<std::int64_t>(mask) + 2;  // the table and the extra word
  const std::int64_t tile = blockDim.x;
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  for (std::int64_t first = blockIdx.x * tile; first < slots; first += gridDim.x * tile) {
    const std::int64_t s = first + threadIdx.x;
    const bool extra = s == slots - 1;
    const bool occupied = s < slots && (extra ? slot_count[s] != 0 : slot_key[s] != empty_key);
    const unsigned ballot = __ballot_sync(0xffffffffu, occupied);
    if (lane == 0) warp_place[warp] = static_cast<unsigned>(__popc(ballot));
    __syncthreads();
    if (threadIdx.x == 0) {
      unsigned total = 0;
      for (unsigned w = 0; w < blockDim.x / 32; ++w) {
        const unsigned c = warp_place[w];
        warp_place[w] = total;
        total += c;
      }
      tile_place = total > 0 ? atomicAdd(reinterpret_cast<unsigned long long*>(size), static_cast<unsigned long long>(total)) : 0;
    }
    __syncthreads();
    if (occupied) {
      const unsigned long long at = tile_place + warp_place[warp] + static_cast<unsigned>(__popc(ballot & ((1u << lane) - 1u)));
      keys[at] = extra ? empty_key : slot_key[s];
      counts[at] = slot_count[s];
    }
    __syncthreads();  // lane 0 rewrites warp_place[warp] at the next tile's start, before any barrier
  }
}

void distinct_across_gpus(team& t, app_workspace& ws, std::span<const std::int64_t* const> keys,
                          std::span<const std::int64_t> counts, exchange_method how) {
  const int G = t.size();
  // 1. Every rank at once: count its keys, then group its table's rows by owner. (Stage 7
  //    reads back what it needs on the way, and so does this step at its end: on a GPU each
  //    rank gets a host thread of its own, so one rank's wait does not hold up the others.)
  wb::for_each_concurrently(G, [&](int r) {
    device_scope on(t.device(r));
    app_rank& a = ws.ranks[static_cast<std::size_t>(r)];
    const std::int64_t n = counts[static_cast<std::size_t>(r)];
    const std::int64_t capacity = counting::table_capacity<std::int64_t>(n);
    counting::config stage7;
    stage7.hash.phases = ws.phases;
    ensure(a.counting_workspace, counting::solution::count_hash_table_workspace_bytes(n, stage7));
    ensure(a.table_keys, static_cast<std::size_t>(capacity));
    ensure(a.table_counts, static_cast<std::size_t>(capacity));
    ensure(a.table_size, 1);
    ensure(a.owner_rows, 2 * static_cast<std::size_t>(G));
    ensure(a.send, static_cast<std::size_t>(capacity));
    start_phases(t, ws, r);
    // (on the legacy default stream, which t.stream(r), a blocking stream, is ordered with)
    counting::solution::count_hash_table(keys[static_cast<std::size_t>(r)], n,
                                         {a.table_keys.data(), a.table_counts.data(), a.table_size.data(), capacity},
                                         {a.counting_workspace.data(), a.counting_workspace.bytes()}, stage7);
    a.count_note = counting::take_stage_note();
    mark_phase(t, ws, r, "count");
    // The table's size stays on the device: the kernels read it there, and cover `capacity` rows.
    const auto blocks = static_cast<unsigned>(row_blocks(capacity));
    std::uint64_t* owner_rows = a.owner_rows.data();  // G counts, then G cursors
    WB_CHECK(cudaMemsetAsync(owner_rows, 0, static_cast<std::size_t>(G) * sizeof(std::uint64_t), t.stream(r)));
    wb::launch({blocks, row_threads, 0, t.stream(r)}, count_by_owner, static_cast<const std::int64_t*>(a.table_keys.data()),
               static_cast<const std::int64_t*>(a.table_size.data()), G, owner_rows);
    wb::launch({1, 32, 0, t.stream(r)}, owner_cursors, static_cast<const std::uint64_t*>(owner_rows), G, owner_rows + G);
    wb::launch({blocks, row_threads, 0, t.stream(r)}, group_by_owner, static_cast<const std::int64_t*>(a.table_keys.data()),
               static_cast<const std::uint64_t*>(a.table_counts.data()),
               static_cast<const std::int64_t*>(a.table_size.data()), G, owner_rows + G, a.send.data());
    mark_phase(t, ws, r, "group");
    // The rows for each owner, read back: the sizes of the exchange.
    std::vector<std::uint64_t> per_owner(static_cast<std::size_t>(G));
    WB_CHECK(cudaMemcpyAsync(per_owner.data(), owner_rows, per_owner.size() * sizeof(std::uint64_t),
                             cudaMemcpyDeviceToHost, t.stream(r)));
    WB_CHECK(cudaStreamSynchronize(t.stream(r)));
    a.rows_to.assign(per_owner.begin(), per_owner.end());
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

  t.for_each_rank([&](int r) { mark_phase(t, ws, r, "sizes"); });

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
  t.for_each_rank([&](int r) { mark_phase(t, ws, r, "exchange"); });

  // 4. Every owner adds up its rows and writes its owned table.
  t.for_each_rank([&](int q) {
    app_rank& owner = ws.ranks[static_cast<std::size_t>(q)];
    const std::uint64_t slots = std::bit_ceil(static_cast<std::uint64_t>(std::max<std::int64_t>(2 * owner.rows_received, 2)));
    WB_CHECK(cudaMemsetAsync(owner.slots_key.data(), 0xFF, slots * sizeof(std::int64_t), t.stream(q)));  // all empty_key
    WB_CHECK(cudaMemsetAsync(owner.slots_count.data(), 0, (slots + 1) * sizeof(std::uint64_t), t.stream(q)));
    WB_CHECK(cudaMemsetAsync(owner.owned_size.data(), 0, sizeof(std::int64_t), t.stream(q)));
    if (owner.rows_received > 0) {
      wb::launch({static_cast<unsigned>(row_blocks(owner.rows_received)), row_threads, 0, t.stream(q)}, add_rows,
                 static_cast<const key_count*>(owner.recv.data()), owner.rows_received, owner.slots_key.data(),
                 owner.slots_count.data(), slots - 1);
    }
    mark_phase(t, ws, q, "merge");
    wb::launch({static_cast<unsigned>(row_blocks(static_cast<std::int64_t>(slots) + 1)), row_threads, 0, t.stream(q)},
               write_owned, static_cast<const std::int64_t*>(owner.slots_key.data()),
               static_cast<const std::uint64_t*>(owner.slots_count.data()), slots - 1, owner.owned_keys.data(),
               owner.owned_counts.data(), owner.owned_size.data());
    mark_phase(t, ws, q, "write");
  });
}

}  // namespace allreduce::WB_TRACK
