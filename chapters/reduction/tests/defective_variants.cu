// Deliberately defective variants of this chapter's kernels (see defective_variants.hpp).
// Each kernel below is a copy of a stage kernel from solutions/reduction/ with one mutation,
// marked "DEFECT Rn".
#include "defective_variants.hpp"

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "block_reduce_unrolled.cuh"  // the track's (solution or exercise) pieces
#include "warp_reduce_sync.cuh"
#include "wb/device_buffer.hpp"
#include "wb/kernel.hpp"

namespace reduction::defective {

namespace {

// Runs `kernel` as both passes of a two-pass reduction and returns the sum.
template <class S>
std::int64_t run_two_pass(void (*pass1)(S*, const std::int32_t*, std::int64_t), void (*pass2)(S*, const S*, std::int64_t),
                          const std::vector<std::int32_t>& data, int block, std::int64_t blocks) {
  wb::device_buffer<std::int32_t> d_in(data);
  wb::device_buffer<S> d_partials(static_cast<std::size_t>(blocks));
  wb::device_buffer<S> d_out(1);
  d_out.fill_bytes(0xA5);
  const std::size_t shared = static_cast<std::size_t>(block) * sizeof(S);
  wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(block), shared}, pass1, d_partials.data(), d_in.data(),
             static_cast<std::int64_t>(data.size()));
  wb::launch({dim3(1), dim3(block), shared}, pass2, d_out.data(), static_cast<const S*>(d_partials.data()), blocks);
  WB_CHECK(cudaDeviceSynchronize());
  return static_cast<std::int64_t>(d_out.to_host()[0]);
}

// ---- R1 ------------------------------------------------------------------------------
template <class T, class S>
__global__ void two_pass_kernel_r1(S* out, const T* in, std::int64_t n) {
  S* partials = wb::dynamic_shared<S>();
  const int tid = threadIdx.x;
  S sum = 0;
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) sum += in[i];
  partials[tid] = sum;
  __syncthreads();
  // DEFECT R1: the step `active >= 1` compares and throws the result away; `active` never
  // changes. The watchdog (not in the book) ends the loop after 2 log2(block) + 2 rounds.
  const int watchdog = 2 * 10 + 2;
  int rounds = 0;
  for (int active = blockDim.x >> 1; active && rounds < watchdog; (void)(active >= 1), ++rounds) {
    if (tid < active) partials[tid] += partials[tid + active];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partials[0];
}

// ---- R2 (the kernel is stage 1's; the defect is in the host code) ------------------------
template <class T, class S>
__global__ void two_pass_kernel(S* out, const T* in, std::int64_t n) {
  S* partials = wb::dynamic_shared<S>();
  const int tid = threadIdx.x;
  S sum = 0;
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) sum += in[i];
  partials[tid] = sum;
  __syncthreads();
  for (int active = blockDim.x >> 1; active > 0; active >>= 1) {
    if (tid < active) partials[tid] += partials[tid + active];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partials[0];
}

