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
  const std::int64_t stride = wb::grid_thread_count();
  const std::int64_t vectors = vectorized ? n / vec16<T>::width : 0;
  for (std::int64_t v = wb::global_thread_index(); v < vectors; v += stride) {
    reinterpret_cast<vec16<T>*>(out)[v] = sum_vec(terms, v);
  }
  for (std::int64_t i = vectors * vec16<T>::width + wb::global_thread_index(); i < n; i += stride) {
    out[i] = sum_scalar(terms, i);
  }
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
  const int G = t.size();
  constexpr int root = 0;
  if (b.n == 0) return;
  const std::size_t bytes = static_cast<std::size_t>(b.n) * sizeof(T);
  // Rank 0's events: 0 "ready to receive", 1 "sum written". Rank r's: 2 "sent", 3 "fetched".
  enum : int { ready = 0, summed = 1, sent = 2, fetched = 3 };

  // Rank 0's scratch holds one slot per other rank (256-byte aligned, like cudaMalloc).
  const std::size_t slot_bytes = (bytes + 255) / 256 * 256;
  auto* slots = static_cast<unsigned char*>(t.scratch(root, slot_bytes * static_cast<std::size_t>(G)));
  auto slot = [&](int r) { return reinterpret_cast<T*>(slots + static_cast<std::size_t>(r) * slot_bytes); };

  // 1. Rank 0 may receive once its stream has reached this all-reduce (its previous sum read
  //    the slots).
  {
    device_scope on(t.device(root));
    WB_CHECK(cudaEventRecord(t.event(root, ready), t.stream(root)));
  }
  // 2. Every other rank sends its vector into its slot, on its own stream (after its input is
  //    written), and says so.
  for (int r = 0; r < G; ++r) {
    if (r == root) continue;
    device_scope on(t.device(r));
    WB_CHECK(cudaStreamWaitEvent(t.stream(r), t.event(root, ready), 0));
    WB_CHECK(cudaMemcpyPeerAsync(slot(r), t.device(root), b.in[r], t.device(r), bytes, t.stream(r)));
    WB_CHECK(cudaEventRecord(t.event(r, sent), t.stream(r)));
  }
  // 3. Rank 0 waits for every vector, then adds them in rank order.
  {
    device_scope on(t.device(root));
    std::vector<const T*> terms(static_cast<std::size_t>(G));
    for (int r = 0; r < G; ++r) {
      terms[static_cast<std::size_t>(r)] = r == root ? b.in[root] : slot(r);
      if (r != root) WB_CHECK(cudaStreamWaitEvent(t.stream(root), t.event(r, sent), 0));
    }
    sum_vectors(terms.data(), G, b.out[root], b.n, t.stream(root));
    WB_CHECK(cudaEventRecord(t.event(root, summed), t.stream(root)));
  }
  // 4. Every other rank fetches the sum once it is written.
  for (int r = 0; r < G; ++r) {
    if (r == root) continue;
    device_scope on(t.device(r));
    WB_CHECK(cudaStreamWaitEvent(t.stream(r), t.event(root, summed), 0));
    WB_CHECK(cudaMemcpyPeerAsync(b.out[r], t.device(r), b.out[root], t.device(root), bytes, t.stream(r)));
    WB_CHECK(cudaEventRecord(t.event(r, fetched), t.stream(r)));
  }
  // 5. Rank 0's next work may overwrite out[0] only once nobody reads it any more.
  device_scope on(t.device(root));
  for (int r = 0; r < G; ++r) {
    if (r != root) WB_CHECK(cudaStreamWaitEvent(t.stream(root), t.event(r, fetched), 0));
  }
}

#define INSTANTIATE(T)                                                                          \
  template void sum_vectors<T>(const T* const*, int, T*, std::int64_t, cudaStream_t);           \
  template void allreduce_reduce_broadcast<T>(team&, const buffers<T>&);
ALLREDUCE_FOR_EACH_TYPE(INSTANTIATE)
#undef INSTANTIATE

}  // namespace allreduce::WB_TRACK
