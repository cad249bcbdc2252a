// The host side of stage 5 (included at the end of both tracks' onesweep.cu): the histogram
// and bucket starts once, then one kernel per 8-bit digit, ping-ponging between the output
// and a buffer of the workspace so that the last pass lands in the output.
#include <cstddef>
#include <stdexcept>

namespace sort::WB_TRACK {

template <class K>
void sort_onesweep(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                   std::int64_t n, const workspace& ws, const config& cfg) {
  validate(cfg);
  if (n == 0) return;
  using U = bits_of<K>;
  const int passes = static_cast<int>(sizeof(U) * 8) / onesweep_bits;
  const int items = items_for(5, cfg);
  const std::int64_t tile = static_cast<std::int64_t>(cfg.block) * items;
  const std::int64_t tiles = (n + tile - 1) / tile;
  if (tiles > 2147483647) throw std::invalid_argument("sort_onesweep: more than 2^31 - 1 tiles");
  carver pieces(ws, "sort_onesweep");
  K* other_keys = pieces.take<K>(n);
  std::uint32_t* other_values = pieces.take<std::uint32_t>(n);
  auto* histogram = pieces.take<unsigned long long>(passes * 256);
  auto* starts = pieces.take<unsigned long long>(passes * 256);
  auto* counters = pieces.take<unsigned>(passes);
  auto* status = pieces.take<unsigned long long>(tiles * 256);
  WB_CHECK(cudaMemsetAsync(histogram, 0, static_cast<std::size_t>(passes) * 256 * 8));
  WB_CHECK(cudaMemsetAsync(counters, 0, static_cast<std::size_t>(passes) * 4));
  const int histogram_blocks = static_cast<int>(std::min<std::int64_t>((n + 4095) / 4096, 1024));
  wb::launch({dim3(histogram_blocks), dim3(256)}, onesweep_histogram_kernel<K>, keys_in, n, passes, histogram);
  wb::launch({dim3(1), dim3(32)}, onesweep_bucket_starts_kernel, histogram, starts, passes);
  const std::size_t shared =
      2 * static_cast<std::size_t>(tile) * (sizeof(U) + 4) + static_cast<std::size_t>(cfg.block) * 4 + 256 * 4;
  const bool with_values = values_in != nullptr;
  const K* src_keys = keys_in;
  const std::uint32_t* src_values = values_in;
  for (int pass = 0; pass < passes; ++pass) {
    const bool last_lands_in_output = (passes - 1 - pass) % 2 == 0;
    K* dst_keys = last_lands_in_output ? keys_out : other_keys;
    std::uint32_t* dst_values = with_values ? (last_lands_in_output ? values_out : other_values) : nullptr;
    WB_CHECK(cudaMemsetAsync(status, 0, static_cast<std::size_t>(tiles) * 256 * 8));
    wb::launch({dim3(static_cast<unsigned>(tiles)), dim3(cfg.block), shared}, onesweep_pass_kernel<K>, src_keys,
               src_values, dst_keys, dst_values, n, pass * onesweep_bits, items, starts + pass * 256,
               counters + pass, status);
    src_keys = dst_keys;
    src_values = dst_values;
  }
}

SORT_INSTANTIATE_DEVICE_STAGE(sort_onesweep)

}  // namespace sort::WB_TRACK
