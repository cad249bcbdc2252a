// Stage 2: reduce to one GPU with peer copies, then broadcast. The host is out of the loop:
// the vectors move GPU to GPU (cudaMemcpyPeerAsync; over NVLink once peer access is enabled,
// which the team does), and events recorded on one GPU's stream make another GPU's stream wait
// (cudaStreamWaitEvent works across devices). Rank 0's link carries everything: (G - 1) n in,
// (G - 1) n out.
#include <cstdint>

#include "wb/kernel.hpp"

#include "allreduce.hpp"
#include "launch_shape.hpp"
#include "team.hpp"
#include "vector_sum.cuh"

namespace allreduce::WB_TRACK {

// out = terms[0] + ... + terms[k - 1], element by element; vectorized when every pointer is
// 16-byte aligned.
template <class T>
__global__ void sum_kernel(pointer_list<T> terms, T* out, std::int64_t n, bool vectorized) {
  // TODO(allreduce/2): a grid-stride loop over the whole 16-byte vectors (when `vectorized`),
  // out[v] = sum_vec(terms, v), then over the elements past the last whole vector with sum_scalar.
}

template <class T>
void sum_vectors(const T* const* terms, int k, T* out, std::int64_t n, cudaStream_t stream) {
  if (n == 0) return;
  if (k < 1 || k > max_ranks) throw std::invalid_argument("sum_vectors: 1 to max_ranks terms");
  pointer_list<T> list;
  bool vectorized = aligned16(out);
  for (int j = 0; j < k; ++j) {
    list.at[j] = terms[j];
    vectorized = vectorized && aligned16(terms[j]);
  }
  list.count = k;
  const std::int64_t items = vectorized ? (n + vec16<T>::width - 1) / vec16<T>::width : n;
  wb::launch({static_cast<unsigned>(sum_blocks(items)), sum_threads, 0, stream}, sum_kernel<T>, list, out, n, vectorized);
}

template <class T>
void allreduce_reduce_broadcast(team& t, const buffers<T>& b) {
  // TODO(allreduce/2): every other rank copies its input into its slot of rank 0's scratch memory
  // (cudaMemcpyPeerAsync on its own stream) once rank 0's stream is ready for it; rank 0 waits for
  // every copy (events across devices), adds [in[0], slot 1, ..., slot G-1] with sum_vectors and
  // says so; every other rank copies the sum back; rank 0's stream goes on only once they have.
}

#define INSTANTIATE(T)                                                                          \
  template void sum_vectors<T>(const T* const*, int, T*, std::int64_t, cudaStream_t);           \
  template void allreduce_reduce_broadcast<T>(team&, const buffers<T>&);
ALLREDUCE_FOR_EACH_TYPE(INSTANTIATE)
#undef INSTANTIATE

}  // namespace allreduce::WB_TRACK
