// The allreduce checks' shared pieces (support.hpp).
#include "support.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "wb/multi_gpu.hpp"

namespace allreduce::testing {

std::unique_ptr<team> make_team(int ranks, int devices) {
  if (devices == 0) devices = ranks;
  if constexpr (wb::backend_is_cuda) {
    devices = std::min(devices, wb::visible_devices());
  } else {
    wb::emulate_devices(devices);
  }
  return std::make_unique<team>(ranks, devices);
}

const char* name_of(variant v) {
  switch (v) {
    case variant::through_host: return "through-host";
    case variant::reduce_broadcast: return "reduce-broadcast";
    case variant::ring: return "ring";
    case variant::one_shot: return "one-shot";
    case variant::two_shot: return "two-shot";
    case variant::nccl: return "nccl";
  }
  return "?";
}

bool adds_in_rank_order(variant v) { return v != variant::ring && v != variant::nccl; }

int stage_of(variant v) {
  switch (v) {
    case variant::through_host: return 1;
    case variant::reduce_broadcast: return 2;
    case variant::ring: return 3;
    case variant::one_shot:
    case variant::two_shot: return 4;
    case variant::nccl: return 5;
  }
  return 0;
}

template <class T>
std::vector<std::vector<T>> run(variant v, team& t, const std::vector<std::vector<T>>& inputs, const config& cfg) {
  wb::testing::expect_stage_in_reach(stage_of(v));  // a stage's checks run no later stage
  rank_vectors<T> data(t, inputs);
  const buffers<T> b = data.view();
  switch (v) {
    case variant::through_host: track::allreduce_through_host(t, b); break;
    case variant::reduce_broadcast: track::allreduce_reduce_broadcast(t, b); break;
    case variant::ring: track::allreduce_ring(t, b, cfg); break;
    case variant::one_shot: track::allreduce_one_shot(t, b, cfg); break;
    case variant::two_shot: track::allreduce_two_shot(t, b, cfg); break;
    case variant::nccl: track::allreduce_nccl(t, b); break;
  }
  return data.outputs();
}

template <class T>
std::string check_run(variant v, const std::vector<std::vector<T>>& inputs, const std::vector<std::vector<T>>& outputs) {
  if (const std::string d = ranks_disagree(outputs); !d.empty()) return "the ranks disagree: " + d;
  // The specification, computed here independently of the track's stage 0: integers in
  // unsigned 64-bit arithmetic (wrapping), floats folded left in rank order.
  std::vector<T> expected(inputs[0].size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if constexpr (std::is_integral_v<T>) {
      std::uint64_t sum = 0;
      for (const auto& in : inputs) sum += static_cast<std::uint64_t>(static_cast<std::int64_t>(in[i]));
      expected[i] = static_cast<T>(sum);
    } else {
      T sum = inputs[0][i];
      for (std::size_t r = 1; r < inputs.size(); ++r) sum = sum + inputs[r][i];
      expected[i] = sum;
    }
  }
  const std::vector<double> tolerance =
      adds_in_rank_order(v) ? std::vector<double>{} : order_tolerance<T>(std::span<const std::vector<T>>(inputs));
  const std::string m = mismatch(expected, outputs[0], tolerance);
  return m.empty() ? "" : "rank 0's result: " + m;
}

namespace {

template <class T>
void battery_for_type(variant v, const config& cfg, std::uint64_t seed) {
  struct shape {
    int ranks, devices;
  };
  const shape shapes[] = {{1, 1}, {2, 2}, {3, 3}, {3, 2}, {2, 1}};
  // Around the 16-byte vector, the four-element segment alignment, and (stage 3 with 256-byte
  // pieces) the piece boundaries of each segment.
  const std::int64_t piece = (cfg.chunk_bytes > 0 ? cfg.chunk_bytes : min_default_chunk_bytes) / static_cast<std::int64_t>(sizeof(T));
  for (const shape s : shapes) {
    auto t = make_team(s.ranks, s.devices);
    if (v == variant::nccl && !t->nccl_unavailable().empty()) {
      CHECK_THROWS_AS(run<T>(v, *t, make_inputs<T>(s.ranks, 4, distribution::small, seed), cfg), std::runtime_error);
      continue;
    }
    std::vector<std::int64_t> sizes = {0, 1, 3, 4, 5, 7, 8, 9, 31, 33, 100};
    for (const std::int64_t k : {std::int64_t{1}, std::int64_t{2}}) {
      for (const std::int64_t d : {std::int64_t{-1}, std::int64_t{0}, std::int64_t{1}}) {
        if (piece * k * s.ranks + d > 0 && piece * k * s.ranks + d < 5000) sizes.push_back(piece * k * s.ranks + d);
      }
    }
    for (const std::int64_t n : sizes) {
      for (const distribution d : {distribution::uniform, distribution::extremes, distribution::small}) {
        // Float extremes overflow to infinity or not depending on the order of the additions:
        // only the variants that add in the specification's order must match them.
        if (std::is_floating_point_v<T> && d == distribution::extremes && !adds_in_rank_order(v)) continue;
        CAPTURE(n);
        CAPTURE(s.ranks);
        CAPTURE(s.devices);
        CAPTURE(static_cast<int>(d));
        const auto inputs = make_inputs<T>(s.ranks, n, d, seed + static_cast<std::uint64_t>(n));
        const std::string wrong = check_run(v, inputs, run<T>(v, *t, inputs, cfg));
        CHECK_MESSAGE(wrong.empty(), std::string(name_of(v)), " on ", t->description(), ", n = ", n, ": ", wrong);
      }
    }
    if constexpr (std::is_floating_point_v<T>) {  // NaN in one rank's input: NaN for everyone there
      auto inputs = make_inputs<T>(s.ranks, 50, distribution::small, seed);
      inputs.back()[17] = std::numeric_limits<T>::quiet_NaN();
      const auto outputs = run<T>(v, *t, inputs, cfg);
      const std::string wrong = check_run(v, inputs, outputs);
      CHECK_MESSAGE(wrong.empty(), wrong);
      if (wrong.empty()) CHECK(std::isnan(outputs[0][17]));
    }
    // Two calls in a row on one team: flags, events and scratch memory are reused.
    for (int call = 0; call < 2; ++call) {
      const auto inputs = make_inputs<T>(s.ranks, 37 + call, distribution::uniform, seed + 1000 + call);
      const std::string wrong = check_run(v, inputs, run<T>(v, *t, inputs, cfg));
      CHECK_MESSAGE(wrong.empty(), std::string(name_of(v)), " call ", call, ": ", wrong);
    }
  }
}

}  // namespace

namespace {

// The emulator's default queue order for its scope, whatever WB_CPU_STREAM_ORDER says (work the
// program did not order runs in the opposite order to how it was issued); the previous after.
class latest_issued_first {
 public:
#if defined(WB_BACKEND_CPU)
  latest_issued_first() : was_(wb::cpu::current_queue_order()) { wb::cpu::set_queue_order(wb::cpu::queue_order::latest_first); }
  ~latest_issued_first() { wb::cpu::set_queue_order(was_); }
#else
  latest_issued_first() = default;
#endif
  latest_issued_first(const latest_issued_first&) = delete;
  latest_issued_first& operator=(const latest_issued_first&) = delete;

