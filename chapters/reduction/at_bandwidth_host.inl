// Stage 5's host side, shared by both tracks.
// Included by: solutions/reduction/at_bandwidth.cu and exercises/reduction/at_bandwidth.cu, at
// their end (after at_bandwidth_kernel and kLoadsInFlight).
// Launches: at_bandwidth_kernel (the track file's).
// Here: one launch of one wave of blocks.
#include <algorithm>

namespace reduction::WB_TRACK {

template <class T>
void sum_at_bandwidth(const T* in, std::int64_t n, sum_t<T>* out, const workspace<T>& ws,
                      const config& cfg) {
  using S = sum_t<T>;
  validate(cfg);
  constexpr std::int64_t kItemsPerThread = kLoadsInFlight * (16 / sizeof(T));
  std::int64_t blocks = grid_blocks(n, cfg, cfg.block * kItemsPerThread);
  if (cfg.blocks == 0) {
    // One wave: no more blocks than the GPU runs at once for this kernel (registers may
    // allow fewer than the thread count does), so no block waits for a second wave.
    int per_sm = 0;
    int device = 0;
    int sms = 0;
    WB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, at_bandwidth_kernel<T, S>, cfg.block, 0));
    WB_CHECK(cudaGetDevice(&device));
    WB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    blocks = std::max<std::int64_t>(1, std::min<std::int64_t>(blocks, std::int64_t{per_sm} * sms));
  }
  require_partials(ws.capacity, blocks, "sum_at_bandwidth");

  wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(cfg.block)}, at_bandwidth_kernel<T, S>, out,
             ws.partials, ws.ticket, in, n);
}

REDUCTION_INSTANTIATE_DEVICE_STAGE(sum_at_bandwidth)

}  // namespace reduction::WB_TRACK
