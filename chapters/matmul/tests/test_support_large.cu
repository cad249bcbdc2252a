// The device half of test_support.hpp: problems past 2^31 elements made and checked on the
// device (check_large).
#include "test_support.hpp"

#include <string>

#include "wb/device_buffer.hpp"
#include "wb/kernel.hpp"

#include "error_bound.hpp"
#include "reference_device.hpp"

namespace matmul::testing {

namespace {

// An integer in [-2, 2] from a hash of the index.
template <class T>
__global__ void fill_small_integers(T* out, std::int64_t count, std::uint64_t seed) {
  for (std::int64_t i = wb::global_thread_index(); i < count; i += wb::grid_thread_count()) {
    std::uint64_t z = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull + seed;
    z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ull;
    z ^= z >> 29;
    const auto v = static_cast<float>(static_cast<int>(z % 5) - 2);
    if constexpr (std::is_same_v<T, bf16>)
      out[i] = wb::to_bf16(v);
    else
      out[i] = v;
  }
}

}  // namespace

template <class T>
std::string check_large(std::int64_t M, std::int64_t N, std::int64_t K,
                        const std::function<void(const problem<T>&)>& stage) {
  wb::device_buffer<T> A(static_cast<std::size_t>(M * K)), B(static_cast<std::size_t>(K * N)),
      C(static_cast<std::size_t>(M * N));
  wb::launch({dim3(4096), dim3(256)}, fill_small_integers<T>, A.data(), M * K, std::uint64_t{11});
  wb::launch({dim3(4096), dim3(256)}, fill_small_integers<T>, B.data(), K * N, std::uint64_t{12});
  C.fill_bytes(0x7F);
  stage({A.data(), B.data(), C.data(), M, N, K});
  WB_CHECK(cudaDeviceSynchronize());
  wb::device_buffer<double> exact(static_cast<std::size_t>(M * N)), abs_sum(static_cast<std::size_t>(M * N));
  matmul_reference::product_device(A.data(), B.data(), M, N, K, exact.data(), abs_sum.data());
  const error_model model{0, std::is_same_v<T, bf16> ? 0x1p-8 : 0};  // exact sums; one rounding to bf16
  const auto counts = matmul_reference::check_device(C.data(), exact.data(), abs_sum.data(), M * N, model);
  if (counts.wrong == 0) return "";
  return std::to_string(counts.wrong) + " of " + std::to_string(M * N) + " elements wrong, the first C[" +
         std::to_string(counts.first / N) + "][" + std::to_string(counts.first % N) + "]";
}

template std::string check_large<float>(std::int64_t, std::int64_t, std::int64_t,
                                        const std::function<void(const problem<float>&)>&);
template std::string check_large<bf16>(std::int64_t, std::int64_t, std::int64_t,
                                       const std::function<void(const problem<bf16>&)>&);

}  // namespace matmul::testing
