// Stage 6, the int8 histogram on data split across GPUs: each rank counts its own items with
// the counting chapter's stage 6 (a privatized histogram at memory speed), then the 256 counts
// are all-reduced. 256 counts are 2 KiB: an all-reduce that small is all latency, so it goes
// through stage 4's one-shot kernel (one launch, two flag round trips), not a ring. With G GPUs
// each reads 1/G of the items: G times the memory bandwidth for one tiny exchange.
#include <cstdint>
#include <span>

#include "wb/check.hpp"

#include "allreduce.hpp"
#include "app.hpp"
#include "counting.hpp"
#include "team.hpp"

namespace allreduce::WB_TRACK {

void histogram_across_gpus(team& t, app_workspace& ws, std::span<const std::int8_t* const> items,
                           std::span<const std::int64_t> counts, std::span<std::uint64_t* const> bins) {
  const int G = t.size();
  buffers<std::int64_t> sums;  // the counts are 64-bit: as int64 they add the same bits
  sums.n = 256;
  t.for_each_rank([&](int r) {
    app_rank& a = ws.ranks[static_cast<std::size_t>(r)];
    ensure(a.local_bins, 256);
    WB_CHECK(cudaMemsetAsync(a.local_bins.data(), 0, 256 * sizeof(std::uint64_t), t.stream(r)));
    counting::solution::histogram_privatized_accumulate(items[static_cast<std::size_t>(r)],
                                                        counts[static_cast<std::size_t>(r)], a.local_bins.data(), {},
                                                        t.stream(r));
    sums.in.push_back(reinterpret_cast<const std::int64_t*>(a.local_bins.data()));
    sums.out.push_back(reinterpret_cast<std::int64_t*>(bins[static_cast<std::size_t>(r)]));
  });
  if (G == 1) {
    device_scope on(t.device(0));
    WB_CHECK(cudaMemcpyAsync(sums.out[0], sums.in[0], 256 * sizeof(std::uint64_t), cudaMemcpyDeviceToDevice, t.stream(0)));
    return;
  }
  allreduce_one_shot(t, sums);
}

}  // namespace allreduce::WB_TRACK
