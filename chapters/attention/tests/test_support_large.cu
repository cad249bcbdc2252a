// The [large] checks' problems (test_support.hpp, check_large): made on the device, where the
// host would take minutes to fill 8 GiB, and checked row by row on the host.
#include <algorithm>
#include <cstdint>
#include <set>
#include <string>

#include "test_support.hpp"
#include "wb/device_buffer.hpp"
#include "wb/kernel.hpp"

namespace attention::testing {

namespace {

// A value in [-1, 1) from a hash of (index, salt): SplitMix64's finaliser.
__host__ __device__ inline float hashed(std::uint64_t index, std::uint64_t salt) {
  std::uint64_t z = index * 0x9E3779B97F4A7C15ull + salt;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<float>(z >> 40) * 0x1p-23f - 1.0f;
}

template <class T>
__global__ void fill_kernel(T* x, std::int64_t n, std::uint64_t salt) {
  for (std::int64_t e = wb::global_thread_index(); e < n; e += wb::grid_thread_count()) {
    if constexpr (std::is_same_v<T, float>) x[e] = hashed(static_cast<std::uint64_t>(e), salt);
    else x[e] = wb::to_bf16(hashed(static_cast<std::uint64_t>(e), salt));
  }
}

template <class T>
void fill(wb::device_buffer<T>& x, std::uint64_t salt) {
  wb::launch({dim3(4096), dim3(256)}, fill_kernel<T>, x.data(), static_cast<std::int64_t>(x.size()), salt);
}

template <class T>
std::vector<float> slice(const wb::device_buffer<T>& x, std::int64_t first, std::int64_t count) {
  std::vector<T> host(static_cast<std::size_t>(count));
  WB_CHECK(cudaMemcpy(host.data(), x.data() + first, host.size() * sizeof(T), cudaMemcpyDeviceToHost));
  std::vector<float> out(host.size());
  if constexpr (std::is_same_v<T, float>) out = host;
  else std::transform(host.begin(), host.end(), out.begin(), [](T v) { return wb::to_float(v); });
  return out;
}

template <class T>
std::string check_large_typed(int stage, const dims& d) {
  const std::int64_t rows = query_rows(d);
  const std::int64_t kv_count = d.batch * d.heads * d.kv_seq * d.dim;
  wb::device_buffer<float> Q(static_cast<std::size_t>(rows * d.dim)), O(static_cast<std::size_t>(rows * d.dim));
  wb::device_buffer<T> K(static_cast<std::size_t>(kv_count)), V(static_cast<std::size_t>(kv_count));
  fill(Q, 1);
  fill(K, 2);
  fill(V, 3);
  O.fill_bytes(output_poison);
  const problem<T> p{Q.data(), K.data(), V.data(), O.data(), d};
  if constexpr (std::is_same_v<T, float>) {
    if (stage == 1) {
      wb::workspace_buffer ws(scores_workspace_bytes(d));
      track::attention_three_kernels(p, ws.view());
    } else if (stage == 2) {
      track::attention_online(p);
    } else if (stage == 3) {
      track::attention_tiled(p);
    }
  } else {
    if (stage == 4) track::attention_tensor_core(p);
  }
  if (stage == 6) {
    wb::workspace_buffer ws(decode_workspace_bytes(d));
    track::attention_decode(p, ws.view());
  }
  WB_CHECK(cudaDeviceSynchronize());
  // The rows to check: the first and last, and those around element 2^31 of Q (rows) and of K
  // (the (batch, head) whose keys cross it: its last query).
  const std::int64_t edge = (std::int64_t{1} << 31) / d.dim;
  const std::int64_t kv_edge_head = (std::int64_t{1} << 31) / (d.kv_seq * d.dim);
  std::set<std::int64_t> picked{0, rows - 1, std::min(rows - 1, kv_edge_head * d.seq + d.seq - 1)};
  for (std::int64_t r = edge - 2; r <= edge + 2; ++r) {
    if (r >= 0 && r < rows) picked.insert(r);
  }
  for (const std::int64_t row : picked) {
    const std::int64_t bh = row / d.seq, i = row % d.seq;
    // The row alone is a problem of one query against the keys it sees, without a mask.
    inputs one;
    one.d = {1, 1, 1, visible_end(d, i), d.dim, false};
    one.tensor_cores = stage == 4;  // its bound (K and V are bf16 already)
    one.Q = slice(Q, row * d.dim, d.dim);
    one.K = slice(K, bh * d.kv_seq * d.dim, one.d.kv_seq * d.dim);
    one.V = slice(V, bh * d.kv_seq * d.dim, one.d.kv_seq * d.dim);
    const std::string wrong = first_wrong(one, slice(O, row * d.dim, d.dim));
    if (!wrong.empty()) {  // (no fmt in a .cu: nvcc cannot compile its constexpr parts)
      return "stage " + std::to_string(stage) + ", " + describe(d) + ", row " + std::to_string(row) + " (batch-head " +
             std::to_string(bh) + ", query " + std::to_string(i) + "): " + wrong;
    }
  }
  return "";
}

}  // namespace

std::string check_large(int stage, const dims& d, bool half) {
  return half ? check_large_typed<bf16>(stage, d) : check_large_typed<float>(stage, d);
}

}  // namespace attention::testing
