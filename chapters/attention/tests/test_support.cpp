#include "test_support.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#include "wb/race_check.hpp"

#include "error_bound.hpp"
#include "stages.hpp"

namespace attention::testing {

namespace {
const bool registered = wb::testing::register_stages(attention::stages);

float round_bf16(float x) { return wb::to_float(wb::to_bf16(x)); }
}  // namespace

std::string describe(const dims& d) {
  return fmt::format("batch {}, heads {}, seq {}, kv_seq {}, d {}{}", d.batch, d.heads, d.seq, d.kv_seq, d.dim,
                     d.causal ? ", causal" : "");
}

inputs make_inputs(const dims& d, std::uint64_t seed, fill f, bool half) {
  inputs in;
  in.d = d;
  in.half = half;
  const auto q_count = static_cast<std::size_t>(query_rows(d) * d.dim);
  const auto kv_count = static_cast<std::size_t>(d.batch * d.heads * d.kv_seq * d.dim);
  const float reach = f == fill::large ? 12.0f : 1.0f;
  in.Q = f == fill::equal ? std::vector<float>(q_count, 0.0f) : wb::gen::uniform<float>(q_count, seed, -reach, reach);
  in.K = wb::gen::uniform<float>(kv_count, seed + 1, -reach, reach);
  in.V = wb::gen::uniform<float>(kv_count, seed + 2, -1.0f, 1.0f);
  if (f == fill::large && d.seq > 0 && d.kv_seq > 0) {
    // The last key (every query sees it) is the first query: that score is |q|^2 / sqrt(d),
    // about 48 sqrt(d): past 88.7 for every d.
    for (std::int64_t bh = 0; bh < d.batch * d.heads; ++bh) {
      std::copy_n(in.Q.begin() + bh * d.seq * d.dim, d.dim, in.K.begin() + (bh * d.kv_seq + d.kv_seq - 1) * d.dim);
    }
  }
  if (half) {
    for (auto& x : in.K) x = round_bf16(x);
    for (auto& x : in.V) x = round_bf16(x);
  }
  return in;
}

inputs stage_inputs(int stage, const dims& d, std::uint64_t seed, fill f) {
  inputs in = make_inputs(d, seed, f, stage == 4 || stage == 5);
  in.tensor_cores = stage == 4 || stage == 5;
  return in;
}

std::int64_t stage_dim(int stage, std::int64_t dim) {
  if (stage == 5) return dim <= 64 ? 64 : 128;
  if (stage != 4) return dim;
  for (const std::int64_t taken : {16, 32, 64}) {
    if (dim <= taken) return taken;
  }
  return 128;
}

// The reference: for each row the log of the softmax's denominator first (in long double), then
// each weight exp(s_j - lse) and the weighted sum; and the statistics of the bound.
exact_output exact(const inputs& in) {
  const dims& d = in.d;
  exact_output out;
  const auto n_out = static_cast<std::size_t>(query_rows(d) * d.dim);
  out.O.resize(n_out);
  out.bound.resize(n_out);
  const long double scale = 1.0L / std::sqrt(static_cast<long double>(d.dim));
  std::vector<long double> s;
  for (std::int64_t row = 0; row < query_rows(d); ++row) {
    const std::int64_t bh = row / d.seq, i = row % d.seq;
    const std::int64_t n = std::min(visible_end(d, i), d.kv_seq);
    s.assign(static_cast<std::size_t>(n), 0);
    row_stats stats;
    stats.keys = n;
    long double hi = -INFINITY, lo = INFINITY;
    for (std::int64_t j = 0; j < n; ++j) {
      long double dot = 0, abs = 0;
      for (std::int64_t c = 0; c < d.dim; ++c) {
        const long double term = static_cast<long double>(in.Q[static_cast<std::size_t>(row * d.dim + c)]) *
                                 in.K[static_cast<std::size_t>((bh * d.kv_seq + j) * d.dim + c)];
        dot += term;
        abs += std::fabs(term);
      }
      s[static_cast<std::size_t>(j)] = dot * scale;
      stats.abs_score = std::max(stats.abs_score, static_cast<double>(abs * scale));
      hi = std::max(hi, dot * scale);
      lo = std::min(lo, dot * scale);
    }
    stats.score_range = static_cast<double>(hi - lo);
    long double denominator = 0;
    for (const long double x : s) denominator += std::exp(x - hi);
    const long double lse = hi + std::log(denominator);
    const double factor = weighted_factor(stats, d.dim, in.tensor_cores);
    for (std::int64_t c = 0; c < d.dim; ++c) {
      long double o = 0, weighted_abs = 0, largest = 0;
      for (std::int64_t j = 0; j < n; ++j) {
        const long double w = std::exp(s[static_cast<std::size_t>(j)] - lse);
        const long double v = in.V[static_cast<std::size_t>((bh * d.kv_seq + j) * d.dim + c)];
        o += w * v;
        weighted_abs += w * std::fabs(v);
        largest = std::max(largest, std::fabs(v));
      }
      const auto e = static_cast<std::size_t>(row * d.dim + c);
      out.O[e] = static_cast<double>(o);
      out.bound[e] = element_bound(factor, static_cast<double>(weighted_abs), static_cast<double>(largest), n);
    }
  }
  return out;
}

std::vector<float> run_stage(int stage, const inputs& in, const decode_config& cfg) {
  wb::testing::expect_stage_in_reach(stage);
  const dims& d = in.d;
  const auto n_out = static_cast<std::size_t>(query_rows(d) * d.dim);
  if (stage == 0) {
    std::vector<float> O(n_out);
    std::memset(O.data(), output_poison, O.size() * sizeof(float));
    track::attention_sequential({in.Q.data(), in.K.data(), in.V.data(), O.data(), d});
    return O;
  }
  wb::device_buffer<float> Q(in.Q), O(n_out);
  O.fill_bytes(output_poison);
  if (stage == 4 || stage == 5) {
    REQUIRE_MESSAGE(in.half, "stages 4 and 5 read K and V as bf16: make their inputs with stage_inputs(stage, ...)");
  }
  if ((stage == 6 || stage == 4 || stage == 5) && in.half) {
    std::vector<bf16> K(in.K.size()), V(in.V.size());
    std::transform(in.K.begin(), in.K.end(), K.begin(), [](float x) { return wb::to_bf16(x); });
    std::transform(in.V.begin(), in.V.end(), V.begin(), [](float x) { return wb::to_bf16(x); });
    wb::device_buffer<bf16> dK(K), dV(V);
    const problem<bf16> p{Q.data(), dK.data(), dV.data(), O.data(), d};
    if (stage == 4) {
      track::attention_tensor_core(p);
    } else if (stage == 5) {
      track::attention_hopper(p);
    } else {
      wb::workspace_buffer ws(decode_workspace_bytes(d, cfg));
      track::attention_decode(p, ws.view(), cfg);
    }
    WB_CHECK(cudaDeviceSynchronize());
    return O.to_host();
  }
  wb::device_buffer<float> K(in.K), V(in.V);
  const problem<float> p{Q.data(), K.data(), V.data(), O.data(), d};
  switch (stage) {
    case 1: {
      wb::workspace_buffer ws(scores_workspace_bytes(d));
      track::attention_three_kernels(p, ws.view());
      break;
    }
    case 2: track::attention_online(p); break;
    case 3: track::attention_tiled(p); break;
    default: {
      wb::workspace_buffer ws(decode_workspace_bytes(d, cfg));
      track::attention_decode(p, ws.view(), cfg);
      break;
    }
  }
  WB_CHECK(cudaDeviceSynchronize());
  return O.to_host();
}

std::string first_wrong(const inputs& in, const std::vector<float>& O) {
  const dims& d = in.d;
  const exact_output ref = exact(in);
  if (O.size() != ref.O.size()) return fmt::format("O has {} values, expected {}", O.size(), ref.O.size());
  std::string first;
  std::size_t wrong = 0;
  for (std::size_t e = 0; e < O.size(); ++e) {
    if (element_ok(O[e], ref.O[e], ref.bound[e])) continue;
    if (wrong++ > 0) continue;
    const auto row = static_cast<std::int64_t>(e) / d.dim;
    first = fmt::format("O[batch {}][head {}][query {}][{}]: expected {:.9g}, got {:.9g} (bound {:.3g}){}",
                        row / (d.seq * d.heads), (row / d.seq) % d.heads, row % d.seq,
                        static_cast<std::int64_t>(e) % d.dim, ref.O[e], O[e], ref.bound[e],
                        std::bit_cast<std::uint32_t>(O[e]) == 0x7F7F7F7Fu ? " (the poison O was filled with: never written)"
                                                                           : "");
  }
  if (wrong == 0) return "";
  return wrong > 1 ? fmt::format("{} (and {} more of {})", first, wrong - 1, O.size()) : first;
}

bool right(const inputs& in, const std::vector<float>& O) { return first_wrong(in, O).empty(); }

void check_case(int stage, const inputs& in, const std::string& what, const decode_config& cfg) {
  const std::string wrong = first_wrong(in, run_stage(stage, in, cfg));
  INFO(what);
  REQUIRE_MESSAGE(wrong.empty(), wrong);
}

void check_shapes(int stage, const std::vector<dims>& shapes, std::uint64_t seed, const decode_config& cfg) {
  for (const dims& d : shapes) {
    // Following every access of a large case on the cpu backend takes long; small cases of the
    // same kernels face the race check.
    std::optional<wb::testing::race_check_paused> large;
    if (query_rows(d) * d.kv_seq * d.dim > (std::int64_t{1} << 17)) large.emplace();
    check_case(stage, stage_inputs(stage, d, seed++), describe(d) + ", uniform in [-1, 1)", cfg);
  }
}

std::vector<dims> pairs(std::initializer_list<std::int64_t> sizes, std::int64_t dim, std::int64_t heads) {
  std::vector<dims> out;
  for (const std::int64_t seq : sizes) {
    for (const std::int64_t kv : sizes) {
      out.push_back({1, heads, seq, kv, dim, false});
      if (kv >= seq) out.push_back({1, heads, seq, kv, dim, true});
    }
  }
  return out;
}

void check_large_scores(int stage, std::uint64_t seed, const decode_config& cfg) {
  const std::int64_t seq = stage == 6 ? 3 : 40;
  for (const std::int64_t dim : {16, 64}) {
    for (const bool causal : {false, true}) {
      const dims d{1, 2, seq, 70, stage_dim(stage, dim), causal};
      check_case(stage, stage_inputs(stage, d, seed++, fill::large),
                 describe(d) + ", scores past 88.7 (exp overflows fp32)", cfg);
    }
  }
}

void check_equal_scores(int stage, std::uint64_t seed, const decode_config& cfg) {
  const std::int64_t seq = stage == 6 ? 5 : 37;
  for (const bool causal : {false, true}) {
    const dims d{2, 1, seq, 45, stage_dim(stage, 20), causal};
    const inputs in = stage_inputs(stage, d, seed++, fill::equal);
    const std::vector<float> O = run_stage(stage, in, cfg);
    INFO((describe(d) + ", Q = 0: every score 0, O the mean of the value rows each query sees"));
    const std::string wrong = first_wrong(in, O);
    REQUIRE_MESSAGE(wrong.empty(), wrong);
    const exact_output ref = exact(in);
    for (std::int64_t row = 0; row < query_rows(d); ++row) {
      const std::int64_t bh = row / d.seq, end = visible_end(d, row % d.seq);
      for (std::int64_t c = 0; c < d.dim; ++c) {
        double mean = 0;
        for (std::int64_t j = 0; j < end; ++j) mean += in.V[static_cast<std::size_t>((bh * d.kv_seq + j) * d.dim + c)];
        mean /= static_cast<double>(end);
        const auto e = static_cast<std::size_t>(row * d.dim + c);
        REQUIRE_MESSAGE(std::fabs(O[e] - mean) <= ref.bound[e],
                        fmt::format("row {}, column {}: the mean of its {} value rows is {:.9g}, got {:.9g}", row, c,
                                    end, mean, O[e]));
      }
    }
  }
}

void check_nan_in_v(int stage, std::uint64_t seed, const decode_config& cfg) {
  // Stage 4: 150 queries, 180 keys (blocks of 64 queries, tiles of 64 keys), so that one block
  // skips the tile of the NaN, one loads it and holds queries that do not see it, one sees it.
  const std::int64_t seq = stage == 6 ? 7 : stage == 4 ? 150 : 40, kv = stage == 4 ? 180 : 70;
  for (const bool causal : {false, true}) {
    const dims d{1, 2, seq, kv, stage_dim(stage, 24), causal};
    inputs in = stage_inputs(stage, d, seed++);
    // Key 50 of head 1: with the causal mask, query i sees it when i + 30 >= 50 (i >= 20; for
    // 7 queries: i + 63 >= 50, all of them) -- key 69 of head 0 only the last query sees.
    // Stage 4: key 130 (tile 128-191), which query i sees from i = 100 on; block 0 (queries
    // 0-63, keys below 94) skips its tile, block 1 (keys below 158) loads it; key 179 of head 0.
    const std::int64_t key = stage == 4 ? 130 : 50, column = 5, key0 = d.kv_seq - 1, column0 = 11;
    // Stage 4, causal: whether the block of query i loads the tile of key k.
    const auto loads_tile_of = [&](std::int64_t i, std::int64_t k) {
      const std::int64_t i0 = i / tensor_core_shape::BR * tensor_core_shape::BR;
      const std::int64_t last = std::min(i0 + tensor_core_shape::BR, d.seq) - 1;
      return k / tensor_core_shape::BC * tensor_core_shape::BC < std::min(visible_end(d, last), d.kv_seq);
    };
    in.V[static_cast<std::size_t>((d.kv_seq + key) * d.dim + column)] = std::numeric_limits<float>::quiet_NaN();
    in.V[static_cast<std::size_t>(key0 * d.dim + column0)] = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> O = run_stage(stage, in, cfg);
    INFO((describe(d) + fmt::format(", a NaN in V at (head 1, key {}, column 5) and (head 0, key {}, column 11)", key,
                                    key0)));
    const exact_output ref = exact(in);
    for (std::int64_t row = 0; row < query_rows(d); ++row) {
      const std::int64_t bh = row / d.seq, i = row % d.seq;
      for (std::int64_t c = 0; c < d.dim; ++c) {
        const bool sees = bh == 1 ? c == column && key < visible_end(d, i) : c == column0 && key0 < visible_end(d, i);
        const auto e = static_cast<std::size_t>(row * d.dim + c);
        // Stage 5's blocks (128 queries) and tiles (176 or 192 keys) are larger: under the mask a
        // NaN may reach any query of its column (the weaker property of the README).
        if (d.causal && !sees && (bh == 1 ? c == column : c == column0) &&
            ((stage == 4 && loads_tile_of(i, bh == 1 ? key : key0)) || stage == 5)) {
          if (std::isnan(O[e])) O[e] = static_cast<float>(ref.O[e]);  // may be NaN: the tile's 0 * NaN
          continue;
        }
        const float o = O[e];
        CAPTURE(bh);
        CAPTURE(i);
        CAPTURE(c);
        CAPTURE(o);
        REQUIRE_MESSAGE(std::isnan(o) == sees, (sees ? "this query sees the key whose value is NaN: O must be NaN"
                                                    : "this output does not see the NaN (another column, or a key the "
                                                      "mask hides: 0 * NaN is NaN): it must be finite"));
      }
    }
    const std::string wrong = first_wrong(in, O);
    REQUIRE_MESSAGE(wrong.empty(), wrong);
  }
}

void check_empty_and_refused(int stage) {
  const std::int64_t dim = stage_dim(stage, 8);
  for (const dims& d : {dims{0, 3, 5, 5, dim, false}, dims{2, 0, 5, 5, dim, false}, dims{1, 1, 0, 5, dim, true}}) {
    const inputs in = stage_inputs(stage, d, 1);
    CHECK(run_stage(stage, in).empty());
  }
  inputs in = stage_inputs(stage, {1, 1, 5, 5, dim, false}, 2);
  in.d.kv_seq = 4;
  in.d.causal = true;  // kv_seq < seq: the first query would see no key
  CHECK_THROWS_AS(run_stage(stage, in), std::invalid_argument);
  in.d.kv_seq = 5;
  in.d.dim = 0;
  CHECK_THROWS_AS(run_stage(stage, in), std::invalid_argument);
}

std::vector<float> run_defective(const inputs& in, const std::function<void(const problem<float>&)>& run) {
  wb::device_buffer<float> Q(in.Q), K(in.K), V(in.V), O(in.Q.size());
  O.fill_bytes(output_poison);
  run({Q.data(), K.data(), V.data(), O.data(), in.d});
  WB_CHECK(cudaDeviceSynchronize());
  return O.to_host();
}

std::vector<float> run_defective_bf16(const inputs& in, const std::function<void(const problem<bf16>&)>& run) {
  std::vector<bf16> K(in.K.size()), V(in.V.size());
  std::transform(in.K.begin(), in.K.end(), K.begin(), [](float x) { return wb::to_bf16(x); });
  std::transform(in.V.begin(), in.V.end(), V.begin(), [](float x) { return wb::to_bf16(x); });
  wb::device_buffer<float> Q(in.Q), O(in.Q.size());
  wb::device_buffer<bf16> dK(K), dV(V);
  O.fill_bytes(output_poison);
  run({Q.data(), dK.data(), dV.data(), O.data(), in.d});
  WB_CHECK(cudaDeviceSynchronize());
  return O.to_host();
}

}  // namespace attention::testing
