// Stage 5's shapes: the tiles, the shared-memory plan and the ring bookkeeping of the
// FlashAttention-3 kernel (Shah et al. 2024, §3). Plain arithmetic, host and device, both
// backends.
//
//   block        CONSUMERS x 64 queries of one (batch, head): a producer warpgroup (one thread
//                issues the TMA copies) and one consumer warpgroup per 64 queries (one wgmma M)
//   K/V tiles    BN keys of d columns (128; 176 or 192 where that measured faster), bf16, in
//                rings of STAGES tiles each (K and V have
//                rings and barriers of their own: K is needed first and freed first, §3.1)
//   in shared    every tile is d / 64 boxes of (rows x 64 columns), one 128-byte row per
//                key (or query), stored with the 128-byte swizzle that wgmma reads
//   Q            each consumer's 64 x d tile, rounded to bf16 by the consumer itself
#pragma once

#include <cstddef>
#include <cstdint>

#include "wb/runtime.hpp"

namespace attention::WB_TRACK::hopper {

template <int D_, int CONSUMERS_, int STAGES_, bool PINGPONG_, bool PERSISTENT_, int BN_ = 128>
struct shape {
  static constexpr int D = D_;                   // head dimension: 64 or 128
  static constexpr int CONSUMERS = CONSUMERS_;   // consumer warpgroups, 64 queries each
  static constexpr int STAGES = STAGES_;         // K tiles (and V tiles) in flight
  static constexpr bool PINGPONG = PINGPONG_;    // the two consumers take turns on the tensor cores (§3.1)
  static constexpr bool PERSISTENT = PERSISTENT_;  // one block per SM draws work items (scheduler.cuh)
  static constexpr int BM = 64;                  // queries per consumer: wgmma's M
  static constexpr int BLOCK_QUERIES = BM * CONSUMERS;
  static constexpr int BN = BN_;                 // keys per tile: S is 64 x BN, BN / 2 floats per thread
  static constexpr int THREADS = 128 * (1 + CONSUMERS);
  static constexpr int BOXES = D / 64;           // 64-column (128-byte) boxes across a row
  static constexpr int Q_BOX_BYTES = BM * 128;   // 8 KiB
  static constexpr int Q_BYTES = BM * D * 2;     // one consumer's Q tile
  static constexpr int KV_BOX_BYTES = BN * 128;  // 16 KiB
  static constexpr int KV_TILE_BYTES = BN * D * 2;  // what one full barrier waits for
  static constexpr std::size_t ALIGN = 1024;     // the 128-byte swizzle repeats every 1024 bytes
  static constexpr std::size_t K_OFFSET = std::size_t{CONSUMERS} * Q_BYTES;
  static constexpr std::size_t V_OFFSET = K_OFFSET + std::size_t{STAGES} * KV_TILE_BYTES;
  static constexpr std::size_t BARRIER_OFFSET = V_OFFSET + std::size_t{STAGES} * KV_TILE_BYTES;
  static constexpr std::size_t ITEM_OFFSET = BARRIER_OFFSET + 8 * (4 * STAGES + 4);  // + the item barriers
  static constexpr std::size_t SHARED_BYTES = ALIGN + ITEM_OFFSET + 2 * 8;            // + two item slots
  // setmaxnreg: with two consumers a thread has 168 registers at launch (384 threads, one block
  // per SM); the producer keeps 40, each consumer thread takes 232 (40 + 2 x 232 = 3 x 168).
  // With three (d = 64 only: S, P and O fit in 160), 128 at launch; 24 + 3 x 160 <= 4 x 128.
  static constexpr bool MOVES_REGISTERS = CONSUMERS >= 2;
  static constexpr int PRODUCER_REGISTERS = CONSUMERS == 3 ? 24 : 40;
  static constexpr int CONSUMER_REGISTERS = CONSUMERS == 3 ? 160 : 232;

  static_assert(D == 64 || D == 128, "one or two 128-byte boxes per row");
  static_assert(CONSUMERS >= 1 && CONSUMERS <= 3, "64, 128 or 192 queries per block");
  static_assert(CONSUMERS < 3 || D == 64, "three consumers' registers hold S, P and O for d = 64 only");
  static_assert(BN % 16 == 0 && BN <= 256 && (BN * 128) % 1024 == 0, "k16 steps of P V; whole swizzle atoms");
  static_assert(!PINGPONG || CONSUMERS == 2, "ping-pong needs two consumers");
  static_assert(SHARED_BYTES <= 227 * 1024, "an H100 block has at most 227 KiB of shared memory");
};

// The n-th tile a block moves through a ring of `stages` uses stage n % stages; each pass over
// the ring completes one phase of the stage's barriers, so consumers wait for parity
// (n / stages) % 2 of `full`, the producer for the phase before it of `empty` (a fresh barrier
// counts that one as complete: the first pass does not wait).
struct ring_position {
  int stage;
  std::uint32_t parity;
};
__host__ __device__ constexpr ring_position ring_at(std::uint32_t n, int stages) {
  return {static_cast<int>(n % static_cast<std::uint32_t>(stages)), (n / static_cast<std::uint32_t>(stages)) & 1u};
}

// The block's work: which (batch, head) and which queries. Blocks of one head are neighbours in
// the grid (they read the same K and V, which then stay in L2); with the causal mask the query
// tiles of a head go last to first, so the longest blocks start first (FA3's causal order).
struct block_work {
  std::int64_t bh;     // batch * heads + head
  std::int64_t q0;     // first query
  std::int64_t tiles;  // K/V tiles the block's queries see (causal: up to its last query's diagonal)
};
__host__ __device__ inline block_work work_of_block(std::int64_t block, std::int64_t query_tiles, std::int64_t seq,
                                                    std::int64_t kv_seq, bool causal, int block_queries, int bn) {
  block_work w;
  w.bh = block / query_tiles;
  const std::int64_t m = block % query_tiles;
  w.q0 = (causal ? query_tiles - 1 - m : m) * block_queries;
  const std::int64_t last = (w.q0 + block_queries < seq ? w.q0 + block_queries : seq) - 1;
  const std::int64_t end = causal ? last + kv_seq - seq + 1 : kv_seq;  // visible_end(last)
  w.tiles = (end + bn - 1) / bn;
  return w;
}

}  // namespace attention::WB_TRACK::hopper
