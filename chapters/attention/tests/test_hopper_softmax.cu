// Stage 5's softmax on the wgmma accumulators (hopper/softmax.cuh), on every machine: one
// warpgroup of 128 threads holds a 64 x 32 tile of scores in wgmma's accumulator layout
// (wb/device/wgmma_layout.hpp), masks it, takes two online-softmax steps, rescales an output
// tile, converts P to the bf16 operand and adds up the quads' sums. Each result is compared with
// the same row computed plainly on the host. The kernels that use these functions need an
// sm_90 GPU (test_gpu.cpp); these checks run on the cpu backend too, so that a learner's
// softmax.cuh is checked there.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "test_support.hpp"
#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#include "wb/kernel.hpp"
#include "wb/launch.hpp"

#include "hopper/softmax.cuh"

using namespace attention;
namespace hop = attention::WB_TRACK::hopper;

namespace {

constexpr int rows = 64, keys = 32, tiles = 2, regs = keys / 2;  // 16 accumulators a thread
constexpr int threads = 128;

// Per thread: its two rows' m and l after both tiles (l summed over the quad), the last
// tile's p, an output row rescaled by both steps' alphas, and P's bf16 operand of the last tile.
__global__ void softmax_tiles(const float* S, const std::int64_t* row_end, float scale_log2, float* m_out,
                              float* l_out, float* p_out, float* o_out, std::uint32_t* operand_out) {
  const int t = static_cast<int>(threadIdx.x);
  hop::row_state st;
  float o[regs] = {};
  const std::int64_t end[2] = {row_end[wb::device::wgmma_accumulator_row(t, 0)],
                               row_end[wb::device::wgmma_accumulator_row(t, 2)]};
  float s[regs];
  for (int tile = 0; tile < tiles; ++tile) {
    for (int i = 0; i < regs; ++i) {
      s[i] = S[(tile * rows + wb::device::wgmma_accumulator_row(t, i)) * keys + wb::device::wgmma_accumulator_col(t, i)];
    }
    hop::mask_scores(s, t % 32, std::int64_t{tile} * keys, end);
    float alpha[2];
    hop::softmax_step(s, st, scale_log2, alpha);
    if (tile == 0) {
      for (int i = 0; i < regs; ++i) o[i] = 1.0f;  // an output after the first tile, then rescaled
    } else {
      hop::rescale(o, alpha);
    }
  }
  std::uint32_t operand[regs / 8][4];
  hop::to_bf16_operand(s, operand);
  hop::finish_sums(st);
  for (int i = 0; i < regs; ++i) {
    const int e = wb::device::wgmma_accumulator_row(t, i) * keys + wb::device::wgmma_accumulator_col(t, i);
    p_out[e] = s[i];
    o_out[e] = o[i];
  }
  for (int kk = 0; kk < regs / 8; ++kk) {
    for (int j = 0; j < 4; ++j) operand_out[(t * (regs / 8) + kk) * 4 + j] = operand[kk][j];
  }
  if (t % 4 == 0) {
    for (int h = 0; h < 2; ++h) {
      const int row = wb::device::wgmma_accumulator_row(t, 2 * h);
      m_out[row] = st.m[h];
      l_out[row] = st.l[h];
    }
  }
}

struct softmax_result {
  std::vector<float> m, l, p, o;
  std::vector<std::uint32_t> operand;
};

softmax_result run(const std::vector<float>& S, const std::vector<std::int64_t>& row_end, float scale_log2) {
  wb::device_buffer<float> dS(S), m(rows), l(rows), p(rows * keys), o(rows * keys);
  wb::device_buffer<std::int64_t> end(row_end);
  wb::device_buffer<std::uint32_t> operand(threads * regs / 2);
  for (auto* b : {&m, &l, &p, &o}) b->fill_bytes(0x7F);
  operand.fill_bytes(0);
  wb::launch({dim3(1), dim3(threads), 0}, softmax_tiles, dS.data(), end.data(), scale_log2, m.data(), l.data(),
             p.data(), o.data(), operand.data());
  WB_CHECK(cudaDeviceSynchronize());
  return {m.to_host(), l.to_host(), p.to_host(), o.to_host(), operand.to_host()};
}

// "row 3: l 1.5 (expected 2)": a message from its pieces (fmt stays out of this .cu file: nvcc's
// host pass at -O0 rejects fmt's constexpr code).
template <class... Parts>
std::string text(const Parts&... parts) {
  std::string out;
  const auto add = [&](const auto& p) {
    if constexpr (std::is_arithmetic_v<std::decay_t<decltype(p)>>) out += std::to_string(p);
    else out += p;
  };
  (add(parts), ...);
  return out;
}

std::uint16_t bf16_bits(float x) {
  const wb::bf16 b = wb::to_bf16(x);
  std::uint16_t bits;
  std::memcpy(&bits, &b, sizeof bits);
  return bits;
}

}  // namespace

