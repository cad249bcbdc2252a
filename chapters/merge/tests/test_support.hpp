// Helpers shared by the merge checks: the independent reference (std::merge), a runner that
// puts a case on the device, poisons the output and runs one stage of this build's track.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#include "wb/testing.hpp"

#include "data.hpp"
#include "merge.hpp"

namespace merge::testing {

namespace track = merge::WB_TRACK;

template <class K>
struct merged {
  std::vector<K> C;
  std::vector<value_t> C_val;  // empty for a keys-only merge
};

// The reference: std::merge, which is stable (an element of the first range goes before an
// equal one of the second), on (key, value) pairs compared by key only.
template <class K>
merged<K> reference(const std::vector<K>& A, const std::vector<K>& B, bool with_values) {
  const auto A_val = tag_values(static_cast<std::int64_t>(A.size()), 0);
  const auto B_val = tag_values(static_cast<std::int64_t>(B.size()), 1'000'000'000);
  std::vector<std::pair<K, value_t>> a, b, c(A.size() + B.size());
  for (std::size_t i = 0; i < A.size(); ++i) a.emplace_back(A[i], A_val[i]);
  for (std::size_t j = 0; j < B.size(); ++j) b.emplace_back(B[j], B_val[j]);
  std::merge(a.begin(), a.end(), b.begin(), b.end(), c.begin(),
             [](const auto& x, const auto& y) { return x.first < y.first; });
  merged<K> out;
  for (const auto& [key, value] : c) {
    out.C.push_back(key);
    if (with_values) out.C_val.push_back(value);
  }
  return out;
}

// The poison the outputs are filled with before a stage runs: an output nobody wrote
// shows up as this value (for int32 -1515870811; floats -2.9e-16).
inline constexpr unsigned char output_poison = 0xA5;

// Runs one stage (0: the host specification; 2-6: kernels) of this build's track.
template <class K>
merged<K> run_stage(int stage, const std::vector<K>& A, const std::vector<K>& B, bool with_values,
                    const config& cfg = {}) {
  wb::testing::expect_stage_in_reach(stage);
  const auto m = static_cast<std::int64_t>(A.size());
  const auto n = static_cast<std::int64_t>(B.size());
  const auto A_val = tag_values(m, 0);
  const auto B_val = tag_values(n, 1'000'000'000);
  merged<K> out;
  if (stage == 0) {  // host memory
    std::vector<K> C(A.size() + B.size());
    std::vector<value_t> C_val(with_values ? C.size() : 0);
    std::fill_n(reinterpret_cast<unsigned char*>(C.data()), C.size() * sizeof(K), output_poison);
    std::fill_n(reinterpret_cast<unsigned char*>(C_val.data()), C_val.size() * sizeof(value_t), output_poison);
    problem<K> p{A.data(), m, B.data(), n, C.data()};
    if (with_values) {
      p.A_val = A_val.data();
      p.B_val = B_val.data();
      p.C_val = C_val.data();
    }
    track::merge_sequential_host(p);
    out.C = std::move(C);
    out.C_val = std::move(C_val);
    return out;
  }
  wb::device_buffer<K> d_A(A), d_B(B), d_C(A.size() + B.size());
  wb::device_buffer<value_t> d_A_val(with_values ? A_val : std::vector<value_t>{});
  wb::device_buffer<value_t> d_B_val(with_values ? B_val : std::vector<value_t>{});
  wb::device_buffer<value_t> d_C_val(with_values ? A.size() + B.size() : 0);
  d_C.fill_bytes(output_poison);
  d_C_val.fill_bytes(output_poison);
  problem<K> p{d_A.data(), m, d_B.data(), n, d_C.data()};
  if (with_values) {
    p.A_val = d_A_val.data();
    p.B_val = d_B_val.data();
    p.C_val = d_C_val.data();
  }
  switch (stage) {
    case 2: track::merge_basic(p, cfg); break;
    case 3: track::merge_tiled(p, cfg); break;
    case 4: track::merge_circular(p, cfg); break;
    case 5: track::merge_coarsened(p, cfg); break;
    case 6: {
      const std::size_t temp_bytes = track::merge_at_bandwidth_temp_bytes<K>(m, n, cfg, with_values);
      wb::device_buffer<unsigned char> temp(temp_bytes);
      track::merge_at_bandwidth(p, temp.data(), temp_bytes, cfg);
      WB_CHECK(cudaDeviceSynchronize());
      break;
    }
    default: FAIL("no such stage: " << stage);
  }
  WB_CHECK(cudaDeviceSynchronize());
  out.C = d_C.to_host();
  if (with_values) out.C_val = d_C_val.to_host();
  return out;
}

// The launch shape, in the fields the stage uses (0: the stage's default): block (stages 2-6),
// tile (3, 4), items per thread (2, 5, 6), grid (2-4).
inline std::string describe(int stage, const config& c) {
  if (c.block == 0 && c.tile == 0 && c.items_per_thread == 0 && c.grid == 0) return "default launch shape";
  std::ostringstream s;
  const auto field = [&](const char* name, std::int64_t value) {
    s << (s.tellp() > 0 ? ", " : "") << name << " ";
    if (value == 0) s << "default";
    else s << value;
  };
  if (stage >= 2) field("block", c.block);
  if (stage == 3 || stage == 4) field("tile", c.tile);
  if (stage == 2 || stage == 5 || stage == 6) field("items/thread", c.items_per_thread);
  if (stage >= 2 && stage <= 4) field("grid", c.grid);
  return s.str();
}

// Checks one stage on one case against the reference, with the case in the message.
template <class K>
void check_case(int stage, const std::vector<K>& A, const std::vector<K>& B, bool with_values, const config& cfg,
                const std::string& what) {
  K unwritten;  // what an output no thread wrote reads as
  std::memset(&unwritten, output_poison, sizeof(K));
  INFO("stage " << stage << ", " << std::string(key_name<K>()) << ", m=" << A.size() << ", n=" << B.size() << ", "
                << (with_values ? "key-value" : "keys only") << ", " << describe(stage, cfg) << ", " << what
                << " (an output nobody wrote reads " << unwritten << ")");
  // A small input in full, so that the failure can be tried by hand (wb run merge --a ... --b ...).
  INFO((A.size() + B.size() <= 32 ? "A = " + wb::testing::values_text(A) + ", B = " + wb::testing::values_text(B)
                                   : std::string()));
  const merged<K> expected = reference(A, B, with_values);
  const merged<K> got = run_stage(stage, A, B, with_values, cfg);
  WB_CHECK_EQUAL_SEQ(expected.C, got.C);
  if (with_values) WB_CHECK_EQUAL_SEQ(expected.C_val, got.C_val);
}

// Sizes just below, at and above each boundary in `boundaries` (for m + n), split between A
// and B in a few ways, plus the degenerate ones.
std::vector<std::pair<std::int64_t, std::int64_t>> boundary_sizes(const std::vector<std::int64_t>& boundaries,
                                                                  std::uint64_t seed);

// Every distribution x the given sizes x {keys only, key-value} for one key type and config.
template <class K>
void check_battery(int stage, const config& cfg, const std::vector<std::pair<std::int64_t, std::int64_t>>& sizes,
                   std::uint64_t seed) {
  std::uint64_t case_seed = seed;
  for (const distribution d : all_distributions()) {
    for (const auto& [m, n] : sizes) {
      const auto A = sorted_keys<K>(m, d, ++case_seed, 0);
      const auto B = sorted_keys<K>(n, d, case_seed, 1);
      const bool with_values = (case_seed % 3) == 0;  // a third of the cases carry values
      check_case(stage, A, B, with_values, cfg, "dist " + to_string(d));
    }
  }
}

// Whether the kernels of tests/defective_variants.cu run here (see defective_variants.hpp): the cpu backend.
inline constexpr bool defective_kernels_run = !wb::backend_is_cuda;

// Small sorted arrays with 1-4 distinct keys: duplicates within and across A and B.
inline std::vector<std::int32_t> small_sorted(wb::gen::rng& rng, std::int64_t size, std::int32_t distinct) {
  std::vector<std::int32_t> v(static_cast<std::size_t>(size));
  for (auto& x : v) x = static_cast<std::int32_t>(rng.below(static_cast<std::uint64_t>(distinct)));
  std::sort(v.begin(), v.end());
  return v;
}

// Places a sorted sequence into a circular buffer of `tile` slots starting at `start`.
inline std::vector<std::int32_t> to_circular(const std::vector<std::int32_t>& linear, int start, int tile) {
  std::vector<std::int32_t> buffer(static_cast<std::size_t>(tile), -999);
  for (std::size_t v = 0; v < linear.size(); ++v) buffer[(start + v) % tile] = linear[v];
  return buffer;
}

}  // namespace merge::testing
