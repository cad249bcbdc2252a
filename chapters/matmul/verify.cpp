#include "verify.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "wb/generate.hpp"

#include "reference_device.hpp"

namespace matmul {

namespace {

template <class T>
constexpr bool is_bf16 = std::is_same_v<T, bf16>;

std::vector<float> widen(const std::vector<float>& v) {
  return v;
}
std::vector<float> widen(const std::vector<bf16>& v) {
  return to_float(v);
}

}  // namespace

template <class T>
verifier::verifier(std::span<const float> A, std::span<const float> B, std::int64_t M, std::int64_t N, std::int64_t K,
                   const T* d_A, const T* d_B, bool exact)
    : M_(M),
      N_(N),
      K_(K),
      bf16_(is_bf16<T>),
      exact_(exact),
      // exact: no error in the sums; for a bf16 C, the one rounding to bf16 (at most 2^-8 |C|)
      model_(exact        ? exact_error_model(is_bf16<T>)
             : is_bf16<T> ? bf16_error_model(K)
                          : fp32_error_model(K)),
      on_device_(wb::backend_is_cuda && M * N * K > host_limit) {
  if (!on_device_) {
    host_ = reference_host(A, B, M, N, K);
    return;
  }
  const auto count = static_cast<std::size_t>(M * N);
  d_exact_ = wb::device_buffer<double>(count);
  d_abs_sum_ = wb::device_buffer<double>(count);
  matmul_reference::product_device(d_A, d_B, M, N, K, d_exact_.data(), d_abs_sum_.data());
  WB_CHECK(cudaDeviceSynchronize());
  // The device reference, checked on the host at the corners and 60 sampled elements.
  wb::gen::rng r(0x5EED);
  std::vector<std::int64_t> sample = {0, M * N - 1, N - 1, (M - 1) * N};
  for (int s = 0; s < 60; ++s) sample.push_back(static_cast<std::int64_t>(r.below(static_cast<std::uint64_t>(M * N))));
  for (const std::int64_t e : sample) {
    double exact = 0, abs_sum = 0;
    WB_CHECK(cudaMemcpy(&exact, d_exact_.data() + e, sizeof(double), cudaMemcpyDeviceToHost));
    WB_CHECK(cudaMemcpy(&abs_sum, d_abs_sum_.data() + e, sizeof(double), cudaMemcpyDeviceToHost));
    const std::int64_t i = e / N, j = e % N;
    double sum = 0, abs = 0;
    for (std::int64_t k = 0; k < K; ++k) {
      const double p =
          static_cast<double>(A[static_cast<std::size_t>(i * K + k)]) * B[static_cast<std::size_t>(k * N + j)];
      sum += p;
      abs += std::fabs(p);
    }
    const double slack = 2 * gamma_k(K, 0x1p-53) * abs;
    const bool same = (std::isnan(sum) && std::isnan(exact)) || sum == exact || std::fabs(sum - exact) <= slack;
    if (!same || !(abs == abs_sum || std::fabs(abs - abs_sum) <= slack || std::isnan(abs))) {
      throw std::runtime_error(
          fmt::format("the device reference disagrees with the host at C[{}][{}]: {} and {}", i, j, exact, sum));
    }
  }
}

template <class T>
product_result verifier::check(const T* d_C) const {
  product_result out;
  const std::int64_t count = M_ * N_;
  if (count <= host_copy_limit) {
    std::vector<T> host(static_cast<std::size_t>(count));
    if (count > 0) WB_CHECK(cudaMemcpy(host.data(), d_C, host.size() * sizeof(T), cudaMemcpyDeviceToHost));
    out.C = widen(host);
  }
  if (!on_device_) {
    out.wrong = first_wrong(out.C, host_, model_, "C");
    if (!out.wrong.empty()) out.wrong_count = count_wrong(out.C, host_, model_);
    return out;
  }
  const auto counts = matmul_reference::check_device(d_C, d_exact_.data(), d_abs_sum_.data(), count, model_);
  out.wrong_count = counts.wrong;
  if (counts.wrong > 0) {
    T got;
    double exact, abs;
    WB_CHECK(cudaMemcpy(&got, d_C + counts.first, sizeof(T), cudaMemcpyDeviceToHost));
    WB_CHECK(cudaMemcpy(&exact, d_exact_.data() + counts.first, sizeof(double), cudaMemcpyDeviceToHost));
    WB_CHECK(cudaMemcpy(&abs, d_abs_sum_.data() + counts.first, sizeof(double), cudaMemcpyDeviceToHost));
    float value;
    if constexpr (is_bf16<T>)
      value = wb::to_float(got);
    else
      value = got;
    out.wrong = fmt::format("C: C[{}][{}] = {:.9g}, expected {:.9g} within {:.3g} (K = {})", counts.first / N_,
                            counts.first % N_, value, exact, error_bound(model_, exact, abs), K_);
  }
  return out;
}

product_result verifier::check_host(std::vector<float> C) const {
  product_result out;
  if (!on_device_) {
    out.wrong = first_wrong(C, host_, model_, "C");
    if (!out.wrong.empty()) out.wrong_count = count_wrong(C, host_, model_);
  } else {
    wb::device_buffer<float> d_C(C);
    out = check(d_C.data());
  }
  if (static_cast<std::int64_t>(C.size()) <= host_copy_limit) out.C = std::move(C);
  return out;
}

std::string verifier::describe() const {
  if (exact_) {
    return fmt::format(
        "checked against the exact product (double precision, on the {}): every sum is exact here, so C "
        "must be the exact product{}",
        on_device_ ? "GPU, sampled on the host" : "host", bf16_ ? " rounded once to bf16" : "");
  }
  return fmt::format("checked against the exact product (double precision, on the {}): |error| <= {:.3g} * sum|a||b|{}",
                     on_device_ ? "GPU, sampled on the host" : "host", model_.sum,
                     bf16_ ? fmt::format(" + {:.3g} * |C| (bf16 output)", model_.output) : std::string());
}

template verifier::verifier(std::span<const float>, std::span<const float>, std::int64_t, std::int64_t, std::int64_t,
                            const float*, const float*, bool);
template verifier::verifier(std::span<const float>, std::span<const float>, std::int64_t, std::int64_t, std::int64_t,
                            const bf16*, const bf16*, bool);
template product_result verifier::check<float>(const float*) const;
template product_result verifier::check<bf16>(const bf16*) const;

}  // namespace matmul
