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

void distinct_across_gpus(team& t, app_workspace& ws, std::span<const std::int64_t* const> keys,
                          std::span<const std::int64_t> counts, exchange_method how) {
  // TODO(allreduce/6): every rank counts its keys (the counting chapter's count_hash_table),
  // counts its table's rows per owner (owner_of_key) and groups them by owner in ws's send
  // buffer; every row goes to its owner (NCCL send/receive in one group, or
  // exchange_by_peer_copies); every owner adds up the counts of equal keys in a hash table
  // (atomicCAS to claim a slot, atomicAdd for the count; key -1 apart) and writes its owned
  // table. app.hpp lists the buffers.
}

}  // namespace allreduce::WB_TRACK
