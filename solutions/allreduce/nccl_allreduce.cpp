// Stage 5: NCCL, the library a multi-GPU program uses. One communicator per rank (the team
// makes them with ncclCommInitAll: one process drives every GPU), and the ranks' calls inside
// one ncclGroupStart/ncclGroupEnd: a single thread cannot call rank 0's ncclAllReduce and wait
// in it for rank 1's, which it has not made yet. NCCL picks its algorithm (ring, tree) and
// protocol by size and topology; the call only queues the work on each rank's stream.
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "allreduce.hpp"
#include "team.hpp"
#if defined(WB_HAVE_NCCL)
#include "wb/nccl.hpp"
#endif

namespace allreduce::WB_TRACK {

#if defined(WB_HAVE_NCCL)
template <class T>
constexpr ncclDataType_t nccl_type() {
  if constexpr (std::is_same_v<T, std::int32_t>) return ncclInt32;
  if constexpr (std::is_same_v<T, std::int64_t>) return ncclInt64;
  return ncclFloat32;
}
#endif

template <class T>
void allreduce_nccl(team& t, const buffers<T>& b) {
#if defined(WB_HAVE_NCCL)
  for (int r = 0; r < t.size(); ++r) t.nccl(r);  // made before the group (they are not calls of it)
  WB_NCCL_CHECK(ncclGroupStart());
  for (int r = 0; r < t.size(); ++r) {
    WB_NCCL_CHECK(ncclAllReduce(b.in[r], b.out[r], static_cast<std::size_t>(b.n), nccl_type<T>(), ncclSum, t.nccl(r),
                                t.stream(r)));
  }
  WB_NCCL_CHECK(ncclGroupEnd());
#else
  (void)b;
  throw std::runtime_error(t.nccl_unavailable());
#endif
}

#define INSTANTIATE(T) template void allreduce_nccl<T>(team&, const buffers<T>&);
ALLREDUCE_FOR_EACH_TYPE(INSTANTIATE)
#undef INSTANTIATE

}  // namespace allreduce::WB_TRACK
