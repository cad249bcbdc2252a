// Launch shapes (launch_shape.hpp).
#include "launch_shape.hpp"

#include <algorithm>

#include "wb/check.hpp"
#include "wb/device_info.hpp"
#include "wb/runtime.hpp"

#include "team.hpp"

namespace allreduce {
int sum_blocks(std::int64_t items) {
  int device = 0;
  WB_CHECK(cudaGetDevice(&device));
  const std::int64_t cover = (items + sum_threads - 1) / sum_threads;
  return static_cast<int>(std::clamp<std::int64_t>(cover, 1, std::int64_t{4} * wb::multiprocessor_count(device)));
}

int row_blocks(std::int64_t rows) {
  int device = 0;
  WB_CHECK(cudaGetDevice(&device));
  const std::int64_t cover = (rows + row_threads - 1) / row_threads;
  return static_cast<int>(std::clamp<std::int64_t>(cover, 1, std::int64_t{2048 / row_threads} * wb::multiprocessor_count(device)));
}

int direct_blocks(const team& t, const config& cfg, std::int64_t items) {
  if (cfg.blocks > 0) return cfg.blocks;
  // One block per multiprocessor at most, shared by the ranks that share a GPU.
  const int ranks_per_gpu = (t.size() + t.devices() - 1) / t.devices();
  const int resident = std::max(1, wb::multiprocessor_count(t.device(0)) / ranks_per_gpu);
  const std::int64_t cover = (items + cfg.threads - 1) / cfg.threads;
  return static_cast<int>(std::clamp<std::int64_t>(cover, 1, std::min(resident, max_blocks)));
}

}  // namespace allreduce
