// The pitfalls of stages 2, 3 and 4 (defective_variants.hpp). Self-contained: its own kernels, so
// the checks of the pitfalls do not depend on the track under test.
#include "defective_variants.hpp"

#include <vector>

#include "wb/kernel.hpp"
#include "wb/system_scope.hpp"

namespace allreduce::defective {
namespace {

__global__ void add_into(const std::int32_t* a, const std::int32_t* b, std::int32_t* out, std::int64_t n) {
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    out[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(a[i]) + static_cast<std::uint32_t>(b[i]));
  }
}

struct terms {
  const std::int32_t* at[max_ranks];
  int count;
};

__global__ void sum_terms(terms t, std::int32_t* out, std::int64_t n) {
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    std::uint32_t sum = 0;
    for (int k = 0; k < t.count; ++k) sum += static_cast<std::uint32_t>(t.at[k][i]);
    out[i] = static_cast<std::int32_t>(sum);
  }
}

struct views {
  const std::int32_t* in[max_ranks];
  std::int32_t* out[max_ranks];
  std::uint64_t* flags[max_ranks];
  int ranks, rank;
  std::int64_t n, begin, end;
  std::uint64_t epoch;
};

__device__ void barrier(const views& v, std::uint64_t value, bool release) {
  __syncthreads();
  const int q = static_cast<int>(threadIdx.x);
  if (q < v.ranks && q != v.rank) {
    if (release) {
      wb::sys::store_release(v.flags[q] + blockIdx.x * max_ranks + v.rank, value);
    } else {
      wb::sys::store_relaxed(v.flags[q] + blockIdx.x * max_ranks + v.rank, value);  // the pitfall
    }
    wb::sys::wait_at_least(v.flags[v.rank] + blockIdx.x * max_ranks + q, value);
  }
  __syncthreads();
}

__global__ void two_shot_kernel(views v, bool release) {
  barrier(v, 2 * v.epoch - 1, true);
  for (std::int64_t i = v.begin + threadIdx.x; i < v.end; i += blockDim.x) {
    std::uint32_t sum = 0;
    for (int q = 0; q < v.ranks; ++q) sum += static_cast<std::uint32_t>(v.in[q][i]);
    for (int q = 0; q < v.ranks; ++q) {
      if (q == v.rank) {
        v.out[q][i] = static_cast<std::int32_t>(sum);
      } else {
        wb::peer_store(v.out[q] + i, static_cast<std::int32_t>(sum));
      }
    }
  }
  barrier(v, 2 * v.epoch, release);
}

__global__ void one_shot_kernel(views v, bool end_barrier) {
  barrier(v, 2 * v.epoch - 1, true);
  for (std::int64_t i = threadIdx.x; i < v.n; i += blockDim.x) {
    std::uint32_t sum = 0;
    for (int q = 0; q < v.ranks; ++q) sum += static_cast<std::uint32_t>(v.in[q][i]);
    v.out[v.rank][i] = static_cast<std::int32_t>(sum);
  }
  if (end_barrier) barrier(v, 2 * v.epoch, true);
}

views make_views(team& t, const buffers<std::int32_t>& b) {
  views v{};
  v.ranks = t.size();
  v.n = b.n;
  v.epoch = t.next_epoch();
  for (int r = 0; r < t.size(); ++r) {
    v.in[r] = b.in[r];
    v.out[r] = b.out[r];
    v.flags[r] = t.flags(r);
  }
  return v;
}

}  // namespace

void reduce_broadcast(team& t, const buffers<std::int32_t>& b, bool wait_for_fetched) {
  const int G = t.size();
  const std::size_t bytes = static_cast<std::size_t>(b.n) * 4, slot_bytes = (bytes + 255) / 256 * 256;
  auto* slots = static_cast<unsigned char*>(t.scratch(0, slot_bytes * static_cast<std::size_t>(G)));
  auto slot = [&](int r) { return reinterpret_cast<std::int32_t*>(slots + static_cast<std::size_t>(r) * slot_bytes); };
  enum : int { ready = 0, summed = 1, sent = 2, fetched = 3 };
  {
    device_scope on(t.device(0));
    WB_CHECK(cudaEventRecord(t.event(0, ready), t.stream(0)));
  }
  for (int r = 1; r < G; ++r) {
    device_scope on(t.device(r));
    WB_CHECK(cudaStreamWaitEvent(t.stream(r), t.event(0, ready), 0));
    WB_CHECK(cudaMemcpyPeerAsync(slot(r), t.device(0), b.in[r], t.device(r), bytes, t.stream(r)));
    WB_CHECK(cudaEventRecord(t.event(r, sent), t.stream(r)));
  }
  {
    device_scope on(t.device(0));
    terms list{};
    list.count = G;
    list.at[0] = b.in[0];
    for (int r = 1; r < G; ++r) {
      list.at[r] = slot(r);
      WB_CHECK(cudaStreamWaitEvent(t.stream(0), t.event(r, sent), 0));
    }
    wb::launch({1, 64, 0, t.stream(0)}, sum_terms, list, b.out[0], b.n);
    WB_CHECK(cudaEventRecord(t.event(0, summed), t.stream(0)));
  }
  for (int r = 1; r < G; ++r) {
    device_scope on(t.device(r));
    WB_CHECK(cudaStreamWaitEvent(t.stream(r), t.event(0, summed), 0));
    WB_CHECK(cudaMemcpyPeerAsync(b.out[r], t.device(r), b.out[0], t.device(0), bytes, t.stream(r)));
    WB_CHECK(cudaEventRecord(t.event(r, fetched), t.stream(r)));
  }
  device_scope on(t.device(0));
  for (int r = 1; r < G && wait_for_fetched; ++r) {  // the pitfall: without these waits
    WB_CHECK(cudaStreamWaitEvent(t.stream(0), t.event(r, fetched), 0));
  }
}

