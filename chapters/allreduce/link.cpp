// The link between two GPUs, measured (link.hpp).
#include "link.hpp"

#include <cstddef>

#include "wb/check.hpp"
#include "wb/device_buffer.hpp"
#include "wb/timing.hpp"

#include "team.hpp"

namespace allreduce {

link_rates measure_link(team& t) {
  link_rates rates;
  if (t.size() < 2 || t.device(0) == t.device(1)) return rates;
  const std::size_t bytes = wb::backend_is_cuda ? std::size_t{256} << 20 : std::size_t{1} << 20;
  wb::device_buffer<unsigned char> a0, b0, a1, b1;
  {
    device_scope on(t.device(0));
    a0 = wb::device_buffer<unsigned char>(bytes);
    b0 = wb::device_buffer<unsigned char>(bytes);
    a0.fill_bytes(1);
  }
  {
    device_scope on(t.device(1));
    a1 = wb::device_buffer<unsigned char>(bytes);
    b1 = wb::device_buffer<unsigned char>(bytes);
    a1.fill_bytes(2);
  }
  wb::timing_options options;
  options.flush_l2 = false;
  options.reps = wb::backend_is_cuda ? 10 : 2;
  options.warmup = wb::backend_is_cuda ? 2 : 0;
  device_scope on(t.device(0));
  for (const bool both : {false, true}) {
    const wb::timing time = wb::time_gpu(
        [&] {
          t.fork();
          WB_CHECK(cudaMemcpyPeerAsync(b1.data(), t.device(1), a0.data(), t.device(0), bytes, t.stream(0)));
          if (both) {
            device_scope on1(t.device(1));
            WB_CHECK(cudaMemcpyPeerAsync(b0.data(), t.device(0), a1.data(), t.device(1), bytes, t.stream(1)));
          }
          t.join();
        },
        options);
    const double gbs = time.median_ms > 0 ? static_cast<double>(bytes) / (time.median_ms * 1e6) : 0;
    (both ? rates.each_way_gbs : rates.one_way_gbs) = gbs;
  }
  t.synchronize();
  return rates;
}

}  // namespace allreduce
