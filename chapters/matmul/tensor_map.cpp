#include "tensor_map.hpp"

#if defined(WB_BACKEND_CUDA)

#include <stdexcept>
#include <string>

#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled_v12000
#include <fmt/format.h>

#include "matmul.hpp"
#include "wb/check.hpp"
#include "wb/runtime.hpp"

namespace matmul {

namespace {

PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    WB_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || p == nullptr) {
      throw std::runtime_error(
          "the CUDA driver has no cuTensorMapEncodeTiled (it needs a driver for CUDA 12 or later)");
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}

}  // namespace

CUtensorMap make_bf16_tensor_map(const void* base, std::uint64_t rows, std::uint64_t cols, std::uint64_t row_bytes,
                                 std::uint32_t box_rows, std::uint32_t box_cols) {
  CUtensorMap map{};
  const cuuint64_t dims[2] = {cols, rows};  // innermost first
  const cuuint64_t strides[1] = {row_bytes};  // bytes from one row to the next
  const cuuint32_t box[2] = {box_cols, box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = encode_tiled()(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(base), dims, strides,
                                    box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                    CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    throw std::runtime_error(
        fmt::format("cuTensorMapEncodeTiled failed (CUresult {}) for a {} x {} bf16 matrix, row "
                    "pitch {} bytes, box {} x {}",
                    static_cast<int>(r), rows, cols, row_bytes, box_rows, box_cols));
  }
  return map;
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