void ring(team& t, const buffers<std::int32_t>& b, bool wait_for_arrival) {
  const int G = t.size();
  auto seg = [&](int s) { return part_begin(s, G, b.n, segment_align); };
  std::vector<std::int32_t*> slot(static_cast<std::size_t>(G));
  for (int r = 0; r < G; ++r) slot[static_cast<std::size_t>(r)] = static_cast<std::int32_t*>(t.scratch(r, static_cast<std::size_t>(b.n) * 4 + 16));
  enum : int { started = 0, arrived = 1, added = 2, done = 3 };
  t.for_each_rank([&](int r) { WB_CHECK(cudaEventRecord(t.event(r, started), t.stream(r))); });
  t.for_each_rank([&](int r) {
    for (int q = 0; q < G; ++q) {
      WB_CHECK(cudaStreamWaitEvent(t.compute_stream(r), t.event(q, started), 0));
      WB_CHECK(cudaStreamWaitEvent(t.copy_stream(r), t.event(q, started), 0));
    }
  });
  for (int phase = 0; phase < 2; ++phase) {
    for (int step = 0; step + 1 < G; ++step) {
      for (int r = 0; r < G; ++r) {  // waits first
        device_scope on(t.device(r));
        if (phase == 0 && step > 0) WB_CHECK(cudaStreamWaitEvent(t.copy_stream(r), t.event(r, added), 0));
        if (phase == 1 && step == 0) WB_CHECK(cudaStreamWaitEvent(t.copy_stream(r), t.event(r, added), 0));
        if (phase == 1 && step > 0) WB_CHECK(cudaStreamWaitEvent(t.copy_stream(r), t.event((r + G - 1) % G, arrived), 0));
      }
      for (int r = 0; r < G; ++r) {  // copies
        device_scope on(t.device(r));
        const int to = (r + 1) % G;
        const int s = phase == 0 ? ((r - step) % G + G) % G : ((r + 1 - step) % G + G) % G;
        const std::int64_t begin = seg(s), len = seg(s + 1) - seg(s);
        if (len == 0) continue;
        const std::int32_t* src = (phase == 0 && step == 0 ? b.in[r] : b.out[r]) + begin;
        std::int32_t* dst = phase == 0 ? slot[static_cast<std::size_t>(to)] + begin : b.out[to] + begin;
        WB_CHECK(cudaMemcpyPeerAsync(dst, t.device(to), src, t.device(r), static_cast<std::size_t>(len) * 4, t.copy_stream(r)));
        WB_CHECK(cudaEventRecord(t.event(r, arrived), t.copy_stream(r)));
      }
      if (phase == 1) continue;
      for (int r = 0; r < G; ++r) {  // additions at the receivers
        const int to = (r + 1) % G;
        device_scope on(t.device(to));
        const int s = ((r - step) % G + G) % G;
        const std::int64_t begin = seg(s), len = seg(s + 1) - seg(s);
        if (wait_for_arrival) WB_CHECK(cudaStreamWaitEvent(t.compute_stream(to), t.event(r, arrived), 0));
        if (len > 0) {
          wb::launch({1, 64, 0, t.compute_stream(to)}, add_into, b.in[to] + begin,
                     static_cast<const std::int32_t*>(slot[static_cast<std::size_t>(to)] + begin), b.out[to] + begin, len);
        }
        WB_CHECK(cudaEventRecord(t.event(to, added), t.compute_stream(to)));
      }
    }
  }
  t.for_each_rank([&](int r) {
    WB_CHECK(cudaEventRecord(t.event(r, done), t.compute_stream(r)));
    WB_CHECK(cudaEventRecord(t.event(r, done + 1), t.copy_stream(r)));
  });
  t.for_each_rank([&](int r) {
    for (int q = 0; q < G; ++q) {
      WB_CHECK(cudaStreamWaitEvent(t.stream(r), t.event(q, done), 0));
      WB_CHECK(cudaStreamWaitEvent(t.stream(r), t.event(q, done + 1), 0));
    }
  });
}

void two_shot(team& t, const buffers<std::int32_t>& b, bool release) {
  const views base = make_views(t, b);
  t.for_each_rank([&](int r) {
    views v = base;
    v.rank = r;
    v.begin = part_begin(r, t.size(), b.n, segment_align);
    v.end = part_begin(r + 1, t.size(), b.n, segment_align);
    wb::launch({1, 64, 0, t.stream(r)}, two_shot_kernel, v, release);
  });
}

void one_shot(team& t, const buffers<std::int32_t>& b, bool end_barrier) {
  const views base = make_views(t, b);
  t.for_each_rank([&](int r) {
    views v = base;
    v.rank = r;
    wb::launch({1, 64, 0, t.stream(r)}, one_shot_kernel, v, end_barrier);
  });
}

}  // namespace allreduce::defective
