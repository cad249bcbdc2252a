// The scan chapter's interface: what every stage computes, how it is configured, and the
// stage functions of both tracks (solutions/scan/ and exercises/scan/).
//
// Every stage computes the same thing, the prefix sums of n values:
//
//     inclusive (default):  out[i] = in[0] + in[1] + ... + in[i]
//     exclusive:            out[i] = in[0] + ... + in[i-1]          (out[0] = 0)
//
// stage 0 on the host (the specification), stages 1-6 on the device. A device stage reads n
// items at `in`, writes n items at `out` (device memory, not overlapping `in`), may use the
// scratch memory in `ws`, launches on the default stream and copies nothing to or from the
// host, so it can be timed on its own.
//
// Arithmetic: integers wrap modulo 2^32 (int32) or 2^64 (int64), as unsigned arithmetic
// does, so a scan of large values is still defined to the last bit. float: every stage
// adds in its own order, so results differ by rounding; see tolerance() below.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "wb/device/plus.hpp"
#include "wb/device_buffer.hpp"
#include "wb/workspace.hpp"
#include "wb/runtime.hpp"

namespace scan {

// ---------------------------------------------------------------------------------------
// The operator
// ---------------------------------------------------------------------------------------

// a + b, wrapping for integers (signed overflow is undefined in C++; unsigned wraps): the
// device layer's sum (common/include/wb/device/plus.hpp), which every stage adds with.
using wb::device::plus;

// ---------------------------------------------------------------------------------------
// Launch configuration
// ---------------------------------------------------------------------------------------

inline constexpr int min_block = 32;    // one warp
inline constexpr int max_block = 1024;  // CUDA's limit on threads per block
inline constexpr int max_items_per_thread = 32;
inline constexpr int max_section_items = 16384;  // block x items of stages 3-5 (shared memory)
inline constexpr std::int64_t max_single_pass_tile_bytes = 65536;  // stage 6: two tiles in shared memory

struct config {
  int block = 256;            // threads per block: a power of two from 32 to 1024
  int items_per_thread = 0;   // stages 3-6; 0: the stage's default (default_items)
  bool exclusive = false;     // exclusive scan instead of inclusive
};

// Items per thread a stage uses with cfg: cfg.items_per_thread, or 8 for stages 3-5 and
// 128 bytes' worth (32 int32/float, 16 int64) for stage 6, at most 64 KiB a tile.
int items_for(int stage, const config& cfg, std::size_t item_bytes);

// Stage 6 on n items: items_for(6, ...), halved while the input would fill fewer than
// min_single_pass_tiles tiles (down to two 16-byte vectors a thread), unless cfg sets the items
// per thread. A small input in a few large tiles keeps a few SMs busy while the rest wait; in
// more, smaller tiles, more SMs pull it in.
inline constexpr std::int64_t min_single_pass_tiles = 128;  // about one tile per SM (132 on an H100)
inline constexpr int min_single_pass_thread_bytes = 32;     // two 16-byte vectors, the smallest tiles
int single_pass_items(std::int64_t n, const config& cfg, std::size_t item_bytes);

// Stage 6's persistent grid of resident_blocks blocks scans `tiles` tiles in rounds. True where
// there are more than one and fewer than three rounds: the last round then keeps only part of
// the GPU busy for a whole tile's time, a large share of the run, and the stage halves the
// tile (where cfg leaves it the choice) to even the rounds out. From three rounds up, the
// idle share is small and large tiles' fewer look-backs win.
bool single_pass_rounds_uneven(std::int64_t tiles, std::int64_t resident_blocks);

// Throws std::invalid_argument naming what is wrong and what is allowed: a block size that is
// not a power of two from 32 to 1024 (Kogge-Stone's and Brent-Kung's log steps need one);
// items per thread not 0 or a power of two from 16 / sizeof(T) (stage 6 loads 16-byte
// vectors) to 32; a section (block x items) past 16384 items; a stage-6 tile past 64 KiB.
void validate(const config& cfg, std::size_t item_bytes);

// ---------------------------------------------------------------------------------------
// Scratch memory
// ---------------------------------------------------------------------------------------

// Bytes the stages may use besides input and output: block sums (stage 4), flags and
// carries (stage 5), tile status words (stage 6), tile counters. Carved by `carver`.
using wb::carver;
using wb::workspace;

// The most any stage needs for n items of item_bytes each with cfg.
std::size_t workspace_bytes(std::int64_t n, std::size_t item_bytes, const config& cfg);

// Owns a workspace large enough for every stage on n items of T with cfg.
template <class T>
class workspace_buffer : public wb::workspace_buffer {
 public:
  workspace_buffer(std::int64_t n, const config& cfg) : wb::workspace_buffer(workspace_bytes(n, sizeof(T), cfg)) {}
};

// ---------------------------------------------------------------------------------------
// Checking a floating-point scan
// ---------------------------------------------------------------------------------------

// The most roundings any output of any stage goes through for n items: a chain of running
// totals across sections or tiles (at most one per 32 items, the smallest section), plus the
// steps inside a section (a thread's items, two log2(1024) trees, a 32-tile look-back
// window). Capped at n: a sequential scan needs no more.
std::int64_t rounding_depth(std::int64_t n);

// Tolerance for out[i] of a float scan, against prefix sums computed in double:
//     |got - exact| <= depth * eps * (|x_0| + ... + |x_i|)
// Any order of additions in which each item meets at most `depth` roundings stays within
// gamma_depth * sum|x| (Higham, "Accuracy and Stability of Numerical Algorithms", §4.2).
// Integers: 0, the scan is exact (modulo 2^bits).
template <class T>
double tolerance(double prefix_abs, std::int64_t depth) {
  if constexpr (std::is_integral_v<T>) {
    return 0.0;
  } else {
    return static_cast<double>(depth) * std::numeric_limits<T>::epsilon() * prefix_abs;
  }
}

// ---------------------------------------------------------------------------------------
// Traces for tiny inputs (--trace): each step's value per thread, as the book's figures
// draw them. Host simulations of the stages' steps, written for reading, then what each
// track's kernel computes on the same input; `failing` (when given) collects the tracks whose
// kernel got an item wrong or failed to run.
// ---------------------------------------------------------------------------------------
template <class T>
std::string trace_kogge_stone(std::span<const T> in, std::vector<std::string>* failing = nullptr);
template <class T>
std::string trace_brent_kung(std::span<const T> in, std::vector<std::string>* failing = nullptr);
inline constexpr std::size_t max_trace_items = 32;

}  // namespace scan

// ---------------------------------------------------------------------------------------
// The stages: both tracks implement track_interface.inl, each in its own namespace.
// ---------------------------------------------------------------------------------------
namespace scan::solution {
#include "track_interface.inl"
}  // namespace scan::solution
namespace scan::exercise {
#include "track_interface.inl"
}  // namespace scan::exercise

// Explicit instantiations of a device stage for the three types (once per stage file).
#define SCAN_INSTANTIATE_DEVICE_STAGE(name)                                                                   \
  template void name<std::int32_t>(const std::int32_t*, std::int32_t*, std::int64_t, const workspace&,      \
                                   const config&);                                                           \
  template void name<std::int64_t>(const std::int64_t*, std::int64_t*, std::int64_t, const workspace&,      \
                                   const config&);                                                           \
  template void name<float>(const float*, float*, std::int64_t, const workspace&, const config&);
