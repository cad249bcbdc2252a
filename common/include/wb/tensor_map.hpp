// Tensor maps: what the tensor memory accelerator (TMA, wb/device/tma.cuh) needs to know about
// a tensor in global memory to copy boxes of it into shared memory: its address, element type,
// sizes, strides, the box it copies and how the box is laid out in shared memory (swizzle).
// Built on the host with the driver's cuTensorMapEncodeTiled (CUDA Driver API, "Tensor Map
// Object Management"), reached through the runtime's cudaGetDriverEntryPointByVersion, so that
// nothing links the driver library (-lcuda); the 128-byte result goes to the kernel as a
// `const __grid_constant__ CUtensorMap` parameter.
//
//   wb::tensor_map_spec s = wb::tensor_map_2d(A, wb::tensor_element::bf16, rows, cols, row_bytes,
//                                             box_rows, box_cols, wb::tensor_swizzle::b128);
//   CUtensorMap map = wb::encode_tensor_map(s);   // cuda backend; throws with what is wrong
//   wb::tensor_box_bytes(s)                       // the bytes one copy delivers (expect_tx)
//
// The description (tensor_map_spec) and its checks are plain C++ on both backends; only the
// encoding needs the cuda backend. Fixed choices: elements are copied one by one (element
// strides 1), not interleaved, and parts of a box outside the tensor are filled with zeros.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#if defined(WB_BACKEND_CUDA)
#include <cuda.h>  // CUtensorMap
#endif

namespace wb {

// The element types (each one of CUtensorMapDataType).
enum class tensor_element : std::uint8_t { u8, u16, u32, i32, f16, bf16, f32 };
std::size_t element_bytes(tensor_element element);
const char* element_name(tensor_element element);

// How the box lies in shared memory: row after row, or with 16-byte chunks swizzled within each
// span of 32, 64 or 128 bytes (wb/device/wgmma_layout.hpp: swizzled_byte_offset). A swizzled
// box's rows are at most the span wide.
enum class tensor_swizzle : std::uint8_t { none, b32, b64, b128 };
std::uint32_t swizzle_span_bytes(tensor_swizzle swizzle);  // 0, 32, 64, 128

// How much the L2 cache fetches from memory per request for the copies (a hint).
enum class tensor_l2_promotion : std::uint8_t { none, b64, b128, b256 };

// A tensor of rank 1 to 5, every list innermost dimension first (the column of a row-major
// matrix, then the row, ...).
struct tensor_map_spec {
  const void* base = nullptr;  // 16-byte aligned
  tensor_element element = tensor_element::bf16;
  int rank = 0;
  std::array<std::uint64_t, 5> dims{};     // elements, each 1 to 2^32
  std::array<std::uint64_t, 4> strides{};  // bytes from one index of dimension d + 1 to the next
                                           // (strides[0]: the row pitch), multiples of 16, < 2^40
  std::array<std::uint32_t, 5> box{};      // elements, each 1 to 256; box[0] * element bytes a
                                           // multiple of 16, and at most the swizzle's span
  tensor_swizzle swizzle = tensor_swizzle::none;
  tensor_l2_promotion l2_promotion = tensor_l2_promotion::none;
};

// A row-major matrix of rows x cols (row pitch row_bytes), copied in boxes of box_rows x box_cols.
tensor_map_spec tensor_map_2d(const void* base, tensor_element element, std::uint64_t rows, std::uint64_t cols,
                              std::uint64_t row_bytes, std::uint32_t box_rows, std::uint32_t box_cols,
                              tensor_swizzle swizzle = tensor_swizzle::none,
                              tensor_l2_promotion l2_promotion = tensor_l2_promotion::none);
// planes matrices of rows x cols (row pitch row_bytes, plane_bytes from one to the next), in boxes
// of box_planes x box_rows x box_cols.
tensor_map_spec tensor_map_3d(const void* base, tensor_element element, std::uint64_t planes, std::uint64_t rows,
                              std::uint64_t cols, std::uint64_t row_bytes, std::uint64_t plane_bytes,
                              std::uint32_t box_planes, std::uint32_t box_rows, std::uint32_t box_cols,
                              tensor_swizzle swizzle = tensor_swizzle::none,
                              tensor_l2_promotion l2_promotion = tensor_l2_promotion::none);

// The bytes one copy of a box writes to shared memory, zero-filled parts included: what the
// copy's mbarrier phase must expect (wb::device::mbarrier_arrive_expect_tx).
std::uint32_t tensor_box_bytes(const tensor_map_spec& spec);

// What makes the description one cuTensorMapEncodeTiled refuses (its documented requirements),
// or "" when there is nothing.
std::string tensor_map_problem(const tensor_map_spec& spec);

// "bf16 tensor of 100 x 72 (strides 160 bytes), box 32 x 16, 128-byte swizzle": sizes
// outermost first, as a C++ reader indexes them.
std::string describe(const tensor_map_spec& spec);

#if defined(WB_BACKEND_CUDA)
// The tensor map of `spec`. Throws std::runtime_error naming what is wrong (tensor_map_problem)
// or, when the driver refuses it anyway, its error; and when the driver has no
// cuTensorMapEncodeTiled (older than CUDA 12).
CUtensorMap encode_tensor_map(const tensor_map_spec& spec);
#endif

}  // namespace wb
