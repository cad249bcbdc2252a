// Stage 6's pieces, on every machine: the layouts and the bookkeeping (wgmma_layout.cuh,
// pipeline.cuh) against the PTX ISA's definitions, written here independently of the track's
// code: the TMA's 128-byte swizzle, the descriptors wgmma reads its operands through, the
// accumulator's fragment layout, the ring's stages and phases, the tile order, the tile by the
// problem's shape. The kernels themselves run in test_checks.cpp (on an sm_90 GPU).
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "test_support.hpp"
#include "hopper_shape.hpp"
#include "pipeline.cuh"
#include "tiling.hpp"
#include "variants.hpp"
#include "wgmma_layout.cuh"

using namespace matmul;
using namespace matmul::testing;
namespace hop = matmul::WB_TRACK::hopper;

namespace {

// The 128-byte swizzle on a shared-memory address (PTX ISA, "Shared Memory Matrix Layout"):
// bits 4-6 (the 16-byte chunk within a 128-byte row) are XOR-ed with bits 7-9 (the row
// within the 1024-byte repeat).
std::uint32_t swizzle_128(std::uint32_t address) {
  return address ^ (((address >> 7) & 7u) << 4);
}

struct descriptor_fields {
  std::uint32_t start, leading, stride, base_offset, swizzle, reserved;
};
// The matrix descriptor's fields (PTX ISA, "Matrix Descriptor Format"): 14-bit fields hold
// byte quantities divided by 16.
descriptor_fields decode(std::uint64_t d) {
  return {static_cast<std::uint32_t>(d & 0x3FFF) << 4,
          static_cast<std::uint32_t>((d >> 16) & 0x3FFF) << 4,
          static_cast<std::uint32_t>((d >> 32) & 0x3FFF) << 4,
          static_cast<std::uint32_t>((d >> 49) & 7),
          static_cast<std::uint32_t>(d >> 62),
          static_cast<std::uint32_t>((d >> 14) & 3) | static_cast<std::uint32_t>((d >> 30) & 3) |
              static_cast<std::uint32_t>((d >> 46) & 7) | static_cast<std::uint32_t>((d >> 52) & 0x3FF)};
}

// Where wgmma reads element (m, k) of a K-major 64 x 16 bf16 operand with the 128-byte
// swizzle: atoms of 8 rows x 128 bytes, `stride` bytes apart along M; k along the row.
std::uint32_t k_major_address(const descriptor_fields& d, int m, int k) {
  return swizzle_128(d.start + (m / 8) * d.stride + (m % 8) * 128 + 2 * k);
}
// Where wgmma reads element (k, n) of an N-major 16 x N bf16 operand with the 128-byte
// swizzle: atoms of 8 k-rows x 128 bytes (64 n); `leading` bytes between atoms along N,
// `stride` bytes between atoms along K.
std::uint32_t n_major_address(const descriptor_fields& d, int k, int n) {
  return swizzle_128(d.start + (n / 64) * d.leading + (k / 8) * d.stride + (k % 8) * 128 + 2 * (n % 64));
}

constexpr std::uint32_t tile_address = 0x8400 & ~1023u;  // some 1024-byte aligned shared address

}  // namespace

