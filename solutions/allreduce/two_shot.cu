// Stage 4, two-shot: the ring's two halves in one kernel, with the links driven by the SMs.
// Shot one, reduce-scatter by peer READS: rank r adds segment r of all G vectors. Shot two,
// all-gather by peer WRITES: rank r stores its summed segment into every rank's output. Each
// rank reads and writes (G - 1) / G n remote elements, like the ring, in one launch.
//
// The writes are plain stores into other GPUs' memory (wb::peer_store): nothing orders them
// before a later flag unless the flag is written with a RELEASE store (or after
// __threadfence_system()). The end barrier's release is what makes rank q's output complete
// when it sees our flag; without it the flag can arrive first, and rank q's next work reads
// an output still missing our segment.
#include <algorithm>
#include <cstdint>

#include "wb/kernel.hpp"
#include "wb/system_scope.hpp"

#include "allreduce.hpp"
#include "launch_shape.hpp"
#include "peer_barrier.cuh"
#include "team.hpp"
#include "vector_sum.cuh"

namespace allreduce::WB_TRACK {

template <class T>
struct two_shot_args {
  pointer_list<T> in;   // every rank's input, in rank order
  pointer_list<T> out;  // every rank's output, in rank order
  rank_flags flags;
  std::int64_t begin, end;  // this rank's segment
  std::uint64_t epoch;
  bool vectorized;
};

template <class T>
__device__ __forceinline__ void store_everywhere(const two_shot_args<T>& a, std::int64_t v, const vec16<T>& sum) {
  for (int q = 0; q < a.out.count; ++q) {
    auto* dst = reinterpret_cast<vec16<T>*>(const_cast<T*>(a.out.at[q])) + v;
    if (q == a.flags.rank) {
      *dst = sum;
    } else {
      wb::peer_store(dst, sum);
    }
  }
}

template <class T>
__global__ void two_shot_kernel(two_shot_args<T> a) {
  barrier_across_ranks(a.flags, 2 * a.epoch - 1);
  const std::int64_t stride = wb::grid_thread_count();
  constexpr int W = vec16<T>::width;
  // The segment starts on a whole vector (segment_align); its whole vectors, then its tail.
  const std::int64_t first_vec = a.begin / W;
  const std::int64_t end_vec = a.vectorized ? a.end / W : first_vec;
  for (std::int64_t v = first_vec + wb::global_thread_index(); v < end_vec; v += stride) {
    store_everywhere(a, v, sum_vec(a.in, v));
  }
  for (std::int64_t i = end_vec * W + wb::global_thread_index(); i < a.end; i += stride) {
    const T sum = sum_scalar(a.in, i);
    for (int q = 0; q < a.out.count; ++q) {
      T* dst = const_cast<T*>(a.out.at[q]) + i;
      if (q == a.flags.rank) {
        *dst = sum;
      } else {
        wb::peer_store(dst, sum);
      }
    }
  }
  barrier_across_ranks(a.flags, 2 * a.epoch);  // release: our segment is in every output
}

template <class T>
void allreduce_two_shot(team& t, const buffers<T>& b, const config& cfg) {
  if (b.n == 0) return;
  if (!t.peer_access()) throw std::runtime_error("stage 4 needs peer access between every two GPUs of the team");
  const int G = t.size();
  const config c = resolve(cfg, b.n, sizeof(T), G);
  two_shot_args<T> a{};
  a.in.count = a.out.count = G;
  a.flags.ranks = G;
  a.epoch = t.next_epoch();
  a.vectorized = true;
  std::int64_t longest = 0;
  for (int r = 0; r < G; ++r) {
    a.in.at[r] = b.in[r];
    a.out.at[r] = b.out[r];
    a.flags.of[r] = t.flags(r);
    a.vectorized = a.vectorized && aligned16(b.in[r]) && aligned16(b.out[r]);
    longest = std::max(longest, part_begin(r + 1, G, b.n, segment_align) - part_begin(r, G, b.n, segment_align));
  }
  const std::int64_t items = a.vectorized ? (longest + vec16<T>::width - 1) / vec16<T>::width : longest;
  const int blocks = direct_blocks(t, c, items);  // the same on every rank: blocks meet by number
  t.for_each_rank([&](int r) {
    two_shot_args<T> mine = a;
    mine.flags.rank = r;
    mine.begin = part_begin(r, G, b.n, segment_align);
    mine.end = part_begin(r + 1, G, b.n, segment_align);
    wb::launch({static_cast<unsigned>(blocks), static_cast<unsigned>(c.threads), 0, t.stream(r)}, two_shot_kernel<T>,
               mine);
  });
}

#define INSTANTIATE(T) template void allreduce_two_shot<T>(team&, const buffers<T>&, const config&);
ALLREDUCE_FOR_EACH_TYPE(INSTANTIATE)
#undef INSTANTIATE

}  // namespace allreduce::WB_TRACK
