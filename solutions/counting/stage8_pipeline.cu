// Stage 8: data larger than one transfer: the article's chunked host pipeline, fixed (int8).
//
// cdpDistCountLaunch (the DCA article) walks the data in chunks, one stream per chunk, but:
//   D10  it copies CHUNK_SIZE_HOST - 1 bytes of each chunk and never the rest of the input
//        after the last whole chunk: items are lost;
//   D11  after every chunk it synchronises the whole device (cudaStreamSynchronize,
//        cudaThreadSynchronize, cudaDeviceSynchronize), allocates and frees managed memory,
//        copies the chunk's table back and merges it on the host by linear search: copies
//        and counting never overlap, and the host merge is O(N k).
// Here: the input sits in pinned host memory (so the copy engine can read it while kernels
// run); chunk c is copied into buffer c % S on stream c % S and counted there by stage 6's
// kernel straight into ONE set of 256 device counters (its atomics make the streams' adds
// safe), so while chunk c is counted chunk c+1 is already on its way. Stream order alone keeps
// a buffer from being refilled before its count is done: same stream, in order. No host
// synchronisation and no host merge until the table is written at the end, on the default
// stream after every stream is done (events). Every chunk is copied whole, the last one
// shorter (chunks.hpp, D10).
#include <stdexcept>
#include <vector>

#include "chunks.hpp"
#include "counting.hpp"
#include "histogram_table.hpp"
#include "wb/kernel.hpp"

namespace counting::WB_TRACK {

namespace {

// Events that only order streams need no timestamps. (The cpu backend's runtime has no such
// flag; its streams run in order anyway.)
#if defined(WB_BACKEND_CUDA)
constexpr unsigned order_only_event = cudaEventDisableTiming;
#else
constexpr unsigned order_only_event = cudaEventDefault;
#endif

constexpr std::size_t bins_bytes = detail::histogram_bins * sizeof(std::uint64_t);
constexpr std::size_t buffer_alignment = 256;

std::size_t buffer_stride(const config& cfg) {
  const auto bytes = static_cast<std::size_t>(cfg.chunk_items);
  return (bytes + buffer_alignment - 1) / buffer_alignment * buffer_alignment;
}

// Streams and events for one call, released even when a check throws.
struct pipeline_streams {
  std::vector<cudaStream_t> streams;
  std::vector<cudaEvent_t> done;
  explicit pipeline_streams(int count) {
    for (int s = 0; s < count; ++s) {
      cudaStream_t stream = nullptr;
      WB_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
      streams.push_back(stream);
      cudaEvent_t event = nullptr;
      WB_CHECK(cudaEventCreateWithFlags(&event, order_only_event));
      done.push_back(event);
    }
  }
  ~pipeline_streams() {
    for (cudaEvent_t e : done) cudaEventDestroy(e);
    for (cudaStream_t s : streams) cudaStreamDestroy(s);
  }
};

}  // namespace

std::size_t count_pipelined_workspace_bytes(const config& cfg) {
  return bins_bytes + static_cast<std::size_t>(cfg.streams) * buffer_stride(cfg);
}

void count_pipelined(const std::int8_t* host_in, std::int64_t n, device_table<std::int8_t> out, workspace ws,
                     const config& cfg) {
  validate(cfg);
  if (ws.size < count_pipelined_workspace_bytes(cfg)) throw std::invalid_argument("count_pipelined: workspace too small");
  auto* bins = reinterpret_cast<std::uint64_t*>(ws.bytes);
  auto* buffers = ws.bytes + bins_bytes;
  WB_CHECK(cudaMemsetAsync(bins, 0, bins_bytes));

  const std::int64_t chunks = chunk_count(n, cfg.chunk_items);
  const int used = static_cast<int>(chunks < cfg.streams ? chunks : cfg.streams);
  if (used > 0) {
    pipeline_streams p(used);
    // The streams are non-blocking: they start after the memset only because they wait for it.
    cudaEvent_t zeroed = nullptr;
    WB_CHECK(cudaEventCreateWithFlags(&zeroed, order_only_event));
    WB_CHECK(cudaEventRecord(zeroed, 0));
    for (int s = 0; s < used; ++s) WB_CHECK(cudaStreamWaitEvent(p.streams[s], zeroed, 0));
    WB_CHECK(cudaEventDestroy(zeroed));

    for (std::int64_t c = 0; c < chunks; ++c) {
      const int s = static_cast<int>(c % used);
      const chunk_range r = chunk_bounds(c, cfg.chunk_items, n);  // D10: the whole chunk, the last one too
      auto* buffer = reinterpret_cast<std::int8_t*>(buffers + static_cast<std::size_t>(s) * buffer_stride(cfg));
      WB_CHECK(cudaMemcpyAsync(buffer, host_in + r.begin, static_cast<std::size_t>(r.end - r.begin),
                               cudaMemcpyHostToDevice, p.streams[s]));
      histogram_privatized_accumulate(buffer, r.end - r.begin, bins, cfg, p.streams[s]);
      // D11: nothing here waits; the next chunk's copy is queued at once.
    }
    // The default stream waits for every stream, then writes the one table.
    for (int s = 0; s < used; ++s) {
      WB_CHECK(cudaEventRecord(p.done[s], p.streams[s]));
      WB_CHECK(cudaStreamWaitEvent(0, p.done[s], 0));
    }
  }
  detail::write_histogram_table(bins, out);
}

}  // namespace counting::WB_TRACK
