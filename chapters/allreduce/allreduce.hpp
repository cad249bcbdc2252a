// The allreduce chapter's interface: what an all-reduce computes, the buffers it works on, the
// knobs, and (track_interface.inl) the stage functions of both tracks.
//
// The problem (PMPP 4th ed. ch. 20, MPI_Allreduce): G ranks, one per GPU, each hold a vector
// of n elements; afterwards every rank holds the element-wise sum of all G vectors.
//
//     out[r][i] = in[0][i] + in[1][i] + ... + in[G-1][i]     for every rank r and every i < n
//
// Integers are summed exactly, wrapping around past the type's range (two's complement, the
// same on every GPU and in the specification). Floats depend on the order of the additions:
// stage 0 adds in rank order, and so do stages 1, 2 and 4; the ring (stage 3) and NCCL add in
// the ring's order, which differs from element to element. Every stage gives every rank the
// SAME bits, whatever the order.
//
// Conventions (common/README.md):
//   - stage 0 runs on the HOST;
//   - stages 1-5 take the team (the GPUs, one rank each, with a stream per rank) and device
//     buffers; each rank's part is ordered on that rank's stream: it starts after the work
//     queued there before it and the work queued after it sees the result. The host does not
//     wait for the result, except where the stage is the host (stage 1);
//   - in[r] and out[r] are n elements on rank r's device, out[r] != in[r].
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wb/runtime.hpp"  // cudaStream_t

namespace allreduce {

class team;  // team.hpp

// The element types every stage is built for.
#define ALLREDUCE_FOR_EACH_TYPE(X) X(std::int32_t) X(std::int64_t) X(float)

// The most ranks a team may have (one H100 machine has up to 8 GPUs).
inline constexpr int max_ranks = 8;

// One all-reduce: rank r's n inputs in in[r], its n outputs in out[r] (device memory of rank r).
template <class T>
struct buffers {
  std::vector<const T*> in;
  std::vector<T*> out;
  std::int64_t n = 0;
};

// Knobs; 0 means the stage's default.
struct config {
  std::int64_t chunk_bytes = 0;  // stage 3: bytes per piece of a segment (the pipeline's unit); 0: auto
  int blocks = 0;                // stage 4: blocks per rank
  int threads = 0;               // stage 4: threads per block
};

// Stage 3's default pieces: each segment in about 16 of them (a longer pipeline fills and
// drains in a smaller share of the time, but every piece costs the host a copy, a launch and a
// few events to issue), at least 256 KiB each. The limits every stage 4 launch keeps (its
// flags hold one slot per block and rank).
inline constexpr std::int64_t default_pieces_per_segment = 16;
inline constexpr std::int64_t min_default_chunk_bytes = std::int64_t{256} << 10;
inline constexpr std::int64_t min_chunk_bytes = 16;
inline constexpr int max_blocks = 256;
inline constexpr int default_threads = 512;

// The checked configuration for n elements of elem_bytes each: fills in the defaults, throws
// std::invalid_argument naming the knob when it is out of range.
config resolve(const config& requested, std::int64_t n, std::size_t elem_bytes, int ranks);

// Where part p of `parts` equal parts of [0, n) begins, each part starting on a multiple of
// `align` elements (16-byte vectors): the segments of the ring (stage 3) and of the two-shot
// kernel (stage 4). part_begin(0) = 0, part_begin(parts) = n.
std::int64_t part_begin(std::int64_t p, std::int64_t parts, std::int64_t n, std::int64_t align = 1);
// Segments start on multiples of 4 elements: whole 16-byte vectors for every element type.
inline constexpr std::int64_t segment_align = 4;

// One transfer of the ring all-reduce (stage 3): in `phase` (0 reduce-scatter, 1 all-gather),
// at `step` (0 .. G-2), rank `from` sends elements [begin, end) of segment `segment` to rank
// `to` = from + 1 (mod G); `piece` numbers the pieces of a segment (the pipeline).
struct ring_transfer {
  int phase = 0;
  int step = 0;
  int piece = 0;
  int from = 0;
  int to = 0;
  int segment = 0;
  std::int64_t begin = 0;
  std::int64_t end = 0;
  friend bool operator==(const ring_transfer&, const ring_transfer&) = default;
};

// Stage 6, the application: the counting chapter's int8 histogram and int64 distinct counts on
// data split across the team (app.hpp holds its buffers).
struct app_workspace;
enum class exchange_method { nccl, peer_copies };

// The stage functions, declared once per track: solutions/allreduce/ is compiled with
// WB_TRACK=solution, exercises/allreduce/ with WB_TRACK=exercise, and the executable links both
// (--track, --compare).
namespace solution {
#include "track_interface.inl"
}  // namespace solution
namespace exercise {
#include "track_interface.inl"
}  // namespace exercise

}  // namespace allreduce
