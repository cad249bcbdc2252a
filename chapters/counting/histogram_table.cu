// The one-block kernel behind detail::write_histogram_table (see histogram_table.cuh).
#include "histogram_table.cuh"

namespace counting::detail {

namespace {
__global__ void histogram_table_kernel(const std::uint64_t* bins, device_table<std::int8_t> out) {
  block_write_histogram_table(bins, out);
}
}  // namespace

void write_histogram_table(const std::uint64_t* bins, device_table<std::int8_t> out, cudaStream_t stream) {
  wb::launch({1, histogram_bins, 0, stream}, histogram_table_kernel, bins, out);
}

}  // namespace counting::detail
