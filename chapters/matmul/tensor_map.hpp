// Stage 6's tensor maps: the lesson's choices (bf16 rows in boxes of 64 columns, one 128-byte
// row each, stored with the 128-byte swizzle that wgmma reads; L2 fetches of 256 bytes) on top of
// the shared host side, wb/tensor_map.hpp (cuTensorMapEncodeTiled through the runtime's driver
// entry point). And the check that the GPU can run the stage. cuda backend only.
#pragma once

#if defined(WB_BACKEND_CUDA)

#include <cstdint>

#include <cuda.h>

#include "wb/device_info.hpp"

namespace matmul {

// A row-major bf16 matrix of `rows` x `cols` (row pitch `row_bytes`, a multiple of 16, the
// address 16-byte aligned), copied in boxes of box_rows x box_cols (box_cols * 2 <= 128
// bytes), stored in shared memory with the 128-byte swizzle; reads outside the matrix give 0.
// Throws std::runtime_error naming what is wrong or the driver's error.
CUtensorMap make_bf16_tensor_map(const void* base, std::uint64_t rows, std::uint64_t cols, std::uint64_t row_bytes,
                                 std::uint32_t box_rows, std::uint32_t box_cols);


// Throws matmul::stage_unavailable unless the current device is an sm_90 GPU (compute
// capability 9.0 exactly: the a-features wgmma and setmaxnreg exist there only).
void require_sm90(const char* stage);

}  // namespace matmul

#endif  // WB_BACKEND_CUDA