// ---- R3 ------------------------------------------------------------------------------
template <class T, class S>
__global__ void warp_synchronous_kernel_r3(S* out, const T* in, std::int64_t n) {
  S* partials = wb::dynamic_shared<S>();
  const int tid = threadIdx.x;
  S sum = 0;
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) sum += in[i];
  partials[tid] = sum;
  __syncthreads();
  for (int active = blockDim.x >> 1; active > 32; active >>= 1) {
    if (tid < active) partials[tid] += partials[tid + active];
    __syncthreads();
  }
  // DEFECT R3: listing 12-2's tail. No __syncwarp(): it relies on the warp's lanes running
  // each statement together, which nothing guarantees since Volta. (Also R4 for 32 threads.)
  if (tid < 32) {
    volatile S* ws = partials;
    if (blockDim.x > 32) ws[tid] = ws[tid] + ws[tid + 32];
    ws[tid] = ws[tid] + ws[tid + 16];
    ws[tid] = ws[tid] + ws[tid + 8];
    ws[tid] = ws[tid] + ws[tid + 4];
    ws[tid] = ws[tid] + ws[tid + 2];
    ws[tid] = ws[tid] + ws[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = partials[0];
}

// ---- R5 ------------------------------------------------------------------------------
// DEFECT R5: the per-thread and per-block sums are 32-bit, as in listing 12-1 (`int sum`,
// `int *out`). Added as unsigned so the wrap is defined behaviour on the cpu backend too;
// the bits are those of the GPU's wrapping int adds.
__device__ __forceinline__ std::int32_t add_wrapping(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
__global__ void two_pass_kernel_r5(std::int32_t* out, const std::int32_t* in, std::int64_t n) {
  std::int32_t* partials = wb::dynamic_shared<std::int32_t>();
  const int tid = threadIdx.x;
  std::int32_t sum = 0;
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) sum = add_wrapping(sum, in[i]);
  partials[tid] = sum;
  __syncthreads();
  for (int active = blockDim.x >> 1; active > 0; active >>= 1) {
    if (tid < active) partials[tid] = add_wrapping(partials[tid], partials[tid + active]);
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partials[0];
}

// ---- R4 ------------------------------------------------------------------------------
// A view of the partials that counts every access at or past `size`. The storage behind it
// is twice as long, so the counted accesses stay inside the allocation.
struct counting_partials {
  std::int64_t* data;
  int size;
  unsigned* accesses_past_end;
  __device__ std::int64_t& operator[](int i) const {
    if (i >= size) atomicAdd(accesses_past_end, 1u);
    return data[i];
  }
};

// DEFECT R4: warp_tail_sum without its lane guard: every lane reads partials[lane + offset]
// at every step (read, __syncwarp, write, so it is race-free: only R4 is left).
template <class Partials>
__device__ void warp_tail_unguarded(Partials partials, int lane, int block_threads) {
  for (int offset = block_threads >= 64 ? 32 : 16; offset > 0; offset >>= 1) {
    const std::int64_t other = partials[lane + offset];
    __syncwarp();
    partials[lane] += other;
    __syncwarp();
  }
}

struct unguarded_tail {
  __device__ void operator()(counting_partials p, int tid, int block) const {
    if (tid < 32) warp_tail_unguarded(p, tid, block);
  }
};
struct track_warp_tail {
  __device__ void operator()(counting_partials p, int tid, int block) const {
    if (tid < 32) ::reduction::WB_TRACK::warp_tail_sum(p, tid, block);
  }
};
template <int kThreads>
struct track_unrolled_tail {
  __device__ void operator()(counting_partials p, int tid, int) const {
    ::reduction::WB_TRACK::block_sum_unrolled<kThreads>(p, tid);
  }
};

template <class Tail>
__global__ void tail_probe_kernel(std::int64_t* out, unsigned* accesses_past_end, Tail tail) {
  std::int64_t* storage = wb::dynamic_shared<std::int64_t>();  // 2 * blockDim.x items
  const int tid = threadIdx.x;
  storage[tid] = tid + 1;
  storage[tid + blockDim.x] = 1000000;  // what happens to lie past the array
  __syncthreads();
  tail(counting_partials{storage, static_cast<int>(blockDim.x), accesses_past_end}, tid, static_cast<int>(blockDim.x));
  __syncthreads();
  if (tid == 0) *out = storage[0];
}

template <class Tail>
tail_probe probe(int block, Tail tail) {
  wb::device_buffer<std::int64_t> d_out(1);
  wb::device_buffer<unsigned> d_count(1);
  d_out.fill_bytes(0xA5);
  d_count.fill_bytes(0);
  wb::launch({dim3(1), dim3(block), 2 * static_cast<std::size_t>(block) * sizeof(std::int64_t)},
             tail_probe_kernel<Tail>, d_out.data(), d_count.data(), tail);
  WB_CHECK(cudaDeviceSynchronize());
  return {d_out.to_host()[0], d_count.to_host()[0]};
}

}  // namespace

std::int64_t two_pass_r1(const std::vector<std::int32_t>& data, int block, std::int64_t blocks) {
  return run_two_pass<std::int64_t>(two_pass_kernel_r1<std::int32_t, std::int64_t>,
                                    two_pass_kernel_r1<std::int64_t, std::int64_t>, data, block, blocks);
}

std::int64_t two_pass_r2(const std::vector<std::int32_t>& data, int block, std::int64_t blocks) {
  // DEFECT R2: no validate(cfg) before the launches.
  return run_two_pass<std::int64_t>(two_pass_kernel<std::int32_t, std::int64_t>,
                                    two_pass_kernel<std::int64_t, std::int64_t>, data, block, blocks);
}

std::int64_t warp_synchronous_r3(const std::vector<std::int32_t>& data, int block, std::int64_t blocks) {
  return run_two_pass<std::int64_t>(warp_synchronous_kernel_r3<std::int32_t, std::int64_t>,
                                    warp_synchronous_kernel_r3<std::int64_t, std::int64_t>, data, block, blocks);
}

std::int64_t warp_synchronous_r3_one_block(const std::vector<std::int32_t>& data, int block) {
  wb::device_buffer<std::int32_t> d_in(data);
  wb::device_buffer<std::int64_t> d_out(1);
  d_out.fill_bytes(0xA5);
  wb::launch({dim3(1), dim3(block), static_cast<std::size_t>(block) * sizeof(std::int64_t)},
             warp_synchronous_kernel_r3<std::int32_t, std::int64_t>, d_out.data(), d_in.data(),
             static_cast<std::int64_t>(data.size()));
  WB_CHECK(cudaDeviceSynchronize());
  return d_out.to_host()[0];
}

std::int64_t two_pass_r5(const std::vector<std::int32_t>& data, int block, std::int64_t blocks) {
  wb::device_buffer<std::int32_t> d_in(data);
  wb::device_buffer<std::int32_t> d_partials(static_cast<std::size_t>(blocks));
  wb::device_buffer<std::int32_t> d_out(1);
  const std::size_t shared = static_cast<std::size_t>(block) * sizeof(std::int32_t);
  wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(block), shared}, two_pass_kernel_r5, d_partials.data(),
             d_in.data(), static_cast<std::int64_t>(data.size()));
  wb::launch({dim3(1), dim3(block), shared}, two_pass_kernel_r5, d_out.data(),
             static_cast<const std::int32_t*>(d_partials.data()), blocks);
  WB_CHECK(cudaDeviceSynchronize());
  return d_out.to_host()[0];
}

