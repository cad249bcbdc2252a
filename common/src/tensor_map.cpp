#include "wb/tensor_map.hpp"

#include <stdexcept>
#include <string>

#include <fmt/format.h>

#if defined(WB_BACKEND_CUDA)
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled_v12000

#include "wb/check.hpp"
#include "wb/runtime.hpp"
#endif

namespace wb {

std::size_t element_bytes(tensor_element element) {
  switch (element) {
    case tensor_element::u8:
      return 1;
    case tensor_element::u16:
    case tensor_element::f16:
    case tensor_element::bf16:
      return 2;
    case tensor_element::u32:
    case tensor_element::i32:
    case tensor_element::f32:
      return 4;
  }
  return 0;
}

const char* element_name(tensor_element element) {
  switch (element) {
    case tensor_element::u8:
      return "u8";
    case tensor_element::u16:
      return "u16";
    case tensor_element::u32:
      return "u32";
    case tensor_element::i32:
      return "i32";
    case tensor_element::f16:
      return "f16";
    case tensor_element::bf16:
      return "bf16";
    case tensor_element::f32:
      return "f32";
  }
  return "?";
}

std::uint32_t swizzle_span_bytes(tensor_swizzle swizzle) {
  switch (swizzle) {
    case tensor_swizzle::b32:
      return 32;
    case tensor_swizzle::b64:
      return 64;
    case tensor_swizzle::b128:
      return 128;
    case tensor_swizzle::none:
      break;
  }
  return 0;
}

tensor_map_spec tensor_map_2d(const void* base, tensor_element element, std::uint64_t rows, std::uint64_t cols,
                              std::uint64_t row_bytes, std::uint32_t box_rows, std::uint32_t box_cols,
                              tensor_swizzle swizzle, tensor_l2_promotion l2_promotion) {
  tensor_map_spec s;
  s.base = base;
  s.element = element;
  s.rank = 2;
  s.dims = {cols, rows, 0, 0, 0};  // innermost first
  s.strides = {row_bytes, 0, 0, 0};
  s.box = {box_cols, box_rows, 0, 0, 0};
  s.swizzle = swizzle;
  s.l2_promotion = l2_promotion;
  return s;
}

tensor_map_spec tensor_map_3d(const void* base, tensor_element element, std::uint64_t planes, std::uint64_t rows,
                              std::uint64_t cols, std::uint64_t row_bytes, std::uint64_t plane_bytes,
                              std::uint32_t box_planes, std::uint32_t box_rows, std::uint32_t box_cols,
                              tensor_swizzle swizzle, tensor_l2_promotion l2_promotion) {
  tensor_map_spec s = tensor_map_2d(base, element, rows, cols, row_bytes, box_rows, box_cols, swizzle, l2_promotion);
  s.rank = 3;
  s.dims[2] = planes;
  s.strides[1] = plane_bytes;
  s.box[2] = box_planes;
  return s;
}

std::uint32_t tensor_box_bytes(const tensor_map_spec& spec) {
  std::uint64_t bytes = element_bytes(spec.element);
  for (int d = 0; d < spec.rank && d < 5; ++d) bytes *= spec.box[static_cast<std::size_t>(d)];
  return static_cast<std::uint32_t>(bytes);
}

std::string tensor_map_problem(const tensor_map_spec& s) {
  if (s.rank < 1 || s.rank > 5) return fmt::format("rank {} (1 to 5)", s.rank);
  const auto rank = static_cast<std::size_t>(s.rank);
  const std::uint64_t size = element_bytes(s.element);
  if (reinterpret_cast<std::uintptr_t>(s.base) % 16 != 0) {
    return fmt::format("the address {} is not 16-byte aligned", s.base);
  }
  for (std::size_t d = 0; d < rank; ++d) {
    if (s.dims[d] == 0 || s.dims[d] > (std::uint64_t{1} << 32)) {
      return fmt::format("size {} of dimension {} (innermost 0; 1 to 2^32)", s.dims[d], d);
    }
    if (s.box[d] == 0 || s.box[d] > 256) return fmt::format("box size {} in dimension {} (1 to 256)", s.box[d], d);
  }
  for (std::size_t d = 0; d + 1 < rank; ++d) {
    if (s.strides[d] % 16 != 0 || s.strides[d] >= (std::uint64_t{1} << 40)) {
      return fmt::format("stride {} bytes of dimension {} (a multiple of 16, below 2^40)", s.strides[d], d + 1);
    }
  }
  const std::uint64_t box_row = s.box[0] * size;
  if (box_row % 16 != 0) return fmt::format("box rows of {} bytes (a multiple of 16)", box_row);
  const std::uint32_t span = swizzle_span_bytes(s.swizzle);
  if (span != 0 && box_row > span) {
    return fmt::format("box rows of {} bytes, wider than the {}-byte swizzle", box_row, span);
  }
  return "";
}

std::string describe(const tensor_map_spec& s) {
  const int rank = s.rank < 1 || s.rank > 5 ? 0 : s.rank;
  std::string dims, strides, box;
  for (int d = rank - 1; d >= 0; --d) {
    const auto i = static_cast<std::size_t>(d);
    dims += fmt::format("{}{}", dims.empty() ? "" : " x ", s.dims[i]);
    box += fmt::format("{}{}", box.empty() ? "" : " x ", s.box[i]);
    if (d > 0) strides += fmt::format("{}{}", strides.empty() ? "" : ", ", s.strides[i - 1]);
  }
  std::string text = fmt::format("{} tensor of {}", element_name(s.element), dims.empty() ? "rank " + std::to_string(s.rank) : dims);
  if (!strides.empty()) text += fmt::format(" (strides {} bytes)", strides);
  text += fmt::format(", box {}", box);
  if (s.swizzle != tensor_swizzle::none) text += fmt::format(", {}-byte swizzle", swizzle_span_bytes(s.swizzle));
  return text;
}

#if defined(WB_BACKEND_CUDA)

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

CUtensorMapDataType data_type(tensor_element element) {
  switch (element) {
    case tensor_element::u8:
      return CU_TENSOR_MAP_DATA_TYPE_UINT8;
    case tensor_element::u16:
      return CU_TENSOR_MAP_DATA_TYPE_UINT16;
    case tensor_element::u32:
      return CU_TENSOR_MAP_DATA_TYPE_UINT32;
    case tensor_element::i32:
      return CU_TENSOR_MAP_DATA_TYPE_INT32;
    case tensor_element::f16:
      return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    case tensor_element::bf16:
      return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    case tensor_element::f32:
      break;
  }
  return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
}

CUtensorMapSwizzle swizzle_mode(tensor_swizzle swizzle) {
  switch (swizzle) {
    case tensor_swizzle::b32:
      return CU_TENSOR_MAP_SWIZZLE_32B;
    case tensor_swizzle::b64:
      return CU_TENSOR_MAP_SWIZZLE_64B;
    case tensor_swizzle::b128:
      return CU_TENSOR_MAP_SWIZZLE_128B;
    case tensor_swizzle::none:
      break;
  }
  return CU_TENSOR_MAP_SWIZZLE_NONE;
}

CUtensorMapL2promotion l2_mode(tensor_l2_promotion promotion) {
  switch (promotion) {
    case tensor_l2_promotion::b64:
      return CU_TENSOR_MAP_L2_PROMOTION_L2_64B;
    case tensor_l2_promotion::b128:
      return CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
    case tensor_l2_promotion::b256:
      return CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
    case tensor_l2_promotion::none:
      break;
  }
  return CU_TENSOR_MAP_L2_PROMOTION_NONE;
}

}  // namespace

CUtensorMap encode_tensor_map(const tensor_map_spec& s) {
  const std::string problem = tensor_map_problem(s);
  if (!problem.empty()) throw std::runtime_error(fmt::format("tensor map: {}, for a {}", problem, describe(s)));
  CUtensorMap map{};
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], element_strides[5];
  for (std::size_t d = 0; d < 5; ++d) {
    dims[d] = s.dims[d];
    box[d] = s.box[d];
    element_strides[d] = 1;
    if (d < 4) strides[d] = s.strides[d];
  }
  const CUresult r = encode_tiled()(&map, data_type(s.element), static_cast<cuuint32_t>(s.rank), const_cast<void*>(s.base),
                                    dims, strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                    swizzle_mode(s.swizzle), l2_mode(s.l2_promotion), CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    throw std::runtime_error(
        fmt::format("cuTensorMapEncodeTiled failed (CUresult {}) for a {}", static_cast<int>(r), describe(s)));
  }
  return map;
}

#endif  // WB_BACKEND_CUDA

}  // namespace wb
