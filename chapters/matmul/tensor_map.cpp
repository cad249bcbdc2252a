#include "tensor_map.hpp"

#if defined(WB_BACKEND_CUDA)

#include <string>

#include <fmt/format.h>

#include "matmul.hpp"
#include "wb/check.hpp"
#include "wb/runtime.hpp"
#include "wb/tensor_map.hpp"

namespace matmul {

CUtensorMap make_bf16_tensor_map(const void* base, std::uint64_t rows, std::uint64_t cols, std::uint64_t row_bytes,
                                 std::uint32_t box_rows, std::uint32_t box_cols) {
  return wb::encode_tensor_map(wb::tensor_map_2d(base, wb::tensor_element::bf16, rows, cols, row_bytes, box_rows,
                                                 box_cols, wb::tensor_swizzle::b128, wb::tensor_l2_promotion::b256));
}

void require_sm90(const char* stage) {
  int device = 0, major = 0, minor = 0;
  WB_CHECK(cudaGetDevice(&device));
  WB_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  WB_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  if (major != 9 || minor != 0) {
    cudaDeviceProp prop{};
    WB_CHECK(cudaGetDeviceProperties(&prop, device));
    throw stage_unavailable(
        fmt::format("{} needs an sm_90 GPU (Hopper: H100, H200, GH200) for TMA, wgmma and "
                    "setmaxnreg; this is {} (sm_{}{})",
                    stage, prop.name, major, minor));
  }
}

}  // namespace matmul

#endif  // WB_BACKEND_CUDA
