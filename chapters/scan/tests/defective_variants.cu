// The defective variants of defective_variants.hpp. Each is the fixed stage's kernel with one
// change, marked DEFECT; they are written for one type and a few shapes, enough to show it.
#include "defective_variants.hpp"

#include "scan.hpp"
#include "wb/device_buffer.hpp"
#include "wb/kernel.hpp"

namespace scan::defective {

namespace {

using i32 = std::int32_t;

__global__ void kogge_stone_in_place_kernel(const i32* in, i32* out) {
  i32* xy = wb::dynamic_shared<i32>();
  const int t = threadIdx.x;
  xy[t] = in[t];
  __syncthreads();
  for (int stride = 1; stride < static_cast<int>(blockDim.x); stride *= 2) {
    // DEFECT S1: xy[t - stride] may already hold this step's value, written by its thread.
    if (t >= stride) xy[t] = plus(xy[t - stride], xy[t]);
    __syncthreads();
  }
  out[t] = xy[t];
}

__global__ void brent_kung_off_by_one_kernel(const i32* in, i32* out) {
  i32* xy = wb::dynamic_shared<i32>();
  const int t = threadIdx.x;
  const int section = 2 * blockDim.x;
  xy[t] = in[t];
  xy[t + blockDim.x] = in[t + blockDim.x];
  for (int s = 1; s <= static_cast<int>(blockDim.x); s *= 2) {
    __syncthreads();
    const int i = (t + 1) * 2 * s;  // DEFECT S2: the subtree's last item is (t+1)*2s - 1
    if (i < section) xy[i] = plus(xy[i - s], xy[i]);
  }
  for (int s = blockDim.x / 2; s >= 1; s /= 2) {
    __syncthreads();
    const int i = (t + 1) * 2 * s - 1;
    if (i + s < section) xy[i + s] = plus(xy[i], xy[i + s]);
  }
  __syncthreads();
  out[t] = xy[t];
  out[t + blockDim.x] = xy[t + blockDim.x];
}

__global__ void coarsened_missing_barrier_kernel(const i32* in, i32* out, int items) {
  i32* s = wb::dynamic_shared<i32>();
  const int t = threadIdx.x;
  for (int k = t; k < static_cast<int>(blockDim.x) * items; k += blockDim.x) s[k] = in[k];
  __syncthreads();
  i32* mine = s + t * items;
  for (int k = 1; k < items; ++k) mine[k] = plus(mine[k - 1], mine[k]);
  // DEFECT S3: no __syncthreads() here; phase 2 reads other threads' last items.
  for (int stride = 1; stride < static_cast<int>(blockDim.x); stride *= 2) {
    i32 v = mine[items - 1];
    if (t >= stride) v = plus(s[(t - stride) * items + items - 1], v);
    __syncthreads();
    mine[items - 1] = v;
    __syncthreads();
  }
  if (t > 0) {
    const i32 before = s[t * items - 1];
    for (int k = 0; k < items - 1; ++k) mine[k] = plus(before, mine[k]);
  }
  __syncthreads();
  for (int k = t; k < static_cast<int>(blockDim.x) * items; k += blockDim.x) out[k] = s[k];
}

__global__ void domino_static_kernel(const i32* in, i32* out, std::int64_t n, unsigned* flags, i32* carries,
                                     unsigned* gave_up, long long max_polls) {
  i32* xy = wb::dynamic_shared<i32>();
  __shared__ i32 before_shared;
  const unsigned tile = blockIdx.x;  // DEFECT S4: assumes block tile - 1 has started before this one
  const int t = threadIdx.x;
  const std::int64_t i = static_cast<std::int64_t>(tile) * blockDim.x + t;
  xy[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int stride = 1; stride < static_cast<int>(blockDim.x); stride *= 2) {
    i32 v = xy[t];
    if (t >= stride) v = plus(xy[t - stride], v);
    __syncthreads();
    xy[t] = v;
    __syncthreads();
  }
  if (t == 0) {
    i32 before = 0;
    if (tile > 0) {
      long long polls = 0;
      while (static_cast<volatile unsigned*>(flags)[tile - 1] == 0 && ++polls < max_polls) {
      }
      if (polls >= max_polls) atomicAdd(gave_up, 1u);  // the real kernel would still be waiting
      __threadfence();
      before = static_cast<volatile i32*>(carries)[tile - 1];
    }
    static_cast<volatile i32*>(carries)[tile] = plus(before, xy[blockDim.x - 1]);
    __threadfence();
    static_cast<volatile unsigned*>(flags)[tile] = 1;
    before_shared = before;
  }
  __syncthreads();
  if (i < n) out[i] = plus(before_shared, xy[t]);
}

}  // namespace

std::vector<i32> kogge_stone_in_place(const std::vector<i32>& in) {
  wb::device_buffer<i32> d_in(in), d_out(in.size());
  wb::launch({dim3(1), dim3(static_cast<unsigned>(in.size())), in.size() * sizeof(i32)}, kogge_stone_in_place_kernel,
             d_in.data(), d_out.data());
  WB_CHECK(cudaDeviceSynchronize());
  return d_out.to_host();
}

std::vector<i32> brent_kung_index_off_by_one(const std::vector<i32>& in) {
  wb::device_buffer<i32> d_in(in), d_out(in.size());
  wb::launch({dim3(1), dim3(static_cast<unsigned>(in.size() / 2)), in.size() * sizeof(i32)},
             brent_kung_off_by_one_kernel, d_in.data(), d_out.data());
  WB_CHECK(cudaDeviceSynchronize());
  return d_out.to_host();
}

std::vector<i32> coarsened_missing_barrier(const std::vector<i32>& in, int block, int items) {
  wb::device_buffer<i32> d_in(in), d_out(in.size());
  wb::launch({dim3(1), dim3(block), in.size() * sizeof(i32)}, coarsened_missing_barrier_kernel, d_in.data(),
             d_out.data(), items);
  WB_CHECK(cudaDeviceSynchronize());
  return d_out.to_host();
}

domino_result domino_static_index(const std::vector<i32>& in, int block, long long max_polls) {
  const auto n = static_cast<std::int64_t>(in.size());
  const std::int64_t tiles = (n + block - 1) / block;
  wb::device_buffer<i32> d_in(in), d_out(in.size()), carries(static_cast<std::size_t>(tiles));
  wb::device_buffer<unsigned> flags(static_cast<std::size_t>(tiles)), gave_up(1);
  flags.fill_bytes(0);
  gave_up.fill_bytes(0);
  wb::launch({dim3(static_cast<unsigned>(tiles)), dim3(block), block * sizeof(i32)}, domino_static_kernel, d_in.data(),
             d_out.data(), n, flags.data(), carries.data(), gave_up.data(), max_polls);
  WB_CHECK(cudaDeviceSynchronize());
  return {d_out.to_host(), gave_up.to_host()[0]};
}

}  // namespace scan::defective
