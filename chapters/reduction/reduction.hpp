// The reduction chapter's interface: what every stage computes, how it is configured, and
// the stage functions of both tracks (solutions/reduction/ and exercises/reduction/).
//
// Every stage computes the same thing, the sum of n values:
//
//     sum = in[0] + in[1] + ... + in[n-1]          (0 for n == 0)
//
// stage 0 on the host (the specification), stages 1-5 on the device. A device stage reads
// n items at `in` (device memory), writes the sum to `*out` (device memory), may use the
// scratch memory in `ws`, launches on the default stream and copies nothing to or from the
// host, so it can be timed on its own.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>

#include "wb/check.hpp"
#include "wb/device_buffer.hpp"
#include "wb/workspace.hpp"

namespace reduction {

// ---------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------

// What the sum of T is returned as. R5: a sum of int32 items needs 64 bits (2^31 items of
// INT_MAX sum to about 2^62), so int32 input gives an int64 sum; the other types keep their
// own type (int64 sums wrap past 2^63 exactly as int64 arithmetic does; the checks keep
// their data inside that range).
template <class T>
struct sum_type {
  using type = T;
};
template <>
struct sum_type<std::int32_t> {
  using type = std::int64_t;
};
template <class T>
using sum_t = typename sum_type<T>::type;

// ---------------------------------------------------------------------------------------
// Launch configuration
// ---------------------------------------------------------------------------------------

inline constexpr int min_block = 32;     // R4: the warp-synchronous tail needs a whole warp
inline constexpr int max_block = 1024;   // CUDA's limit on threads per block
inline constexpr std::int64_t max_blocks = std::int64_t{1} << 20;  // partial sums: 8 MiB at most

struct config {
  int block = 256;          // threads per block: a power of two from 32 to 1024 (R2, R4)
  std::int64_t blocks = 0;  // blocks of the first pass; 0: enough to fill the GPU once
};

// Throws std::invalid_argument with a message that says what is wrong and what is allowed:
// R2, a block size that is not a power of two (the log-step tree would drop partials);
// R4, fewer than 32 threads (the warp tail would read past the partials); more than 1024;
// a negative or too large block count.
void validate(const config& cfg);

// The block count a stage launches for n items when one block covers `items_per_block`
// items per sweep of its grid-stride loop: cfg.blocks if set, else just enough blocks to
// cover n once, but no more than fill every multiprocessor to its thread limit (a grid-
// stride loop then walks the rest). At least 1, so n == 0 still writes a sum.
std::int64_t grid_blocks(std::int64_t n, const config& cfg, std::int64_t items_per_block);

// How many blocks of `block` threads the device keeps resident at once, counting threads
// only (multiprocessors x min(max threads per SM / block, 32)).
std::int64_t resident_blocks(int block);

// The largest grid any stage launches for n items with cfg: what the workspace must hold.
std::int64_t max_grid_blocks(std::int64_t n, const config& cfg);

// The first pass of stages 1-4 (one item a thread per sweep): validates cfg (R2, R4), sizes
// the grid with grid_blocks, and checks that the workspace holds a partial sum for every
// block (require_partials below; `stage` names the caller in its message).
std::int64_t two_pass_blocks(std::int64_t n, const config& cfg, std::int64_t partials_capacity, const char* stage);

// ---------------------------------------------------------------------------------------
// Scratch memory
// ---------------------------------------------------------------------------------------

// What a stage may use besides its input and output: one partial sum per block of the first
// pass, and a counter for stage 5's last-block-done ticket (zero between launches: the
// last block resets it). The typed pieces of a wb::workspace (carve_workspace).
template <class T>
struct workspace {
  sum_t<T>* partials = nullptr;
  std::int64_t capacity = 0;       // partial sums `partials` holds
  unsigned int* ticket = nullptr;
};

// Throws std::invalid_argument if a grid of `blocks` needs more partials than ws holds.
void require_partials(std::int64_t capacity, std::int64_t blocks, const char* stage);

// Bytes of the workspace every stage can run in on n items with cfg: the partial sums of the
// widest grid (max_grid_blocks), then the ticket.
template <class T>
std::size_t workspace_bytes(std::int64_t n, const config& cfg) {
  return wb::piece_bytes(static_cast<std::size_t>(max_grid_blocks(n, cfg)) * sizeof(sum_t<T>)) +
         wb::piece_bytes(sizeof(unsigned int));
}
// The pieces of `ws` (at least workspace_bytes(n, cfg)), as workspace_bytes lays them out.
template <class T>
workspace<T> carve_workspace(const wb::workspace& ws, std::int64_t n, const config& cfg) {
  wb::carver pieces(ws, "reduction workspace");
  const std::int64_t capacity = max_grid_blocks(n, cfg);
  sum_t<T>* partials = pieces.take<sum_t<T>>(capacity);
  return {partials, capacity, pieces.take<unsigned int>(1)};
}

// Owns a workspace for every stage on n items with cfg: the partials poisoned with 0xA5 (a
// partial nobody wrote shows in the sum), the ticket zero.
template <class T>
class workspace_buffer {
 public:
  workspace_buffer(std::int64_t n, const config& cfg)
      : bytes_(workspace_bytes<T>(n, cfg)), view_(carve_workspace<T>(bytes_.view(), n, cfg)) {
    WB_CHECK(cudaMemset(view_.ticket, 0, sizeof(unsigned int)));
  }
  workspace<T> view() const { return view_; }

