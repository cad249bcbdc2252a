// ncclAllReduce as the report's baseline row (baseline_nccl.hpp).
#include "baseline_nccl.hpp"

#include <cstdint>
#include <type_traits>

#include "wb/nccl.hpp"

#include "team.hpp"

namespace allreduce::baseline {

template <class T>
void nccl_allreduce(team& t, const buffers<T>& b) {
  ncclDataType_t type = ncclFloat32;
  if constexpr (std::is_same_v<T, std::int32_t>) type = ncclInt32;
  if constexpr (std::is_same_v<T, std::int64_t>) type = ncclInt64;
  for (int r = 0; r < t.size(); ++r) t.nccl(r);
  WB_NCCL_CHECK(ncclGroupStart());
  for (int r = 0; r < t.size(); ++r) {
    WB_NCCL_CHECK(ncclAllReduce(b.in[r], b.out[r], static_cast<std::size_t>(b.n), type, ncclSum, t.nccl(r), t.stream(r)));
  }
  WB_NCCL_CHECK(ncclGroupEnd());
}

#define INSTANTIATE(T) template void nccl_allreduce<T>(team&, const buffers<T>&);
ALLREDUCE_FOR_EACH_TYPE(INSTANTIATE)
#undef INSTANTIATE

}  // namespace allreduce::baseline