TEST_SUITE("matmul/6 hopper") {
  TEST_CASE("the TMA's 128-byte swizzle: chunk c of row r lands at chunk c ^ (r % 8)") {
    for (std::uint32_t row = 0; row < 64; ++row) {
      std::set<std::uint32_t> chunks;
      for (std::uint32_t byte = 0; byte < 128; ++byte) {
        CAPTURE(row);
        CAPTURE(byte);
        REQUIRE(hop::swizzled_offset(row, byte) == swizzle_128(row * 128 + byte));
        if (byte % 16 == 0) chunks.insert(hop::swizzled_offset(row, byte));
      }
      CHECK(chunks.size() == 8);  // a row stays a row: its 8 chunks are permuted within it
      CHECK(*chunks.begin() == row * 128);
    }
  }
  TEST_CASE("a descriptor's bit fields") {
    const descriptor_fields d = decode(hop::make_descriptor(0x1230, 16, 1024));
    CHECK(d.start == 0x1230);
    CHECK(d.leading == 16);
    CHECK(d.stride == 1024);
    CHECK(d.base_offset == 0);
    CHECK(d.swizzle == 1);  // 128-byte swizzle
    CHECK(d.reserved == 0);
    const descriptor_fields e = decode(hop::make_descriptor(0x3FFF0, 8192, 2048));
    CHECK(e.start == 0x3FFF0);
    CHECK(e.leading == 8192);
    CHECK(e.stride == 2048);
  }
  TEST_CASE("A descriptors read back what the TMA stored: each consumer's 64 rows, each k16 step") {
    const auto S = hopper_shape<128, 256, 4, 8, true>{};
    for (std::uint32_t first_row = 0; first_row < static_cast<std::uint32_t>(S.BM); first_row += 64) {
      for (std::uint32_t kk = 0; kk < 4; ++kk) {
        const descriptor_fields d = decode(hop::a_descriptor(tile_address, first_row, kk));
        REQUIRE(d.swizzle == 1);
        for (int m = 0; m < 64; ++m) {
          for (int k = 0; k < 16; ++k) {
            // the TMA stored A[row][col] of the 128 x 64 box at swizzled_offset(row, 2 col)
            const std::uint32_t stored =
                tile_address + hop::swizzled_offset(first_row + static_cast<std::uint32_t>(m), 2 * (16 * kk + k));
            CAPTURE(first_row);
            CAPTURE(kk);
            CAPTURE(m);
            CAPTURE(k);
            REQUIRE(k_major_address(d, m, k) == stored);
          }
        }
      }
    }
  }
  TEST_CASE("B descriptors read back what the TMA stored: 64-column boxes, each k16 step") {
    for (std::uint32_t kk = 0; kk < 4; ++kk) {
      const descriptor_fields d = decode(hop::b_descriptor(tile_address, kk));
      REQUIRE(d.swizzle == 1);
      for (int k = 0; k < 16; ++k) {
        for (int n = 0; n < 256; ++n) {
          // box n / 64 (8192 bytes each) holds B[k][64 (n / 64) + c] at swizzled_offset(k, 2 c)
          const std::uint32_t stored = tile_address + static_cast<std::uint32_t>(n / 64) * 8192 +
                                       hop::swizzled_offset(16 * kk + static_cast<std::uint32_t>(k), 2 * (n % 64));
          CAPTURE(kk);
          CAPTURE(k);
          CAPTURE(n);
          REQUIRE(n_major_address(d, k, n) == stored);
        }
      }
    }
  }
  TEST_CASE("the accumulator's fragment layout: every output of 64 x N exactly once, as the PTX figure draws it") {
    for (const int N : {128, 256}) {
      std::set<std::pair<int, int>> seen;
      for (int t = 0; t < 128; ++t) {
        for (int i = 0; i < N / 2; ++i) {
          const int row = hop::accumulator_row(t, i), col = hop::accumulator_col(t, i);
          REQUIRE(row >= 0);
          REQUIRE(row < 64);
          REQUIRE(col >= 0);
          REQUIRE(col < N);
          seen.insert({row, col});
        }
      }
      CHECK(seen.size() == static_cast<std::size_t>(64 * N));
    }
    // thread 0: d0, d1 at row 0, columns 0 and 1; d2, d3 at row 8; d4 at column 8
    CHECK(hop::accumulator_row(0, 0) == 0);
    CHECK(hop::accumulator_col(0, 1) == 1);
    CHECK(hop::accumulator_row(0, 2) == 8);
    CHECK(hop::accumulator_col(0, 3) == 1);
    CHECK(hop::accumulator_col(0, 4) == 8);
    // lanes 0-3 share row 0, columns 2 apart; lane 4 starts row 1; warp 1 starts row 16
    CHECK(hop::accumulator_col(3, 0) == 6);
    CHECK(hop::accumulator_row(4, 0) == 1);
    CHECK(hop::accumulator_row(32, 0) == 16);
    CHECK(hop::accumulator_row(127, 127) == 63);
    CHECK(hop::accumulator_col(127, 127) == 255);
  }
  TEST_CASE("the ring: stage n % STAGES, one phase per pass; the producer's first pass does not wait") {
    for (const int stages : {3, 4}) {
      int stage = 0;
      std::uint32_t parity = 0;
      for (std::uint32_t n = 0; n < 50; ++n) {
        const hop::ring_position p = hop::ring_at(n, stages);
        CAPTURE(n);
        REQUIRE(p.stage == stage);
        REQUIRE(p.parity == parity);
        if (++stage == stages) {  // the same bookkeeping, counted step by step
          stage = 0;
          parity ^= 1;
        }
      }
    }
    // the first pass waits for parity 0 of `full` (the first fill) and for parity 1 of `empty`
    // (the phase before the first, which a fresh barrier counts as complete)
    CHECK(hop::ring_at(0, 4).parity == 0);
    CHECK(hop::ring_at(3, 4).parity == 0);
    CHECK(hop::ring_at(4, 4).parity == 1);
  }
  TEST_CASE("the grouped tile order visits every tile once; a group goes down its rows first") {
    for (const auto& [tiles_m, tiles_n, group] :
         {std::tuple{32, 16, 8}, std::tuple{7, 5, 3}, std::tuple{1, 9, 8}, std::tuple{10, 1, 4}, std::tuple{5, 6, 1}}) {
      std::set<std::pair<std::int64_t, std::int64_t>> seen;
      for (std::int64_t t = 0; t < tiles_m * tiles_n; ++t) {
        const tile_coord c = hop::grouped_tile(t, tiles_m, tiles_n, group);
        REQUIRE(c.row >= 0);
        REQUIRE(c.row < tiles_m);
        REQUIRE(c.col >= 0);
        REQUIRE(c.col < tiles_n);
        seen.insert({c.row, c.col});
      }
      CHECK(seen.size() == static_cast<std::size_t>(tiles_m * tiles_n));
    }
    CHECK(hop::grouped_tile(1, 32, 16, 8).row == 1);  // down first ...
    CHECK(hop::grouped_tile(1, 32, 16, 8).col == 0);
    CHECK(hop::grouped_tile(8, 32, 16, 8).row == 0);  // ... then across
    CHECK(hop::grouped_tile(8, 32, 16, 8).col == 1);
    CHECK(hop::grouped_tile(5, 5, 6, 1).row == 0);  // group 1: row by row
    CHECK(hop::grouped_tile(6, 5, 6, 1).row == 1);
  }
  TEST_CASE("--trace's map of who computes what is the accumulator layout") {
    for (int variant = 0; variant < static_cast<int>(hopper_variants.size()); ++variant) {
      const tiling t = tiling_of(6, variant, 256, 256);
      const bool specialized = variant != variant_index(6, "simple");
      REQUIRE(t.threads == (specialized ? 128 : 0) + 128 * (specialized ? static_cast<int>(t.block_rows) / 64 : 1));
      for (int block = 0; block < t.block_rows / 64; ++block) {
        for (int thread = 0; thread < 128; ++thread) {
          for (int i = 0; i < t.block_cols / 2; ++i) {
            const int r = 64 * block + hop::accumulator_row(thread, i), c = hop::accumulator_col(thread, i);
            // the specialized kernel's warpgroup 0 only loads; consumer 1 + block owns rows 64 block ...
            const int expected = specialized ? 128 * (1 + block) + thread : thread;
            CAPTURE(variant);
            CAPTURE(thread);
            CAPTURE(i);
            REQUIRE(owner_thread(t, r, c) == expected);
          }
        }
      }
    }
  }
  TEST_CASE("the tile by the problem's shape: 128 x 256 when there are about as many as SMs, else smaller") {
    const std::int64_t sms = 132;  // an H100 SXM
    struct expectation {
      std::int64_t M, N;
      hopper_tile tile;
    };
    for (const expectation& e : {expectation{8192, 8192, hopper_tile::t128x256}, {4096, 4096, hopper_tile::t128x256},
                                 {2048, 2048, hopper_tile::t128x256},  // 128 tiles: one wave, 4 SMs idle
                                 {1536, 1536, hopper_tile::t128x128},  // 72 of 128 x 256, 144 of 128 x 128
                                 {1024, 1024, hopper_tile::t64x128},   // 32, 64, then 128 tiles
                                 {128, 8192, hopper_tile::t64x128},    // 2 x 64 tiles of 64 x 128
                                 {16, 8192, hopper_tile::t64x64},      // one row of tiles: 128 of 64 x 64
                                 {512, 512, hopper_tile::t64x64},      // 64 tiles: the smallest
                                 {1, 1, hopper_tile::t64x64}}) {
      CAPTURE(e.M);
      CAPTURE(e.N);
      CHECK(hopper_tile_for(e.M, e.N, sms) == e.tile);
    }
    // The rule: the chosen tile gives at least 9/10 as many tiles as SMs, unless it is the
    // smallest; every larger tile gives fewer.
    const std::int64_t sides[][2] = {{128, 256}, {128, 128}, {64, 128}, {64, 64}};
    for (std::int64_t M = 1; M <= 5000; M += 97) {
      for (std::int64_t N = 1; N <= 5000; N += 89) {
        const auto chosen = static_cast<int>(hopper_tile_for(M, N, sms));
        for (int larger = 0; larger < chosen; ++larger) {
          REQUIRE(10 * hopper_tiles(M, N, sides[larger][0], sides[larger][1]) < 9 * sms);
        }
        if (chosen < 3) REQUIRE(10 * hopper_tiles(M, N, sides[chosen][0], sides[chosen][1]) >= 9 * sms);
      }
    }
  }
}