TEST_SUITE("attention/5 hopper") {
  TEST_CASE("the online softmax on wgmma's accumulators: mask, two tiles, rescale, P's operand, the quads' sums") {
    const float scale = softmax_scale(64), scale_log2 = scale * 1.4426950408889634f;
    std::vector<float> S = wb::gen::uniform<float>(tiles * rows * keys, wb::testing::seed(70), -8.0f, 8.0f);
    // Row r sees keys below end[r]: all 64, or fewer (a causal diagonal, kv_seq inside a tile);
    // every row sees key 0. Row 5's largest score comes in the second tile (its max grows).
    std::vector<std::int64_t> row_end(rows);
    for (int r = 0; r < rows; ++r) row_end[r] = r % 3 == 0 ? tiles * keys : 1 + (r * 7) % (tiles * keys);
    row_end[5] = tiles * keys;
    S[(rows + 5) * keys + 3] = 40.0f;
    const softmax_result got = run(S, row_end, scale_log2);

    for (int r = 0; r < rows; ++r) {
      CAPTURE(r);
      const auto score = [&](int key) { return static_cast<double>(S[((key / keys) * rows + r) * keys + key % keys]); };
      double m = -INFINITY, m_first = -INFINITY;
      for (int key = 0; key < row_end[r]; ++key) {
        m = std::max(m, score(key));
        if (key < keys) m_first = std::max(m_first, score(key));
      }
      double l = 0;
      for (int key = 0; key < row_end[r]; ++key) l += std::exp(scale * (score(key) - m));
      REQUIRE_MESSAGE(got.m[r] == static_cast<float>(m), text("row ", r, ": m ", got.m[r], " (expected ", m, ")"));
      REQUIRE_MESSAGE(std::fabs(got.l[r] - l) <= 1e-5 * l,
                      text("row ", r, ": l ", got.l[r], " (expected ", l, ": the sum over the quad, rescaled)"));
      // The output was 1 after the first tile, then rescaled by alpha = exp(scale (m_first - m)).
      const double o = std::exp(scale * (m_first - m));
      for (int c = 0; c < keys; ++c) {
        const int key = keys + c;  // the last tile
        const double p = key < row_end[r] ? std::exp(scale * (score(key) - m)) : 0.0;
        const float got_p = got.p[r * keys + c];
        REQUIRE_MESSAGE(std::fabs(got_p - p) <= 1e-5 * std::max(p, 1e-30) + 1e-30,
                        text("row ", r, ", key ", key, ": p ", got_p, " (expected ", p, "; past its end: 0)"));
        REQUIRE_MESSAGE(std::fabs(got.o[r * keys + c] - o) <= 1e-5 * o + 1e-30,
                        text("row ", r, ": O rescaled to ", got.o[r * keys + c], " (expected ", o, ")"));
      }
    }
    // P's operand: thread t's register (kk, j) holds accumulators 8 kk + 2 j (low half) and + 1.
    for (int t = 0; t < threads; ++t) {
      for (int kk = 0; kk < regs / 8; ++kk) {
        for (int j = 0; j < 4; ++j) {
          const int i = 8 * kk + 2 * j;
          const auto at = [&](int a) {
            return got.p[wb::device::wgmma_accumulator_row(t, a) * keys + wb::device::wgmma_accumulator_col(t, a)];
          };
          const std::uint32_t expected = bf16_bits(at(i)) | (std::uint32_t{bf16_bits(at(i + 1))} << 16);
          REQUIRE_MESSAGE(got.operand[(t * (regs / 8) + kk) * 4 + j] == expected,
                          text("thread ", t, ", P operand register [", kk, "][", j, "]"));
        }
      }
    }
  }
}
