// The look-back of stage 6 across blocks, one tile per block (tests/test_races.cpp): the
// stage's own kernel is persistent, and on the cpu backend, where one block runs at a time, its
// first block scans every tile, so its look-back never crosses blocks. Here each block takes
// one tile, publishes its value with this track's tile_status and looks back with its
// tile_look_back (tile_lookback.cuh): every look-back reads what earlier blocks published,
// through the flags and fences the lesson is about.
#include <cstdint>
#include <vector>

#include "lookback_chain.hpp"
#include "tile_lookback.cuh"
#include "wb/device_buffer.hpp"
#include "wb/kernel.hpp"

namespace scan::testing {
namespace {

namespace track = ::scan::WB_TRACK;

// One warp per block: its tile's exclusive prefix from the tiles before it, plus its own value.
// Tiles are numbered in the order blocks start (a ticket), so a block looks back only at blocks
// that have started (S4).
template <class T>
__global__ void lookback_chain_kernel(const T* values, T* inclusive, unsigned* ticket, track::tile_status<T> status) {
  __shared__ unsigned drawn;
  if (threadIdx.x == 0) drawn = atomicAdd(ticket, 1u);
  __syncthreads();
  const std::int64_t tile = drawn;
  // The tile's aggregate first (status partial; tile 0 publishes its inclusive value in the look-back).
  if (tile != 0 && threadIdx.x == 0) status.publish(tile, track::tile_partial, values[tile]);
  const T exclusive = track::tile_look_back(status, tile, values[tile]);
  if (threadIdx.x == 0) inclusive[tile] = plus(exclusive, values[tile]);
}

}  // namespace

template <class T>
std::vector<T> lookback_chain(const std::vector<T>& values) {
  const auto tiles = static_cast<std::int64_t>(values.size());
  wb::device_buffer<T> d_values(values), d_out(values.size());
  d_out.fill_bytes(0xA5);
  wb::workspace_buffer ws(64 + 3 * piece_bytes_for<T>(tiles));
  carver pieces(ws.view(), "lookback_chain");
  auto* ticket = pieces.take<unsigned>(1);
  const auto status = track::tile_status<T>::carve(pieces, tiles);
  WB_CHECK(cudaMemset(ws.view().bytes, 0, pieces.used()));  // every tile invalid
  if (tiles > 0) {
    wb::launch({dim3(static_cast<unsigned>(tiles)), dim3(32)}, lookback_chain_kernel<T>, d_values.data(), d_out.data(),
               ticket, status);
  }
  WB_CHECK(cudaDeviceSynchronize());
  return d_out.to_host();
}

template std::vector<std::int32_t> lookback_chain<std::int32_t>(const std::vector<std::int32_t>&);
template std::vector<std::int64_t> lookback_chain<std::int64_t>(const std::vector<std::int64_t>&);

}  // namespace scan::testing
