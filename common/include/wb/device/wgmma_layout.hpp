// The layouts wgmma reads and writes, as plain arithmetic on the host and the device (both
// backends: the cpu backend checks them, common/tests/test_hopper_layer.cu; the instructions
// themselves are in wb/device/wgmma.cuh).
//
// Shared-memory operands are described by 64-bit matrix descriptors (PTX ISA, "Asynchronous
// Warpgroup Level Matrix Multiply-Accumulate Instructions", "Matrix Descriptor Format", sm_90):
//   bits  0-13  start address >> 4               bits 16-29  leading dimension byte offset >> 4
//   bits 32-45  stride dimension byte offset >> 4 bits 49-51  base offset (0: the swizzle
//   bits 62-63  swizzle mode: 0 none, 1 128-byte,             pattern starts on its own
//               2 64-byte, 3 32-byte                          boundary)
// Each byte quantity keeps its low 18 bits, in units of 16 bytes.
//
// With a swizzle, an operand is made of "atoms" of 8 rows of the swizzle's width (128 bytes:
// 64 bf16), one row per m (or n) for a K-major operand, one per k for an MN-major one:
//   K-major (k contiguous in each row; A as wgmma wants it, or B for Q K^T): the stride byte
//     offset is the distance between atoms along M/N (8 rows: 1024 bytes when they are
//     packed); the leading one is unused with a swizzle (set it to 16). The k16 steps within an
//     atom start 32 bytes further each: the hardware applies the swizzle to the address itself,
//     which is why atoms start on 1024-byte boundaries.
//   MN-major (m or n contiguous; B of a row-major K x N matrix): the leading byte offset is
//     the distance between atoms along N (the next 64 columns), the stride one between atoms
//     along K (8 rows of k, 1024 bytes); a k16 step starts 16 rows (2048 bytes) further.
//
// The swizzle (the TMA's CU_TENSOR_MAP_SWIZZLE_{32,64,128}B, the descriptor's modes 3, 2, 1;
// PTX ISA, "Tensors", its swizzling modes; CUTLASS writes them Swizzle<1,4,3>, <2,4,3>,
// <3,4,3>): within each 128 bytes, 16-byte chunk c moves to c ^ ((offset / 128) % (span / 16)).
// With 128-byte rows, 8 consecutive rows put their chunk c in 8 different bank groups, so a
// column of chunks is read without bank conflicts.
//
// Accumulators of wgmma.m64nNk16 with f32 results (PTX ISA, "Register Fragments", the figure for
// the accumulator D of wgmma .m64nNk16): thread t (0-127) of the warpgroup holds N / 2 floats;
// warp t / 32 owns rows 16 (t / 32) to 16 (t / 32) + 15; within the warp, lane l owns rows
// l / 4 and l / 4 + 8 and, in every group of 8 columns, columns 2 (l % 4) and 2 (l % 4) + 1.
// Register i is in column group i / 4; registers 4g, 4g + 1 are the upper row, 4g + 2, 4g + 3
// the lower.
#pragma once

#include <cstdint>

#include "wb/runtime.hpp"

namespace wb::device {

// The descriptor's swizzle field (bits 62-63).
enum class wgmma_swizzle : std::uint32_t { none = 0, b128 = 1, b64 = 2, b32 = 3 };

// Which dimension of an operand is contiguous in shared memory: K ("not transposed", the
// instruction's imm-trans 0) or M / N (transposed, imm-trans 1; bf16 and f16 only).
enum class wgmma_major : int { k = 0, mn = 1 };

// A wgmma shared-memory descriptor, base offset 0 (atoms start on the swizzle's boundary).
__host__ __device__ constexpr std::uint64_t wgmma_descriptor(std::uint32_t address, std::uint32_t leading_bytes,
                                                             std::uint32_t stride_bytes,
                                                             wgmma_swizzle swizzle = wgmma_swizzle::b128) {
  return static_cast<std::uint64_t>((address & 0x3FFFF) >> 4) |
         static_cast<std::uint64_t>((leading_bytes & 0x3FFFF) >> 4) << 16 |
         static_cast<std::uint64_t>((stride_bytes & 0x3FFFF) >> 4) << 32 |
         static_cast<std::uint64_t>(swizzle) << 62;
}

// A descriptor's fields, back in bytes (for checks and for printing one while debugging).
struct wgmma_descriptor_fields {
  std::uint32_t address;
  std::uint32_t leading_bytes;
  std::uint32_t stride_bytes;
  std::uint32_t base_offset;
  wgmma_swizzle swizzle;
};
__host__ __device__ constexpr wgmma_descriptor_fields wgmma_descriptor_decode(std::uint64_t d) {
  return {static_cast<std::uint32_t>(d & 0x3FFF) << 4, static_cast<std::uint32_t>((d >> 16) & 0x3FFF) << 4,
          static_cast<std::uint32_t>((d >> 32) & 0x3FFF) << 4, static_cast<std::uint32_t>((d >> 49) & 0x7),
          static_cast<wgmma_swizzle>((d >> 62) & 0x3)};
}

// Where byte `offset` of a box (counted from a boundary of the swizzle's repeat: 1024 bytes for
// 128, 512 for 64, 256 for 32) lies in shared memory after the TMA stored it with a swizzle of
// `span_bytes` (128, 64 or 32; 0: no swizzle, the offset itself).
__host__ __device__ constexpr std::uint32_t swizzled_byte_offset(std::uint32_t offset, std::uint32_t span_bytes) {
  const std::uint32_t chunks = span_bytes / 16;  // 8, 4 or 2 values of the XOR
  return chunks < 2 ? offset : offset ^ (((offset >> 7) & (chunks - 1)) << 4);
}

// The row and column, within the 64 x N block, of accumulator register i of thread t (0-127).
__host__ __device__ constexpr int wgmma_accumulator_row(int thread, int i) {
  return 16 * (thread / 32) + (thread % 32) / 4 + 8 * ((i / 2) % 2);
}
__host__ __device__ constexpr int wgmma_accumulator_col(int thread, int i) {
  return 8 * (i / 4) + 2 * (thread % 4) + i % 2;
}

}  // namespace wb::device
