// The baseline: cub::DeviceMerge (CCCL). Compiled on the cuda backend only; on the cpu
// backend this file is empty (it is listed with the tests, which compile it either way).
#include "baseline_cub.hpp"

#if defined(WB_BACKEND_CUDA)

#include <cub/device/device_merge.cuh>

#include "wb/check.hpp"

namespace merge::baseline {
namespace {

template <class K>
cudaError_t call_cub(const problem<K>& p, void* temp, std::size_t& temp_bytes) {
  if (p.has_values()) {
    return cub::DeviceMerge::MergePairs(temp, temp_bytes, p.A, p.A_val, p.m, p.B, p.B_val, p.n, p.C, p.C_val);
  }
  return cub::DeviceMerge::MergeKeys(temp, temp_bytes, p.A, p.m, p.B, p.n, p.C);
}

}  // namespace

template <class K>
std::size_t cub_temp_bytes(const problem<K>& p) {
  std::size_t bytes = 0;
  WB_CHECK(call_cub(p, nullptr, bytes));
  return bytes;
}

template <class K>
void cub_merge(const problem<K>& p, void* temp, std::size_t temp_bytes) {
  WB_CHECK(call_cub(p, temp, temp_bytes));
  WB_CHECK(cudaGetLastError());
}

#define MERGE_INSTANTIATE(K)                                              \
  template std::size_t cub_temp_bytes<K>(const problem<K>&);             \
  template void cub_merge<K>(const problem<K>&, void*, std::size_t);
MERGE_FOR_EACH_KEY(MERGE_INSTANTIATE)
#undef MERGE_INSTANTIATE

}  // namespace merge::baseline

#endif  // WB_BACKEND_CUDA