// ---- R6 ------------------------------------------------------------------------------
namespace {
template <int kThreads, class T, class S>
__global__ void unrolled_kernel(S* out, const T* in, std::int64_t n) {
  S* partials = wb::dynamic_shared<S>();
  const int tid = threadIdx.x;
  S sum = 0;
  const std::int64_t stride = static_cast<std::int64_t>(kThreads) * gridDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kThreads + tid; i < n; i += stride) sum += in[i];
  partials[tid] = sum;
  __syncthreads();
  ::reduction::WB_TRACK::block_sum_unrolled<kThreads>(partials, tid);
  if (tid == 0) out[blockIdx.x] = partials[0];
}
template <int kThreads>
void unrolled_with(const std::int32_t* in, std::int64_t n, std::int64_t* out, std::int64_t* partials,
                   std::int64_t blocks) {
  const std::size_t shared = kThreads * sizeof(std::int64_t);
  wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(kThreads), shared},
             unrolled_kernel<kThreads, std::int32_t, std::int64_t>, partials, in, n);
  wb::launch({dim3(1), dim3(kThreads), shared}, unrolled_kernel<kThreads, std::int64_t, std::int64_t>, out,
             static_cast<const std::int64_t*>(partials), blocks);
}
}  // namespace

std::int64_t unrolled_dispatch_r6(const std::vector<std::int32_t>& data, int block, std::int64_t blocks) {
  wb::device_buffer<std::int32_t> d_in(data);
  wb::device_buffer<std::int64_t> d_partials(static_cast<std::size_t>(blocks));
  wb::device_buffer<std::int64_t> d_out(1);
  d_out.fill_bytes(0xA5);
  const auto n = static_cast<std::int64_t>(data.size());
  // DEFECT R6: no validate(), and no `default:` (listing 12-4).
  switch (block) {
    case 32: unrolled_with<32>(d_in.data(), n, d_out.data(), d_partials.data(), blocks); break;
    case 64: unrolled_with<64>(d_in.data(), n, d_out.data(), d_partials.data(), blocks); break;
    case 128: unrolled_with<128>(d_in.data(), n, d_out.data(), d_partials.data(), blocks); break;
    case 256: unrolled_with<256>(d_in.data(), n, d_out.data(), d_partials.data(), blocks); break;
    case 512: unrolled_with<512>(d_in.data(), n, d_out.data(), d_partials.data(), blocks); break;
    case 1024: unrolled_with<1024>(d_in.data(), n, d_out.data(), d_partials.data(), blocks); break;
  }
  WB_CHECK(cudaDeviceSynchronize());
  return d_out.to_host()[0];
}

tail_probe warp_tail_r4(int block) { return probe(block, unguarded_tail{}); }
tail_probe warp_tail_of_track(int block) { return probe(block, track_warp_tail{}); }
tail_probe unrolled_tail_of_track(int block) {
  switch (block) {
    case 32: return probe(block, track_unrolled_tail<32>{});
    case 64: return probe(block, track_unrolled_tail<64>{});
    case 128: return probe(block, track_unrolled_tail<128>{});
    default: throw std::invalid_argument("unrolled_tail_of_track: block 32, 64 or 128");
  }
}

}  // namespace reduction::defective