 private:
  wb::workspace_buffer bytes_;
  workspace<T> view_;
};

// ---------------------------------------------------------------------------------------
// Checking a floating-point sum
// ---------------------------------------------------------------------------------------

// The most items one thread adds in one sweep of its grid-stride loop, over all stages
// (stage 5: 4 loads of 16 bytes, 4 int32 or float lanes each).
inline constexpr std::int64_t max_items_per_thread_sweep = 16;

// The largest number of roundings any single item goes through on its way into the sum, for
// any stage run on n items with cfg: a thread's grid-stride slice (added one after the
// other), a block's tree or shuffles (at most 2 x log2(1024) steps), then the pass over the
// partial sums (blocks / 32 items a thread, and its tree). The thread count is the smallest
// any stage launches (grid_blocks with max_items_per_thread_sweep items a thread, a quarter
// of that when the grid is sized by occupancy). Capped at n: no order needs more.
std::int64_t rounding_depth(std::int64_t n, const config& cfg);

// Tolerance for a float or double sum, against a reference computed to higher precision:
//     |got - exact| <= depth * eps * sum(|x_i|)
// Any order of summation where each item goes through at most `depth` roundings has an error
// below gamma_depth * sum|x_i|, gamma_d = d*u/(1-d*u) with u = eps/2 (Higham, "Accuracy and
// Stability of Numerical Algorithms", §4.2); d*eps is above gamma_d while d*u <= 1/2. With
// depth = n this is the N*eps*sum|x| bound of any order; the stages' grids give a far smaller
// depth, so the check stays sharp at 2^28 items. Integers: 0, the sums are exact.
template <class T>
double tolerance(double sum_abs, std::int64_t depth) {
  if constexpr (std::is_integral_v<T>) {
    return 0.0;
  } else {
    return static_cast<double>(depth) * std::numeric_limits<T>::epsilon() * sum_abs;
  }
}

// ---------------------------------------------------------------------------------------
// Tracing the tree of one block (--trace)
// ---------------------------------------------------------------------------------------

// A trace draws every thread: at most this many items, in one block of at most this many
// threads (32 unless --block says otherwise).
inline constexpr std::size_t max_trace_items = 64;
inline constexpr int max_trace_block = 128;
inline constexpr int default_trace_block = 32;

// The log-step tree of stages 1 and 2 for `in` in one block of `block` threads, computed on
// the host as the kernels do it: row "load", each thread's grid-stride sum (thread t adds
// in[t], in[t + block], ...), then one row per step, "offset <s>", the partials of the threads
// t < s after partials[t] += partials[t + s]. A line before the first step with offset <= 32
// marks where stage 2 hands the tree to warp 0. Values as sum_t<T>: integers in full (int64
// sums wrap), floating point with 6 significant digits.
template <class T>
std::string trace_tree(std::span<const T> in, int block);
// The root of that tree: the sum stages 1 and 2 compute with one block of `block` threads.
template <class T>
sum_t<T> tree_sum(std::span<const T> in, int block);

}  // namespace reduction

// ---------------------------------------------------------------------------------------
// The stages: both tracks implement track_interface.inl, each in its own namespace.
// ---------------------------------------------------------------------------------------
namespace reduction::solution {
#include "track_interface.inl"
}  // namespace reduction::solution
namespace reduction::exercise {
#include "track_interface.inl"
}  // namespace reduction::exercise

// Explicit instantiations of a device stage for the four input types (used once per stage
// file in each track).
#define REDUCTION_INSTANTIATE_DEVICE_STAGE(name)                                                   \
  template void name<std::int32_t>(const std::int32_t*, std::int64_t, sum_t<std::int32_t>*,       \
                                   const workspace<std::int32_t>&, const config&);                 \
  template void name<std::int64_t>(const std::int64_t*, std::int64_t, sum_t<std::int64_t>*,       \
                                   const workspace<std::int64_t>&, const config&);                 \
  template void name<float>(const float*, std::int64_t, sum_t<float>*, const workspace<float>&,    \
                            const config&);                                                        \
  template void name<double>(const double*, std::int64_t, sum_t<double>*, const workspace<double>&, \
                             const config&);
