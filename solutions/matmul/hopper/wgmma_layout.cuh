// Stage 6, the layouts: where the tensor memory accelerator (TMA) puts a tile in shared
// memory, how a wgmma descriptor tells the tensor cores to read it back, and which outputs a
// thread's accumulator registers hold. Plain arithmetic, host and device: the cpu backend
// checks it against the PTX ISA's definitions (tests/test_hopper_layout.cpp).
//
// The 128-byte swizzle (CU_TENSOR_MAP_SWIZZLE_128B; wgmma swizzle mode 1): a box whose rows
// are 128 bytes is stored row after row, but within every 8 rows (1024 bytes) the 16-byte
// chunk c of row r goes to chunk c ^ (r % 8). Eight rows' chunk c then lie in eight different
// bank groups: the tensor cores read a column of chunks without bank conflicts.
//
// wgmma reads its operands through 64-bit descriptors (PTX ISA, "Matrix Descriptor Format"):
//   bits  0-13  start address >> 4           bits 16-29  leading dimension byte offset >> 4
//   bits 32-45  stride dimension byte offset >> 4         bits 62-63  swizzle mode (1: 128 B)
// For the 128-byte swizzle, the operand is made of "atoms" of 8 rows x 128 bytes:
//   A, K-major (each row of the tile holds 64 consecutive k): the stride byte offset is the
//     distance between atoms along M (8 rows = 1024 bytes); the leading one is unused. A k16
//     step starts 32 bytes further along the rows (the hardware swizzles the address itself,
//     which is why tiles start on 1024-byte boundaries).
//   B, N-major (each row of a box holds 64 consecutive n, one row per k): the leading byte
//     offset is the distance between atoms along N (the next box, 8192 bytes), the stride one
//     between atoms along K (8 rows of k, 1024 bytes). A k16 step starts 16 rows (2048 bytes)
//     further.
#pragma once

#include <cstdint>

#include "wb/runtime.hpp"

namespace matmul::WB_TRACK::hopper {

// Byte offset, from a 1024-byte aligned tile start, of byte `byte` (0-127) of row `row` of a
// box with 128-byte rows, as the TMA stores it with the 128-byte swizzle.
__host__ __device__ constexpr std::uint32_t swizzled_offset(std::uint32_t row, std::uint32_t byte) {
  return row * 128 + (((byte / 16) ^ (row % 8)) * 16) + byte % 16;
}

// A wgmma shared-memory descriptor with the 128-byte swizzle (base offset 0: atoms start on
// 1024-byte boundaries).
__host__ __device__ constexpr std::uint64_t make_descriptor(std::uint32_t address, std::uint32_t leading_bytes,
                                                            std::uint32_t stride_bytes) {
  return static_cast<std::uint64_t>((address & 0x3FFFF) >> 4) |
         static_cast<std::uint64_t>((leading_bytes & 0x3FFFF) >> 4) << 16 |
         static_cast<std::uint64_t>((stride_bytes & 0x3FFFF) >> 4) << 32 | std::uint64_t{1} << 62;
}

// The A operand (64 rows x 16 k) of k16 step `kk` (0-3) for the 64 rows starting at
// `first_row` (a multiple of 8) of an A tile at shared address `tile` (K-major, 128-byte rows).
__host__ __device__ constexpr std::uint64_t a_descriptor(std::uint32_t tile, std::uint32_t first_row,
                                                         std::uint32_t kk) {
  return make_descriptor(tile + first_row * 128 + kk * 32, 16, 1024);
}

// The B operand (16 k x all columns) of k16 step `kk` of a B tile at shared address `tile`
// (N-major: boxes of 64 k-rows x 128 bytes, one per 64 columns, 8192 bytes apart).
__host__ __device__ constexpr std::uint64_t b_descriptor(std::uint32_t tile, std::uint32_t kk) {
  return make_descriptor(tile + kk * 16 * 128, 64 * 128, 1024);
}

// The accumulator of wgmma.m64nNk16 with f32 results (PTX ISA, "Register Fragments", the
// figure for the accumulator D): thread t (0-127) of the warpgroup holds N / 2 floats; its
// warp owns rows 16 (t / 32) to 16 (t / 32) + 15; within a warp, lane l owns rows l / 4 and
// l / 4 + 8 and, in every group of 8 columns, columns 2 (l % 4) and 2 (l % 4) + 1. Register i
// is in column group i / 4; registers 4g, 4g+1 are the upper row, 4g+2, 4g+3 the lower.
__host__ __device__ constexpr int accumulator_row(int thread, int i) {
  return 16 * (thread / 32) + (thread % 32) / 4 + 8 * ((i / 2) % 2);
}
__host__ __device__ constexpr int accumulator_col(int thread, int i) {
  return 8 * (i / 4) + 2 * (thread % 4) + i % 2;
}

}  // namespace matmul::WB_TRACK::hopper
