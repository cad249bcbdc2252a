// Stage 1: through the host. Every GPU copies its vector to pinned host memory, the host adds
// the G vectors, every GPU copies the sum back: 2 (G) n elements cross PCIe, and the host adds
// at the speed of one CPU core. The baseline every later stage removes a piece of.
#include <cstdint>
#include <cstring>

#include "wb/check.hpp"

#include "allreduce.hpp"
#include "element.hpp"
#include "team.hpp"

namespace allreduce::WB_TRACK {

template <class T>
void allreduce_through_host(team& t, const buffers<T>& b) {
  const int G = t.size();
  const auto n = static_cast<std::size_t>(b.n);
  if (n == 0) return;
  const std::size_t bytes = n * sizeof(T);
  // Pinned staging: G vectors in, one sum out (pinned memory is what the copy engines can
  // reach directly; pageable memory would be staged through a driver buffer).
  T* staged = static_cast<T*>(t.host_staging((G + 1) * bytes));
  T* sum = staged + static_cast<std::size_t>(G) * n;

  // Down: each rank's copy on its own stream, after the work queued there before.
  t.for_each_rank([&](int r) {
    WB_CHECK(cudaMemcpyAsync(staged + static_cast<std::size_t>(r) * n, b.in[r], bytes, cudaMemcpyDeviceToHost,
                             t.stream(r)));
  });
  t.for_each_rank([&](int r) { WB_CHECK(cudaStreamSynchronize(t.stream(r))); });

  // Add on the host, in rank order (the specification's order: the same bits).
  std::memcpy(sum, staged, bytes);
  for (int r = 1; r < G; ++r) {
    const T* in = staged + static_cast<std::size_t>(r) * n;
    for (std::size_t i = 0; i < n; ++i) sum[i] = add(sum[i], in[i]);
  }

  // Up: and wait, since `sum` is reused by the next call.
  t.for_each_rank([&](int r) {
    WB_CHECK(cudaMemcpyAsync(b.out[r], sum, bytes, cudaMemcpyHostToDevice, t.stream(r)));
  });
  t.for_each_rank([&](int r) { WB_CHECK(cudaStreamSynchronize(t.stream(r))); });
}

#define INSTANTIATE(T) template void allreduce_through_host<T>(team&, const buffers<T>&);
ALLREDUCE_FOR_EACH_TYPE(INSTANTIATE)
#undef INSTANTIATE

}  // namespace allreduce::WB_TRACK
