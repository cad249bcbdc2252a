// Stage 4, one-shot: every rank's kernel reads all G vectors straight from the other GPUs'
// memory (peer access: a load from a peer's address crosses NVLink) and adds them. One
// launch, no copies, no host in the loop: the fastest all-reduce for small vectors, where
// latency rules. Each rank reads (G - 1) n remote elements, against the ring's 2 (G - 1) / G n:
// for large vectors the links, not the latency, decide.
//
// Two barriers across the ranks (peer_barrier.cuh): before reading, so that every rank's input
// is written (its stream has reached the kernel); after, so that no rank goes on to overwrite
// its input while another still reads it.
#include <cstdint>

#include "wb/kernel.hpp"

#include "allreduce.hpp"
#include "launch_shape.hpp"
#include "peer_barrier.cuh"
#include "team.hpp"
#include "vector_sum.cuh"

namespace allreduce::WB_TRACK {

template <class T>
struct one_shot_args {
  pointer_list<T> in;  // every rank's input, in rank order
  T* out;              // this rank's output
  rank_flags flags;
  std::int64_t n;
  std::uint64_t epoch;  // this call's number: the barriers wait for 2 epoch - 1, then 2 epoch
  bool vectorized;
};

template <class T>
__global__ void one_shot_kernel(one_shot_args<T> a) {
  // TODO(allreduce/4): meet the other ranks (barrier value 2 epoch - 1), add every rank's input
  // at this thread's positions straight from their memory (sum_vec, sum_scalar) into this rank's
  // output, and meet them again (2 epoch) before anyone may overwrite an input.
}

template <class T>
void allreduce_one_shot(team& t, const buffers<T>& b, const config& cfg) {
  if (b.n == 0) return;
  if (!t.peer_access()) throw std::runtime_error("stage 4 needs peer access between every two GPUs of the team");
  const int G = t.size();
  const config c = resolve(cfg, b.n, sizeof(T), G);
  one_shot_args<T> a{};
  a.in.count = G;
  a.flags.ranks = G;
  a.n = b.n;
  a.epoch = t.next_epoch();
  a.vectorized = true;
  for (int r = 0; r < G; ++r) {
    a.in.at[r] = b.in[r];
    a.flags.of[r] = t.flags(r);
    a.vectorized = a.vectorized && aligned16(b.in[r]) && aligned16(b.out[r]);
  }
  const std::int64_t items = a.vectorized ? (b.n + vec16<T>::width - 1) / vec16<T>::width : b.n;
  const int blocks = direct_blocks(t, c, items);
  t.for_each_rank([&](int r) {
    one_shot_args<T> mine = a;
    mine.out = b.out[r];
    mine.flags.rank = r;
    wb::launch({static_cast<unsigned>(blocks), static_cast<unsigned>(c.threads), 0, t.stream(r)}, one_shot_kernel<T>,
               mine);
  });
}

#define INSTANTIATE(T) template void allreduce_one_shot<T>(team&, const buffers<T>&, const config&);
ALLREDUCE_FOR_EACH_TYPE(INSTANTIATE)
#undef INSTANTIATE

}  // namespace allreduce::WB_TRACK
