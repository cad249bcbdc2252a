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
  // TODO(allreduce/6): every rank counts its items into its own 256 bins (zero them, then the
  // counting chapter's histogram_privatized_accumulate on the rank's stream), then all-reduce
  // the bins into bins[r] with your stage 4 one-shot (the counts are 64-bit: as int64 they add
  // the same bits).
}

}  // namespace allreduce::WB_TRACK