 private:
#if defined(WB_BACKEND_CPU)
  wb::cpu::queue_order was_;
#endif
};

}  // namespace

std::string check_output_reuse(team& t, const int32_allreduce& allreduce, std::uint64_t seed) {
  constexpr std::int64_t n = 64;
  const auto inputs = make_inputs<std::int32_t>(t.size(), n, distribution::uniform, seed);
  rank_vectors<std::int32_t> data(t, inputs);
  const buffers<std::int32_t> b = data.view();
  std::vector<std::vector<std::int32_t>> outputs;
  {
    [[maybe_unused]] latest_issued_first order;
    allreduce(t, b);
    // Rank 0's next work reuses out[0]: here it overwrites it.
    device_scope on(t.device(0));
    WB_CHECK(cudaMemsetAsync(b.out[0], 0x5A, static_cast<std::size_t>(n) * sizeof(std::int32_t), t.stream(0)));
    outputs = data.outputs();
  }
  std::vector<std::int32_t> expected(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < expected.size(); ++i) {
    std::uint32_t sum = 0;
    for (const auto& in : inputs) sum += static_cast<std::uint32_t>(in[i]);
    expected[i] = static_cast<std::int32_t>(sum);
  }
  for (int r = 1; r < t.size(); ++r) {
    const std::string m = mismatch(expected, outputs[static_cast<std::size_t>(r)]);
    if (!m.empty()) return fmt::format("rank {}'s result: {}", r, m);
  }
  return "";
}

void check_battery(variant v, const config& cfg) {
  const std::uint64_t seed = wb::testing::seed(static_cast<std::uint64_t>(v) * 101 + 7);
  battery_for_type<std::int32_t>(v, cfg, seed);
  battery_for_type<std::int64_t>(v, cfg, seed + 1);
  battery_for_type<float>(v, cfg, seed + 2);
}

#define INSTANTIATE(T)                                                                                         \
  template std::vector<std::vector<T>> run<T>(variant, team&, const std::vector<std::vector<T>>&, const config&); \
  template std::string check_run<T>(variant, const std::vector<std::vector<T>>&, const std::vector<std::vector<T>>&);
ALLREDUCE_FOR_EACH_TYPE(INSTANTIATE)
#undef INSTANTIATE

}  // namespace allreduce::testing

#include "stages.hpp"
namespace {
const bool registered = wb::testing::register_stages(std::span{allreduce::stages});
}  // namespace
