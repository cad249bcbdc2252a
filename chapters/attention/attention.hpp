// The attention chapter's interface: what every stage computes, the shape of a problem, and
// the stage functions of both tracks (solutions/attention/ and exercises/attention/).
//
// Every stage computes, for every batch b and head h,
//
//     O = softmax(Q K^T / sqrt(d) + mask) V
//
// with Q and O of seq x d, K and V of kv_seq x d, all four [batch][head][position][dim],
// contiguous, row-major. Without the mask every query sees every key. With `causal` the mask
// is aligned to the bottom right (FlashAttention 2.1 onwards, PyTorch's and cuDNN's decoding
// convention): query i sees keys j <= i + kv_seq - seq, so the last query sees every key and
// a new token appended to a KV cache sees the whole cache. That needs kv_seq >= seq (else the
// first queries would see nothing): anything else is refused.
//
// Stage 0 takes HOST pointers; stages 1-6 take DEVICE pointers, enqueue on the default stream
// and copy nothing between host and device, so they can be timed. Q and O are fp32; K and V
// are fp32 (stages 0-3, 6) or bf16 (stages 4-6), and the arithmetic is fp32 everywhere on the
// device. A problem a stage cannot take throws std::invalid_argument saying why.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "wb/bf16.hpp"
#include "wb/runtime.hpp"
#include "wb/stage.hpp"
#include "wb/workspace.hpp"

namespace attention {

using bf16 = wb::bf16;

inline constexpr std::int64_t max_dim = 256;            // d of these stages (the registers a lane keeps: 8)
inline constexpr std::int64_t max_decode_queries = 16;  // stage 6: a few new tokens per sequence

// The shape of one problem.
struct dims {
  std::int64_t batch = 1;
  std::int64_t heads = 1;
  std::int64_t seq = 1;     // queries per (batch, head)
  std::int64_t kv_seq = 1;  // keys and values per (batch, head)
  std::int64_t dim = 1;     // d: the length of every query, key, value and output row
  bool causal = false;
};

// The keys query i sees are 0 .. visible_end(d, i) - 1: all of them, or with the causal mask
// (bottom-right aligned) those up to i + kv_seq - seq.
__host__ __device__ inline std::int64_t visible_end(const dims& d, std::int64_t i) {
  return d.causal ? i + d.kv_seq - d.seq + 1 : d.kv_seq;
}

// Rows of Q (and of O): batch * heads * seq.
inline std::int64_t query_rows(const dims& d) { return d.batch * d.heads * d.seq; }

template <class T>
struct problem {
  const float* Q = nullptr;  // [batch][heads][seq][dim]
  const T* K = nullptr;      // [batch][heads][kv_seq][dim]
  const T* V = nullptr;      // [batch][heads][kv_seq][dim]
  float* O = nullptr;        // [batch][heads][seq][dim]
  dims d;
};

// 1/sqrt(d) rounded once to fp32 (on the host, in double): every stage multiplies the scores by
// this same number, and the error bound counts one rounding for it.
inline float softmax_scale(std::int64_t dim) { return static_cast<float>(1.0 / std::sqrt(static_cast<double>(dim))); }

// The problems every stage takes (std::invalid_argument otherwise, with `stage` named): sizes
// >= 0, d from 1 to 256, at least one key when there is a query, and for the causal mask
// kv_seq >= seq.
inline void validate(const dims& d, const char* stage) {
  const auto fail = [&](const std::string& why) { throw std::invalid_argument(std::string(stage) + ": " + why); };
  if (d.batch < 0 || d.heads < 0 || d.seq < 0 || d.kv_seq < 0) fail("sizes must not be negative");
  if (d.dim < 1 || d.dim > max_dim) fail("d = " + std::to_string(d.dim) + ": these stages take d from 1 to 256");
  if (d.kv_seq == 0 && query_rows(d) > 0) fail("no keys: softmax over nothing is not defined (kv_seq >= 1)");
  if (d.causal && d.kv_seq < d.seq) {
    fail("the causal mask is aligned to the bottom right (query i sees keys j <= i + kv_seq - seq): it needs "
         "kv_seq >= seq, here kv_seq = " +
         std::to_string(d.kv_seq) + " < seq = " + std::to_string(d.seq));
  }
}

// Stage 6's knob: how many keys one split (one warp's share of the KV cache) covers.
struct decode_config {
  std::int64_t chunk = 0;  // keys per split; 0: the stage's plan (enough splits to fill the GPU)
};

// Both tracks' stage functions (track_interface.inl): tests call this build's track as
// attention::WB_TRACK::..., the executable calls either.
namespace solution {
#include "track_interface.inl"
}  // namespace solution
namespace exercise {
#include "track_interface.inl"
}  // namespace exercise

}  // namespace attention
