#include "defect_runner.hpp"

#include "wb/device_buffer.hpp"

namespace matmul::testing {

std::vector<float> run_defective(const inputs& in, const std::function<void(const float*, const float*, float*)>& run) {
  std::vector<float> A = in.A, B = in.B;
  A.insert(A.end(), static_cast<std::size_t>(in.K + 16), 1000.0f);
  B.insert(B.end(), static_cast<std::size_t>(in.N + 16), 1000.0f);
  wb::device_buffer<float> d_A(A), d_B(B), d_C(static_cast<std::size_t>(in.M * in.N));
  d_C.fill_bytes(output_poison);
  run(d_A.data(), d_B.data(), d_C.data());
  WB_CHECK(cudaDeviceSynchronize());
  return d_C.to_host();
}

bool right(const inputs& in, const std::vector<float>& C) {
  const reference_product ref = reference_host(in.A, in.B, in.M, in.N, in.K);
  return first_wrong(C, ref, fp32_error_model(in.K), "C").empty();
}

void under_fixed_orders(const std::function<void(const char*)>& f) {
#if defined(WB_BACKEND_CPU)
  const std::string saved = wb::cpu::schedule_order_name();
  for (const char* order : {"in-order", "reverse"}) {
    wb::cpu::set_schedule_order(order);
    f(order);
  }
  wb::cpu::set_schedule_order(saved);
#else
  f("the GPU's");
#endif
}

}  // namespace matmul::testing
