// Stage 5's host side, the same for both tracks: the kernels of kernel.cuh (or, compiled for a
// target without wgmma, kernels that trap), the tensor maps of K and V, the launch and the
// checks before it, and attention_hopper() itself.
// Included by: solutions/attention/hopper/hopper.cu and exercises/attention/hopper/hopper.cu, at
// their end, after each has named the shapes it launches (hopper::d64, hopper::d128).
// Launches: attention_hopper_kernel<S> (kernel.cuh).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "attention.hpp"
#include "launch_shapes.hpp"
#include "wb/kernel.hpp"

#if defined(WB_BACKEND_CUDA)
#include <cuda.h>

#include "hopper/shape.cuh"
#include "wb/check.hpp"
#include "wb/device_info.hpp"
#include "wb/tensor_map.hpp"
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
namespace attention::WB_TRACK::hopper {
// Compiled for a target without wgmma: never launched (the host asks built_for_sm90a first).
template <class S>
__global__ void __launch_bounds__(S::THREADS, 1)
    attention_hopper_kernel(const __grid_constant__ CUtensorMap, const __grid_constant__ CUtensorMap, const float*,
                            float*, dims, float, std::int64_t, bool, bool) {
  __trap();
}
__device__ int built_for_sm90a = 0;
}  // namespace attention::WB_TRACK::hopper
#else
#include "hopper/kernel.cuh"
namespace attention::WB_TRACK::hopper {
// 1 in the machine code built for sm_90a: the host reads the copy in the code the driver loaded.
__device__ int built_for_sm90a = 1;
}  // namespace attention::WB_TRACK::hopper
#endif
#endif

namespace attention::WB_TRACK {

#if defined(WB_BACKEND_CUDA)
namespace hopper {

// A tensor map of K or V: d x kv_seq x (batch * heads) bf16, boxes of 64 columns x BN keys, the
// 128-byte swizzle wgmma reads. Built once per problem (timed runs repeat one problem).
template <class S>
CUtensorMap kv_map(const bf16* base, const dims& d) {
  const std::uint64_t row_bytes = static_cast<std::uint64_t>(d.dim) * sizeof(bf16);
  return wb::encode_tensor_map(wb::tensor_map_3d(base, wb::tensor_element::bf16,
                                                 static_cast<std::uint64_t>(d.batch * d.heads),
                                                 static_cast<std::uint64_t>(d.kv_seq), static_cast<std::uint64_t>(d.dim),
                                                 row_bytes, row_bytes * static_cast<std::uint64_t>(d.kv_seq), 1, S::BN,
                                                 64, wb::tensor_swizzle::b128, wb::tensor_l2_promotion::b256));
}

template <class S>
void launch(const problem<bf16>& p) {
  const dims& d = p.d;
  struct cached {
    const bf16* K = nullptr;
    const bf16* V = nullptr;
    dims d{};
    CUtensorMap map_K{}, map_V{};
  };
  static cached last;
  const auto same = [](const dims& a, const dims& b) {
    return a.batch == b.batch && a.heads == b.heads && a.kv_seq == b.kv_seq && a.dim == b.dim;
  };
  if (last.K != p.K || last.V != p.V || !same(last.d, d)) {
    last.map_K = kv_map<S>(p.K, d);
    last.map_V = kv_map<S>(p.V, d);
    last.K = p.K;
    last.V = p.V;
    last.d = d;
  }
  const std::int64_t query_tiles = wb::ceil_div(d.seq, std::int64_t{S::BLOCK_QUERIES});
  const std::int64_t items = d.batch * d.heads * query_tiles;
  const unsigned blocks = grid_of(S::PERSISTENT ? std::min<std::int64_t>(items, wb::multiprocessor_count()) : items,
                                  "stage 5");
  const float scale_log2 = softmax_scale(d.dim) * 1.4426950408889634f;  // exp(x) = exp2(x log2 e)
  const bool vector_q = reinterpret_cast<std::uintptr_t>(p.Q) % 16 == 0;
  const bool pairs_o = reinterpret_cast<std::uintptr_t>(p.O) % 8 == 0;
  wb::launch({dim3(blocks), dim3(S::THREADS), S::SHARED_BYTES}, attention_hopper_kernel<S>, last.map_K, last.map_V,
             p.Q, p.O, d, scale_log2, query_tiles, vector_q, pairs_o);
}

// wgmma and setmaxnreg exist on compute capability 9.0 exactly, and in machine code built for
// sm_90a (-gencode=arch=compute_90a,code=sm_90a): a build for plain sm_90 has kernels that trap.
inline void require_sm90() {
  int device = 0, major = 0, minor = 0;
  WB_CHECK(cudaGetDevice(&device));
  WB_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  WB_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  if (major != 9 || minor != 0) {
    throw wb::stage_refused("stage 5 needs an sm_90 GPU (H100, H200: TMA, wgmma, setmaxnreg); this one is sm_" +
                            std::to_string(major) + std::to_string(minor));
  }
  static const int built = [] {  // once: a copy from the device waits for the work queued before it
    int b = 0;
    WB_CHECK(cudaMemcpyFromSymbol(&b, built_for_sm90a, sizeof b));
    return b;
  }();
  if (built != 1) {
    throw wb::stage_refused("stage 5 was compiled without sm_90a (-gencode=arch=compute_90a,code=sm_90a): "
                            "its kernels have no wgmma");
  }
}

}  // namespace hopper
#endif

void attention_hopper(const problem<bf16>& p) {
  const dims& d = p.d;
  validate(d, "stage 5");
  if (d.dim != 64 && d.dim != 128) {
    throw std::invalid_argument("stage 5: d = " + std::to_string(d.dim) +
                                ": this stage takes d = 64 or 128 (a kernel for each)");
  }
#if !defined(WB_BACKEND_CUDA)
  throw wb::stage_refused("stage 5 needs an sm_90 GPU (the cpu backend emulates no TMA, mbarrier or wgmma)");
#else
  if (query_rows(d) == 0) return;
  const auto aligned16 = [](const void* q) { return reinterpret_cast<std::uintptr_t>(q) % 16 == 0; };
  if (!aligned16(p.K) || !aligned16(p.V)) {
    throw std::invalid_argument("stage 5: K and V must start on 16-byte boundaries (the TMA reads 16-byte units)");
  }
  hopper::require_sm90();
  if (d.dim == 64) {
    hopper::launch<hopper::d64>(p);
  } else {
    hopper::launch<hopper::d128>(p);
  }
#endif
}

}  // namespace attention::WB_TRACK
