// Stage 6's host side, shared by both tracks.
// Included by: solutions/counting/stage6_privatized.cu and exercises/counting/stage6_privatized.cu,
// at their end.
// Launches: histogram_privatized_kernel (the track file's), one instantiation per counter layout.
// Here: the persistent grid's size, the shared-memory opt-in, the workspace. The track file
// names its counter layouts (layout_choices, picked by cfg.variant) and how many 16-byte loads
// a thread keeps in flight (loads_in_flight).
#include <cstddef>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace counting::WB_TRACK {

namespace {

using kernel_t = void (*)(const std::int8_t*, std::int64_t, histogram_state*, device_table<std::int8_t>, bool);

struct launch_plan {
  kernel_t kernel;
  int threads;
  std::size_t shared_bytes;
  int unroll;
};

template <class Layout, int U>
launch_plan plan_for() {
  return {histogram_privatized_kernel<Layout, U>, Layout::threads, Layout::shared_bytes, U};
}

// The layout cfg.variant picks: the track's layout_choices, the last one for any larger variant.
template <std::size_t I = 0>
launch_plan choose(int variant) {
  using layout = std::tuple_element_t<I, layout_choices>;
  if constexpr (I + 1 < std::tuple_size_v<layout_choices>) {
    if (variant != static_cast<int>(I)) return choose<I + 1>(variant);
  }
  return plan_for<layout, loads_in_flight>();
}

void run(const std::int8_t* in, std::int64_t n, histogram_state* state, device_table<std::int8_t> out,
         bool write_table, const config& cfg, cudaStream_t stream) {
  validate(cfg);
  if (cfg.variant > 3) throw std::invalid_argument("stage 6: variant must be 0 to 3");
  const launch_plan plan = choose(cfg.variant);
  // Asked once per layout and device: the shared-memory opt-in, how many blocks fit on an
  // SM, how many SMs (so a timed call launches and nothing else). Per device: the opt-in is
  // a device's, and a process may count on several GPUs (the allreduce chapter does).
  struct device_facts {
    int resident_per_sm = 0;
    int sms = 0;
  };
  static std::mutex facts_mutex;
  static std::map<std::pair<int, int>, device_facts> facts;
  int device = 0;
  WB_CHECK(cudaGetDevice(&device));
  std::unique_lock facts_lock(facts_mutex);
  device_facts& f = facts[{device, cfg.variant}];
  if (f.sms == 0) {
    WB_CHECK(cudaFuncSetAttribute(plan.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(plan.shared_bytes)));
    WB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&f.resident_per_sm, plan.kernel, plan.threads,
                                                           plan.shared_bytes));
    if (f.resident_per_sm < 1) f.resident_per_sm = 1;
    f.sms = wb::multiprocessor_count();
  }
  const int per_sm = cfg.blocks_per_sm > 0 ? cfg.blocks_per_sm : f.resident_per_sm;
  const int sms = f.sms;
  facts_lock.unlock();
  // Persistent: one wave of blocks, but no more blocks than there are rounds of work (small
  // inputs, and the cpu backend, where every block costs real time). At least one block:
  // it also counts the loose head and tail items and writes the table.
  const std::int64_t per_block = static_cast<std::int64_t>(plan.threads) * plan.unroll * 16;
  std::int64_t blocks = wb::ceil_div(n, per_block);
  const std::int64_t resident = static_cast<std::int64_t>(sms) * per_sm;
  if (blocks > resident) blocks = resident;
  if (cfg.blocks > 0) blocks = cfg.blocks;
  if (blocks < 1) blocks = 1;
  wb::launch({static_cast<unsigned>(blocks), static_cast<unsigned>(plan.threads), plan.shared_bytes, stream},
             plan.kernel, in, n, state, out, write_table);
}

}  // namespace

std::size_t histogram_privatized_workspace_bytes() { return sizeof(histogram_state); }

void histogram_privatized(const std::int8_t* in, std::int64_t n, device_table<std::int8_t> out, workspace ws,
                          const config& cfg) {
  if (ws.size < histogram_privatized_workspace_bytes())
    throw std::invalid_argument("histogram_privatized: workspace too small");
  auto* state = reinterpret_cast<histogram_state*>(ws.bytes);
  WB_CHECK(cudaMemsetAsync(state, 0, sizeof(histogram_state)));
  run(in, n, state, out, /*write_table=*/true, cfg, 0);
}

void histogram_privatized_accumulate(const std::int8_t* in, std::int64_t n, std::uint64_t* bins, const config& cfg,
                                     cudaStream_t stream) {
  // The bins are the first member of histogram_state; write_table is off, so the ticket is
  // never touched.
  run(in, n, reinterpret_cast<histogram_state*>(bins), device_table<std::int8_t>{}, /*write_table=*/false, cfg,
      stream);
}

}  // namespace counting::WB_TRACK
