// Checks of every stage against std::stable_sort (test_support.hpp): seeded random keys of
// every type, n = 0, 1 and sizes one off every tile and block boundary, every pattern a sort
// meets (all equal, sorted, reversed, few distinct values), the types' extremes (INT_MIN,
// INT_MAX, -0.0/+0.0, denormals, infinities, NaNs), keys only and key-value (stability).
#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "onesweep.hpp"
#include "test_support.hpp"
#include "wb/device_info.hpp"
#include "wb/race_check.hpp"

using namespace sort;
using namespace sort::testing;

namespace {

const bool registered = wb::testing::register_stages(std::span<const wb::stage>(sort::stages));

// The keys one block covers at once in each stage with cfg (stage 5: its own tile shape).
template <class K>
std::int64_t tile_of(int stage, const config& cfg) {
  if (stage == 5) return onesweep_tile(sizeof(K), false);
  return stage == 0 ? 64 : static_cast<std::int64_t>(cfg.block) * items_for(stage, cfg);
}

template <class K>
void check_sizes(int stage, std::uint64_t salt) {
  const config cfg{32, stage >= 4 ? 2 : 0, 0};  // small tiles: many blocks for a small n
  const std::int64_t u = tile_of<K>(stage, cfg);
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, u - 1, u, u + 1, 2 * u - 1,
                               2 * u + 1, 9 * u + 3}) {
    check_stage<K>(stage, seeded_keys<K>(static_cast<std::size_t>(n), wb::testing::seed(salt + n)), cfg, "seeded");
  }
}

template <class K>
void check_patterns(int stage, std::uint64_t salt) {
  const config cfg{64, 0, 0};
  const std::size_t n = 1000;
  auto keys = seeded_keys<K>(n, wb::testing::seed(salt));
  check_stage<K>(stage, wb::gen::all_equal<K>(n, K(5)), cfg, "all equal");
  check_stage<K>(stage, wb::gen::few_distinct<K>(n, wb::testing::seed(salt + 1), 3), cfg, "three distinct values");
  auto sorted_keys = reference(keys, {}).keys;
  check_stage<K>(stage, sorted_keys, cfg, "sorted");
  std::reverse(sorted_keys.begin(), sorted_keys.end());
  check_stage<K>(stage, sorted_keys, cfg, "reversed");
}

// The types' extremes: what a sign bit that is not flipped (SO2) or a float that is not
// transformed sorts wrong.
void check_extremes(int stage) {
  const config cfg{32, 0, 0};
  check_stage<std::int32_t>(stage, wb::gen::extremes<std::int32_t>(300, wb::testing::seed(71)), cfg, "int32 extremes");
  check_stage<std::int64_t>(stage, wb::gen::extremes<std::int64_t>(300, wb::testing::seed(72)), cfg, "int64 extremes");
  check_stage<std::uint32_t>(stage, wb::gen::extremes<std::uint32_t>(300, wb::testing::seed(73)), cfg,
                             "uint32 extremes");
  using L = std::numeric_limits<float>;
  std::vector<float> f = {0.0f, -0.0f, L::denorm_min(), -L::denorm_min(), L::min(), -L::min(), L::max(),
                          L::lowest(), L::infinity(), -L::infinity(), 1.0f, -1.0f, L::quiet_NaN(),
                          -L::quiet_NaN(), 0.0f, -0.0f};
  std::vector<float> many;
  for (int r = 0; r < 20; ++r) many.insert(many.end(), f.begin() + (r % 5), f.end());
  check_stage<float>(stage, many, cfg, "float extremes, NaNs, signed zeros, denormals");
}

// Stage 5 on keys (with pairs, their positions as values) in ws, checked against
// std::stable_sort; returns the plan the device wrote, pass by pass.
template <class K>
std::vector<onesweep::pass_mode> sort_and_read_plan(const std::vector<K>& keys, bool pairs, workspace_buffer<K>& ws,
                                                    const config& cfg) {
  const auto n = static_cast<std::int64_t>(keys.size());
  const auto values = pairs ? positions(keys.size()) : std::vector<std::uint32_t>{};
  wb::device_buffer<K> d_keys(keys), d_out(keys.size());
  wb::device_buffer<std::uint32_t> d_values(values), d_values_out(values.size());
  d_out.fill_bytes(0xA5);
  d_values_out.fill_bytes(0xA5);
  sort::WB_TRACK::sort_onesweep<K>(d_keys.data(), d_out.data(), pairs ? d_values.data() : nullptr,
                                   pairs ? d_values_out.data() : nullptr, n, ws.view(), cfg);
  WB_CHECK(cudaDeviceSynchronize());
  const std::string why = sort_error(
      keys, values, sorted<K>{d_out.to_host(), pairs ? d_values_out.to_host() : std::vector<std::uint32_t>{}});
  CHECK_MESSAGE(why.empty(), why);
  return onesweep::pass_modes(ws.view(), n, sizeof(K), pairs, cfg);
}

// Stage 5 on keys (keys only, then key-value) against std::stable_sort, with its own
// workspace; then, on the solution track, which kernel sorted each pass. The pass kernel's
// blocks take one tile number a tile; the few-digits kernel's blocks take one a tile and then
// each one more, past the last, to find none left (onesweep.hpp, tiles_taken). few_kernel:
// whether this test expects the few-digits kernel to sort the passes of at most
// match_digits_for(cfg, sizeof(K)) digit values of the keys alone (false: the pass kernel
// sorts every pass; with values it always does).
template <class K>
void check_pass_kernels(const std::vector<K>& keys, const config& cfg, bool few_kernel, const std::string& what) {
  using U = bits_of<K>;
  constexpr int passes = static_cast<int>(sizeof(U));
  const auto n = static_cast<std::int64_t>(keys.size());
  std::vector<int> digits(passes);             // how many digit values each pass's keys take
  std::vector<std::int64_t> largest(passes);  // the keys of each pass's most frequent digit
  for (int p = 0; p < passes; ++p) {
    std::vector<std::int64_t> count(256);
    for (const K k : keys) ++count[digit_of(key_bits<K>::to_bits(k), p * 8, 8)];
    digits[static_cast<std::size_t>(p)] = static_cast<int>(256 - std::count(count.begin(), count.end(), 0));
    largest[static_cast<std::size_t>(p)] = *std::max_element(count.begin(), count.end());
  }
  workspace_buffer<K> ws(n, cfg);
  for (const bool pairs : {false, true}) {
    INFO("stage 5, " << what << ", n " << n << (pairs ? ", key-value" : ", keys only"));
    sort_and_read_plan(keys, pairs, ws, cfg);
    if (!wb::testing::testing_solution || n == 0) continue;  // the exercise's stage 5 has the pass kernel alone
    const onesweep::tile_shape shape = onesweep::stage_shape(sizeof(U), pairs, onesweep::long_tiles_for(n, cfg));
    const std::int64_t tile = shape.tile();
    const std::int64_t tiles = (n + tile - 1) / tile;
    const std::int64_t portion_tiles = onesweep::portion_tiles_for(tile, cfg.portion);
    const std::int64_t grid = cfg.onesweep_few_digits_blocks > 0
                                  ? cfg.onesweep_few_digits_blocks
                                  : std::int64_t{onesweep::few_digits_min_blocks} * wb::multiprocessor_count();
    std::int64_t few_blocks = 0;  // the few-digits kernel's blocks over all portions
    for (std::int64_t first = 0; first < tiles; first += portion_tiles) {
      few_blocks += std::min({grid, portion_tiles, tiles - first});
    }
    std::vector<std::int64_t> expected(passes, 0);
    int digits_before = 0;  // the digit values of the last sorting pass (0: none yet)
    for (int p = 0; p < passes; ++p) {
      const int d = digits[static_cast<std::size_t>(p)];
      if (d == 1) continue;  // skipped (or the copy of an input that no pass sorts): no tile numbers
      // A pass whose keys arrive mixed (the first sorting pass, or one after a pass of more than
      // match_digits values) takes the few-digits kernel at fewer digit values; a later one also
      // where one digit holds n / dominant_divisor keys or more, the first sorting pass where
      // at most n / first_stray_divisor keys lie outside its largest digit (onesweep.hpp).
      const bool first_sort = digits_before == 0;
      const int match = onesweep::match_digits_for(cfg, sizeof(K));
      const bool mixed = first_sort || digits_before > match;
      const int most = mixed ? std::min(onesweep::first_match_digits_for(cfg), match) : match;
      const std::int64_t top = largest[static_cast<std::size_t>(p)];
      const int divisor = onesweep::dominant_divisor_for(cfg);
      const int stray_divisor = onesweep::first_stray_divisor_for(cfg);
      const bool dominant = first_sort ? stray_divisor > 0 && (n - top) * stray_divisor <= n
                                       : divisor > 0 && top * divisor >= n;
      digits_before = d;
      const bool few = few_kernel && !pairs && (d <= most || dominant);
      expected[static_cast<std::size_t>(p)] = few ? tiles + few_blocks : tiles;
    }
    CHECK(onesweep::pass_digits(ws.view(), n, sizeof(K), pairs, cfg) == digits);
    CHECK(onesweep::tiles_taken(ws.view(), n, sizeof(K), pairs, cfg) == expected);
  }
}

void check_all(int stage) {
  check_sizes<std::uint32_t>(stage, 100);
  check_sizes<std::int32_t>(stage, 200);
  check_sizes<float>(stage, 300);
  check_sizes<std::int64_t>(stage, 400);
  check_patterns<std::int32_t>(stage, 500);
  check_patterns<float>(stage, 600);
  check_extremes(stage);
}

}  // namespace

TEST_SUITE("sort/0 sequential") {
  TEST_CASE("std::stable_sort: sizes, patterns, extremes, key-value") { check_all(0); }
  TEST_CASE("the order of floats: -NaN, -inf, ..., -0.0, +0.0, ..., +inf, +NaN") {
    using L = std::numeric_limits<float>;
    std::vector<float> keys = {L::quiet_NaN(), 0.0f, -0.0f, -L::infinity(), 1.0f, -L::quiet_NaN()};
    const auto r = run_stage<float>(0, keys, {}, config{});
    REQUIRE(r.keys.size() == 6);
    CHECK(std::isnan(r.keys[0]));
    CHECK(std::signbit(r.keys[0]));
    CHECK(r.keys[1] == -L::infinity());
    CHECK((r.keys[2] == 0.0f && std::signbit(r.keys[2])));
    CHECK((r.keys[3] == 0.0f && !std::signbit(r.keys[3])));
    CHECK(r.keys[4] == 1.0f);
    CHECK((std::isnan(r.keys[5]) && !std::signbit(r.keys[5])));
  }
}
TEST_SUITE("sort/1 one-bit") {
  TEST_CASE("one bit per pass: sizes, patterns, extremes, key-value") { check_all(1); }
}
TEST_SUITE("sort/2 coalesced") {
  TEST_CASE("coalesced: sizes, patterns, extremes, key-value") { check_all(2); }
}
TEST_SUITE("sort/3 larger-radix") {
  TEST_CASE("larger radix: sizes, patterns, extremes, key-value") { check_all(3); }
  TEST_CASE("larger radix: every digit width") {
    for (const int bits : {1, 2, 4, 8}) {
      check_stage<std::int32_t>(3, seeded_keys<std::int32_t>(700, wb::testing::seed(800 + bits)), config{32, 0, bits},
                                "int32, --bits");
      check_stage<std::int64_t>(3, seeded_keys<std::int64_t>(300, wb::testing::seed(810 + bits)), config{64, 0, bits},
                                "int64, --bits");
    }
  }
}
TEST_SUITE("sort/4 coarsened") {
  TEST_CASE("coarsened: sizes, patterns, extremes, key-value") { check_all(4); }
  TEST_CASE("coarsened: every keys-per-thread and digit width") {
    for (const int items : {1, 4, 16}) {
      for (const int bits : {2, 8}) {
        check_stage<float>(4, seeded_keys<float>(2000, wb::testing::seed(900 + items + bits)), config{32, items, bits},
                           "float");
      }
    }
  }
}
TEST_SUITE("sort/5 onesweep") {
  TEST_CASE("onesweep: sizes, patterns, extremes, key-value") { check_all(5); }
  TEST_CASE("onesweep: a look-back past many tiles, in portions") {
    const std::int64_t tile = onesweep_tile(4, false);
    const auto keys = seeded_keys<std::uint32_t>(static_cast<std::size_t>(6 * tile + 5), wb::testing::seed(950));
    // One portion; a tile a portion (every tile starts a look-back afresh); two tiles a portion
    // (a part-filled last portion); a portion that is not a whole number of tiles.
    for (const std::int64_t portion : {std::int64_t{0}, tile, 2 * tile, 3 * tile - 1}) {
      check_stage<std::uint32_t>(5, keys, config{256, 0, 0, portion}, "uint32, portion " + std::to_string(portion));
    }
  }
  TEST_CASE("onesweep: the long tiles (from cfg.onesweep_long_tiles_from keys on)") {
    // The stage sorts 2^24 keys and more in longer tiles (another shape for every key type,
    // and for 8-byte keys another ranking): here from the first key on, so a few tiles run
    // them. Sizes off the tiles of keys alone and of keys with values (check_stage sorts both).
    config cfg{};
    cfg.onesweep_long_tiles_from = 1;
    auto sizes_of = [&]<class K>(K, std::uint64_t salt) {
      const std::int64_t tile = onesweep::stage_shape(sizeof(K), false, true).tile();
      const std::int64_t pair_tile = onesweep::stage_shape(sizeof(K), true, true).tile();
      for (const std::int64_t n : {std::int64_t{1}, tile - 1, tile, tile + 1, pair_tile - 1, pair_tile + 1,
                                   3 * tile + 5}) {
        check_stage<K>(5, seeded_keys<K>(static_cast<std::size_t>(n), wb::testing::seed(salt + n)), cfg,
                       "long tiles");
      }
      const auto n = static_cast<std::size_t>(2 * tile + 3);
      check_stage<K>(5, wb::gen::all_equal<K>(n, K(7)), cfg, "long tiles, all equal");
      check_stage<K>(5, wb::gen::few_distinct<K>(n, wb::testing::seed(salt + 1), 3), cfg, "long tiles, 3 distinct");
      config portions = cfg;
      portions.portion = tile;
      check_stage<K>(5, seeded_keys<K>(n, wb::testing::seed(salt + 2)), portions, "long tiles, a tile a portion");
    };
    sizes_of(std::uint32_t{}, 1100);
    sizes_of(std::int32_t{}, 1200);
    sizes_of(float{}, 1300);
    sizes_of(std::int64_t{}, 1350);
    check_stage<std::int32_t>(5, wb::gen::extremes<std::int32_t>(20000, wb::testing::seed(1400)), cfg,
                              "long tiles, int32 extremes");
    check_stage<std::int64_t>(5, wb::gen::extremes<std::int64_t>(20000, wb::testing::seed(1450)), cfg,
                              "long tiles, int64 extremes");
  }
  TEST_CASE("onesweep: 8-byte keys, a pass of few digit values sorted by the few-digits kernel (keys only)") {
    // (The solution; an exercise's stage 5 sorts every pass with its pass kernel, checked on
    // the same keys.) A pass whose digit takes at most 16 values is the few-digits kernel's:
    // every pass of 16 distinct int64 keys and of the extremes; of keys with 256 values in the
    // lowest byte and 16 in the next, the second pass only. Sizes off the tile boundaries, from
    // under a tile to more tiles than the few-digits kernel has blocks (so a block sorts
    // several), and across look-back portions.
    config cfg{};
    cfg.onesweep_few_digits_from = 1;  // from the first key on (the stage: 2^20 8-byte keys)
    cfg.onesweep_few_digits_blocks = 3;  // (the stage: as many as the SMs hold)
    const std::int64_t tile = onesweep_tile(8, false);
    std::uint64_t salt = 1600;
    for (const std::int64_t long_from : {std::int64_t{0}, std::int64_t{1}}) {  // short tiles, then long ones
      config tiles = cfg;
      tiles.onesweep_long_tiles_from = long_from;
      const std::int64_t t = onesweep::stage_shape(8, false, onesweep::long_tiles_for(1, tiles)).tile();
      for (const std::int64_t n : {std::int64_t{1}, std::int64_t{37}, t - 1, t + 1, 4 * t + 37}) {
        const auto size = static_cast<std::size_t>(n);
        check_pass_kernels(wb::gen::few_distinct<std::int64_t>(size, wb::testing::seed(++salt), 16), tiles, true,
                           "int64, 16 distinct");
        check_pass_kernels(wb::gen::extremes<std::int64_t>(size, wb::testing::seed(++salt)), tiles, true,
                           "int64 extremes");
        auto mixed = wb::gen::uniform<std::int64_t>(size, wb::testing::seed(++salt));
        for (auto& k : mixed) k = (k & 0xFF) | ((k >> 60 & 0xF) << 8) | (std::int64_t{0x7D} << 40);  // 256, then 16
        check_pass_kernels(mixed, tiles, true, "int64, 256 digit values in pass 0, 16 in pass 1");
      }
    }
    const auto n = static_cast<std::size_t>(3 * tile + 5);
    const auto few = wb::gen::few_distinct<std::int64_t>(n, wb::testing::seed(++salt), 16);
    config portions = cfg;
    portions.portion = tile;  // a tile a portion: one block each
    check_pass_kernels(few, portions, true, "int64, 16 distinct, a tile a portion");
    portions.portion = 2 * tile;
    check_pass_kernels(few, portions, true, "int64, 16 distinct, two tiles a portion");
    config sm_grid = cfg;
    sm_grid.onesweep_few_digits_blocks = 0;
    check_pass_kernels(few, sm_grid, true, "int64, 16 distinct, as many blocks as the SMs hold");
    // The choice: at most this many digit values (256: every sorting pass; -1: none), and the
    // keys the stage takes it from (its default for 8-byte keys, 2^20: not on these).
    check_pass_kernels(seeded_keys<std::int64_t>(n, wb::testing::seed(++salt)), cfg, true, "int64, random");
    config every = cfg;
    every.onesweep_match_digits = 256;
    check_pass_kernels(seeded_keys<std::int64_t>(n, wb::testing::seed(++salt)), every, true,
                       "int64, random, match_digits 256");
    config never = cfg;
    never.onesweep_match_digits = -1;
    check_pass_kernels(few, never, false, "int64, 16 distinct, match_digits -1");
    check_pass_kernels(few, config{}, false, "int64, 16 distinct, fewer keys than the stage's threshold");
  }
  TEST_CASE("onesweep: 4-byte keys, a pass of few digit values sorted by the few-digits kernel (keys only)") {
    // The same kernel on the 4-byte tiles, short and long (a shape of its own each: onesweep.hpp,
    // stage_shape), plain and flipped keys (int32, float); with values the pass kernel sorts
    // every pass (check_pass_kernels runs both). Sizes off the tile boundaries, several tiles a
    // block.
    config cfg{};
    cfg.onesweep_few_digits_from = 1;
    cfg.onesweep_few_digits_blocks = 2;
    std::uint64_t salt = 1650;
    for (const std::int64_t long_from : {std::int64_t{0}, std::int64_t{1}}) {
      cfg.onesweep_long_tiles_from = long_from;
      const std::int64_t tile = onesweep::stage_shape(4, false, onesweep::long_tiles_for(1, cfg)).tile();
      for (const std::int64_t n : {std::int64_t{37}, tile + 1, 5 * tile - 1}) {
        const auto size = static_cast<std::size_t>(n);
        check_pass_kernels(wb::gen::few_distinct<std::uint32_t>(size, wb::testing::seed(++salt), 16), cfg, true,
                           "uint32, 16 distinct");
        check_pass_kernels(wb::gen::few_distinct<std::int32_t>(size, wb::testing::seed(++salt), 16), cfg, true,
                           "int32, 16 distinct");
        check_pass_kernels(wb::gen::few_distinct<float>(size, wb::testing::seed(++salt), 16), cfg, true,
                           "float, 16 distinct");
        // The stage leaves 4-byte passes of more than 4 digit values to the pass kernel
        // (match_digits_4_byte); at 16, as for 8-byte keys, the few-digits kernel takes them.
        config sixteen = cfg;
        sixteen.onesweep_match_digits = 16;
        check_pass_kernels(wb::gen::few_distinct<std::int32_t>(size, wb::testing::seed(++salt), 16), sixteen, true,
                           "int32, 16 distinct, match_digits 16");
        check_pass_kernels(wb::gen::extremes<std::uint32_t>(size, wb::testing::seed(++salt)), cfg, true,
                           "uint32 extremes");
        check_pass_kernels(wb::gen::extremes<float>(size, wb::testing::seed(++salt)), cfg, true, "float extremes");
      }
      const auto n = static_cast<std::size_t>(3 * tile + 5);
      check_pass_kernels(seeded_keys<std::uint32_t>(n, wb::testing::seed(++salt)), cfg, true, "uint32, random");
      // Random low bytes under a top byte of few values: the top pass comes after passes of 256
      // values, so its keys arrive mixed; 16 values go to the pass kernel, 4 to the few-digits
      // kernel (check_pass_kernels expects both from the rule, and the counts say which ran).
      for (const std::uint32_t top_values : {16u, 4u}) {
        auto keys = seeded_keys<std::uint32_t>(n, wb::testing::seed(++salt));
        for (std::uint32_t& k : keys) k %= top_values << 24;
        check_pass_kernels(keys, cfg, true, "uint32 below " + std::to_string(top_values) + " * 2^24");
      }
      config never = cfg;
      never.onesweep_match_digits = -1;
      check_pass_kernels(wb::gen::few_distinct<std::int32_t>(n, wb::testing::seed(++salt), 16), never, false,
                         "int32, 16 distinct, match_digits -1");
    }
  }
  TEST_CASE("onesweep: a later pass with one dominant digit sorted by the few-digits kernel (keys only)") {
    // Keys ascending but one in 97 random: every pass takes all 256 digit values, but in the
    // high ones one digit holds nearly all keys, and the few-digits kernel sorts those passes
    // after the first (dominant_divisor: half the keys). Half the keys from two values, half
    // random: after the first pass one digit holds about a quarter of the keys, the few-digits
    // kernel's at a divisor of 8, not at the default. Off with onesweep_dominant_divisor -1.
    // 64-bit keys nearly in order whose low bytes are 0 but for the strays: the first sorting
    // pass is the few-digits kernel's too while the strays are at most n / first_stray_divisor
    // (one in 97 is; one in 9 is not at the default, but is at a divisor of 8), and not with
    // onesweep_first_stray_divisor -1.
    config cfg{};
    cfg.onesweep_few_digits_from = 1;
    cfg.onesweep_few_digits_blocks = 2;
    std::uint64_t salt = 1680;
    auto hot = [&]<class K>(K, std::size_t n) {
      auto keys = seeded_keys<K>(n, wb::testing::seed(++salt));
      const auto two = seeded_keys<K>(2, wb::testing::seed(++salt));
      for (std::size_t i = 0; i < n; i += 2) keys[i] = two[i / 2 % 2];
      return keys;
    };
    auto nearly = [&]<class K>(K, std::size_t n) {
      auto keys = seeded_keys<K>(n, wb::testing::seed(++salt));
      for (std::size_t i = 0; i < n; ++i) {
        if (i % 97 != 0) keys[i] = static_cast<K>(i);
      }
      return keys;
    };
    for (const std::int64_t long_from : {std::int64_t{0}, std::int64_t{1}}) {
      cfg.onesweep_long_tiles_from = long_from;
      for (const int divisor : {0, -1, 8}) {
        config c = cfg;
        c.onesweep_dominant_divisor = divisor;
        const std::string how = "divisor " + std::to_string(divisor) + (long_from ? ", long tiles" : "");
        check_pass_kernels(hot(std::uint32_t{}, 61441), c, true, "uint32, half from two values, " + how);
        check_pass_kernels(hot(float{}, 20000), c, true, "float, half from two values, " + how);
        check_pass_kernels(hot(std::int64_t{}, 20000), c, true, "int64, half from two values, " + how);
        check_pass_kernels(nearly(std::int32_t{}, 20000), c, true, "int32, nearly in order, " + how);
        check_pass_kernels(nearly(std::int64_t{}, 20000), c, true, "int64, nearly in order, " + how);
      }
      for (const int stray_divisor : {0, -1, 8}) {
        config c = cfg;
        c.onesweep_first_stray_divisor = stray_divisor;
        const std::string how = "stray divisor " + std::to_string(stray_divisor) + (long_from ? ", long tiles" : "");
        for (const std::size_t every : {97, 9}) {
          auto keys = seeded_keys<std::int64_t>(20000, wb::testing::seed(++salt));
          for (std::size_t i = 0; i < keys.size(); ++i) {
            if (i % every != 0) keys[i] = static_cast<std::int64_t>(i) << 20;
          }
          const std::string what = "int64 << 20, one in " + std::to_string(every) + " random, " + how;
          check_pass_kernels(keys, c, true, what);
          if (!wb::testing::testing_solution) continue;
          // And said directly: the few-digits kernel takes the first pass's tile numbers too.
          INFO(what);
          const auto n = static_cast<std::int64_t>(keys.size());
          workspace_buffer<std::int64_t> ws(n, c);
          sort_and_read_plan(keys, false, ws, c);
          const std::int64_t tile = onesweep::stage_shape(8, false, onesweep::long_tiles_for(n, c)).tile();
          const bool few_first = every == 97 ? stray_divisor != -1 : stray_divisor == 8;
          CHECK((onesweep::tiles_taken(ws.view(), n, 8, false, c)[0] > (n + tile - 1) / tile) == few_first);
        }
      }
    }
  }
  TEST_CASE("onesweep: tiles whose keys all share the pass's digit, staged in place without ranking") {
    // Pass 0 of `runs` sees the lowest byte in stretches of 3500 keys: some tiles share one
    // digit, some straddle two, and the last (partial) tile lies in the last stretch; the
    // other bytes are random, so the later passes rank every tile. `strays`: tiles whose keys
    // all share pass 0's digit but one (which the short path must not take). On 16 distinct
    // keys most tiles of the later passes share one digit. Each with the short path
    // (config::onesweep_one_digit_tiles) and without, short tiles and long, and (keys only)
    // in the pass kernel and in the few-digits kernel; keys only and key-value.
    constexpr std::size_t n = 20003;
    const std::uint64_t salt = 1700;
    auto runs = [&]<class K>(K) {
      using U = bits_of<K>;
      auto bits = seeded_keys<U>(n, wb::testing::seed(salt + sizeof(K)));
      std::vector<K> keys(n);
      for (std::size_t i = 0; i < n; ++i) {
        U b = (bits[i] & ~U{0xFF}) | static_cast<U>(std::min<std::size_t>(i / 3500, 3));
        if constexpr (std::is_same_v<K, float>) b &= 0x3FFFFFFFu;  // positive, finite
        keys[i] = std::bit_cast<K>(b);
      }
      return keys;
    };
    auto strays = [&]<class K>(K) {  // the lowest byte 0 but for three keys: tiles of one stray each, or none
      auto keys = seeded_keys<K>(n, wb::testing::seed(salt + 5 + sizeof(K)));
      for (auto& k : keys) k &= ~K{0xFF};
      for (const std::size_t i : {5, 6157, 19000}) keys[i] |= K{0x80} + static_cast<K>(i & 0x3F);
      return keys;
    };
    for (const bool one_digit : {true, false}) {
      for (const std::int64_t long_from : {std::int64_t{0}, std::int64_t{1}}) {
        for (const int match : {-1, 256}) {
          config cfg{};
          cfg.onesweep_one_digit_tiles = one_digit;
          cfg.onesweep_long_tiles_from = long_from;
          cfg.onesweep_match_digits = match;
          cfg.onesweep_few_digits_from = 1;
          cfg.onesweep_few_digits_blocks = 2;
          const std::string how = std::string(one_digit ? "short path" : "ranked") + (long_from ? ", long tiles" : "") +
                                  (match < 0 ? ", pass kernel" : ", few-digits kernel");
          check_stage<std::uint32_t>(5, runs(std::uint32_t{}), cfg, "uint32, the lowest byte in stretches, " + how);
          check_stage<float>(5, runs(float{}), cfg, "float, the lowest byte in stretches, " + how);
          check_stage<std::int64_t>(5, runs(std::int64_t{}), cfg, "int64, the lowest byte in stretches, " + how);
          check_stage<std::uint32_t>(5, strays(std::uint32_t{}), cfg, "uint32, three strays in pass 0, " + how);
          check_stage<std::int64_t>(5, strays(std::int64_t{}), cfg, "int64, three strays in pass 0, " + how);
          check_stage<std::uint32_t>(5, wb::gen::few_distinct<std::uint32_t>(n, wb::testing::seed(salt + 20), 16), cfg,
                                     "uint32, 16 distinct, " + how);
          check_stage<std::int64_t>(5, wb::gen::few_distinct<std::int64_t>(n, wb::testing::seed(salt + 21), 16), cfg,
                                    "int64, 16 distinct, " + how);
        }
      }
    }
  }
  TEST_CASE("onesweep: the histogram in few blocks, each counting many chunks") {
    // The stage gives every histogram block at least histogram_chunks_per_block chunks of keys
    // and at most histogram_blocks_per_sm blocks an SM; here one and three blocks, so
    // a block's grid-stride loop crosses many chunks and ends in a part-filled one.
    using namespace sort::onesweep;
    constexpr std::int64_t chunk = std::int64_t{histogram_block} * histogram_items;
    std::uint64_t salt = 1700;
    config one{}, three{};
    one.onesweep_histogram_blocks = 1;
    three.onesweep_histogram_blocks = 3;
    for (const std::int64_t n : {std::int64_t{1}, chunk + 1, 7 * chunk + 5}) {
      check_stage<std::int64_t>(5, seeded_keys<std::int64_t>(static_cast<std::size_t>(n), wb::testing::seed(++salt)),
                                one, "int64, 1 histogram block");
    }
    for (const std::int64_t n : {chunk - 1, 7 * chunk + 5}) {
      check_stage<std::uint32_t>(5, seeded_keys<std::uint32_t>(static_cast<std::size_t>(n), wb::testing::seed(++salt)),
                                 three, "uint32, 3 histogram blocks");
    }
    // The rule: one block for a few keys, one for every histogram_chunks_per_block chunks,
    // never more than the SMs hold.
    constexpr std::int64_t per_block = chunk * histogram_chunks_per_block;
    CHECK(histogram_blocks_for(0, 132, 0) == 1);
    CHECK(histogram_blocks_for(per_block, 132, 0) == 1);
    CHECK(histogram_blocks_for(per_block + 1, 132, 0) == 2);
    CHECK(histogram_blocks_for(std::int64_t{1} << 34, 132, 0) == std::int64_t{histogram_blocks_per_sm} * 132);
    CHECK(histogram_blocks_for(std::int64_t{1} << 34, 132, 5) == 5);
    CHECK(histogram_blocks_for(3 * chunk, 132, 5) == 3);
  }
  TEST_CASE("onesweep: the histogram started by one call, the sort finished by another") {
    // config::onesweep_run (sort.hpp): a call with the histogram part, then one with the rest on
    // the same keys, n and workspace, sorts as one call does (the counting chapter starts the
    // histogram before it knows it will sort). Between the two, the workspace holds the
    // histogram: the second call must neither clear it nor count again (counted twice, every
    // bucket start is wrong).
    const std::int64_t tile = onesweep_tile(8, false);
    std::uint64_t salt = 1750;
    auto check_split = [&](const auto& keys, const std::string& what) {
      using K = typename std::decay_t<decltype(keys)>::value_type;
      const auto n = static_cast<std::int64_t>(keys.size());
      workspace_buffer<K> ws(n, config{});
      wb::device_buffer<K> d_keys(keys), d_out(keys.size());
      d_out.fill_bytes(0xA5);
      config start{}, rest{};
      start.onesweep_run = onesweep_part::histogram;
      rest.onesweep_run = onesweep_part::after_histogram;
      sort::WB_TRACK::sort_onesweep<K>(d_keys.data(), d_out.data(), nullptr, nullptr, n, ws.view(), start);
      sort::WB_TRACK::sort_onesweep<K>(d_keys.data(), d_out.data(), nullptr, nullptr, n, ws.view(), rest);
      WB_CHECK(cudaDeviceSynchronize());
      INFO("stage 5 in two calls, " << what << ", n " << n);
      const std::string why = sort_error(keys, {}, sorted<K>{d_out.to_host(), {}});
      CHECK_MESSAGE(why.empty(), why);
    };
    for (const std::int64_t n : {std::int64_t{1}, tile - 1, 3 * tile + 5}) {
      const auto size = static_cast<std::size_t>(n);
      check_split(seeded_keys<std::int64_t>(size, wb::testing::seed(++salt)), "int64");
      check_split(wb::gen::few_distinct<std::int64_t>(size, wb::testing::seed(++salt), 16), "int64, 16 distinct");
      check_split(seeded_keys<std::uint32_t>(size, wb::testing::seed(++salt)), "uint32");
    }
  }
  TEST_CASE("onesweep: passes where every key has the same digit are skipped") {
    const std::int64_t tile = onesweep_tile(8, false);
    const auto n = static_cast<std::size_t>(2 * tile + 7);
    const auto seed = wb::testing::seed(960);
    auto with_bytes = [&](std::uint32_t byte_mask) {  // random keys that differ only in the bytes of byte_mask
      auto keys = seeded_keys<std::uint32_t>(n, seed + byte_mask);
      for (auto& k : keys) k = (k & byte_mask) | (0x5A5A5A5Au & ~byte_mask);
      return keys;
    };
    check_stage<std::uint32_t>(5, with_bytes(0xFF000000u), config{}, "uint32, only the top byte varies");
    check_stage<std::uint32_t>(5, with_bytes(0x000000FFu), config{}, "uint32, only the lowest byte varies");
    check_stage<std::uint32_t>(5, with_bytes(0x00FF00FFu), config{}, "uint32, bytes 0 and 2 vary");
    check_stage<std::uint32_t>(5, with_bytes(0x00FFFF00u), config{256, 0, 0, tile}, "uint32, bytes 1 and 2, portions");
    // Every pass skipped: the output is a copy of the input (keys and values), across portions too.
    check_stage<std::uint32_t>(5, with_bytes(0), config{}, "uint32, all equal");
    check_stage<std::uint32_t>(5, with_bytes(0), config{256, 0, 0, tile}, "uint32, all equal, portions");
    check_stage<std::int64_t>(5, wb::gen::all_equal<std::int64_t>(n, -3), config{}, "int64, all equal");
    // 64-bit keys of a small range: the top bytes agree (the chapter's counting case).
    auto small = wb::gen::uniform<std::int64_t>(n, seed, -1000000, 1000000);
    check_stage<std::int64_t>(5, small, config{}, "int64 in +-10^6");
    for (auto& k : small) k = k < 0 ? -k : k;
    check_stage<std::int64_t>(5, small, config{}, "int64 in [0, 10^6]");
  }
  TEST_CASE("onesweep: the plan skips exactly the passes whose digit every key shares (narrow ranges)") {
    // Keys in a narrow range share their high digits: those passes must be skipped (read back
    // from the plan the device wrote, not inferred from timing), the others must sort, and the
    // output must be sorted and stable whichever buffer the last sorting pass writes.
    const std::int64_t tile = onesweep_tile(4, false);
    const auto n = static_cast<std::size_t>(2 * tile + 5);
    std::uint64_t salt = 1500;
    auto check_plan = [&]<class K>(const std::vector<K>& keys, const config& cfg, const std::string& what) {
      using U = bits_of<K>;
      constexpr int passes = static_cast<int>(sizeof(U));
      std::vector<onesweep::pass_mode> expected(passes, onesweep::pass_skip);
      int sorting = 0;
      for (int p = 0; p < passes; ++p) {
        const unsigned first = digit_of(key_bits<K>::to_bits(keys.front()), p * 8, 8);
        const bool varies = std::any_of(keys.begin(), keys.end(),
                                        [&](K k) { return digit_of(key_bits<K>::to_bits(k), p * 8, 8) != first; });
        if (varies) expected[static_cast<std::size_t>(p)] = onesweep::pass_sort;
        sorting += varies ? 1 : 0;
      }
      if (sorting == 0) expected.back() = onesweep::pass_copy;  // the output is a copy of the input
      REQUIRE_FALSE(in_key_order(keys));  // (keys in order are copied: the next test case)
      workspace_buffer<K> ws(static_cast<std::int64_t>(keys.size()), cfg);
      for (const bool pairs : {false, true}) {
        INFO(what << ", n " << keys.size() << (pairs ? ", key-value" : ", keys only") << ", " << sorting
                  << " of " << passes << " digits vary");
        CHECK(sort_and_read_plan(keys, pairs, ws, cfg) == expected);
      }
    };
    auto narrow = [&]<class K>(K lo, K hi) { return wb::gen::uniform<K>(n, wb::testing::seed(++salt), lo, hi); };
    config portions{};
    portions.portion = tile;  // several look-back portions
    config long_tiles{};
    long_tiles.onesweep_long_tiles_from = 1;
    for (const config& cfg : {config{}, portions, long_tiles}) {
      // uint32 that fit in 16 bits: the top two passes skipped; a range across a byte boundary
      // of the third byte: only the top pass.
      check_plan(narrow(std::uint32_t{0}, std::uint32_t{65535}), cfg, "uint32 below 2^16");
      check_plan(narrow(std::uint32_t{0x1234FF00u}, std::uint32_t{0x12350100u}), cfg, "uint32 across a byte");
      check_plan(narrow(std::int32_t{1 << 20}, std::int32_t{(1 << 20) + 4095}), cfg, "int32 in 2^20 + [0, 2^12)");
      check_plan(narrow(std::int32_t{-40000}, std::int32_t{-30000}), cfg, "negative int32");
      check_plan(narrow(1024.0f, 1025.0f), cfg, "float in [1024, 1025)");
      check_plan(narrow(-2.0f, -1.5f), cfg, "float in [-2, -1.5)");
      // int64 in a narrow range: six of eight passes skipped; across zero the flipped sign bit
      // makes every digit vary.
      check_plan(narrow(std::int64_t{1} << 40, (std::int64_t{1} << 40) + 65535), cfg, "int64 in 2^40 + [0, 2^16)");
      check_plan(narrow(std::int64_t{-1000000}, std::int64_t{1000000}), cfg, "int64 in +-10^6");
      check_plan(wb::gen::few_distinct<std::uint32_t>(n, wb::testing::seed(++salt), 16), cfg, "16 distinct uint32");
      auto few_small = wb::gen::few_distinct<std::uint32_t>(n, wb::testing::seed(++salt), 16);
      for (auto& k : few_small) k &= 0xFFFu;  // few distinct values that share their high digits
      check_plan(few_small, cfg, "16 distinct uint32 below 2^12");
      check_plan(seeded_keys<float>(n, wb::testing::seed(++salt)), cfg, "float, the whole range");
    }
  }
  TEST_CASE("onesweep: keys already in order are copied, one pair out of order anywhere is sorted") {
    // The histogram kernel counts the keys in order with their left neighbour (key i - 1 <=
    // key i, by key_bits); with all n of them no pass sorts and the last one copies. While a
    // block has seen no key out of order, its warps read rows of 32 keys: a key's left
    // neighbour is in the lane before, in lane 31 of the row before, or (the warp's first key)
    // in memory; after the first one out of order the block goes on with the plain histogram.
    // One swapped pair at each of those boundaries, and across warps, chunks and the histogram
    // blocks' grid-stride loop (a block that has switched, a block that finds its first pair
    // out of order in its second chunk), must be found, or the copy is unsorted. On the
    // solution track the plan is read back as well.
    using namespace sort::onesweep;
    constexpr std::int64_t chunk = std::int64_t{histogram_block} * histogram_items;
    const std::int64_t n = 5 * chunk + 3;
    config three{};
    three.onesweep_histogram_blocks = 3;  // a grid-stride loop over the chunks
    auto check_order = [&]<class K>(const std::vector<K>& keys, const config& cfg, const std::string& what) {
      const bool in_order = in_key_order(keys);
      workspace_buffer<K> ws(static_cast<std::int64_t>(keys.size()), cfg);
      for (const bool pairs : {false, true}) {
        INFO(what << ", n " << keys.size() << (pairs ? ", key-value" : ", keys only"));
        const auto modes = sort_and_read_plan(keys, pairs, ws, cfg);
        if (!wb::testing::testing_solution) continue;  // the exercise need not count the keys in order
        const bool copied = modes.back() == pass_copy &&
                            std::all_of(modes.begin(), modes.end() - 1, [](pass_mode m) { return m == pass_skip; });
        CHECK(copied == in_order);
      }
    };
    auto ascending = [&]<class K>(K first, K step) {
      std::vector<K> keys(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) {
        keys[static_cast<std::size_t>(i)] = static_cast<K>(first + static_cast<K>(i) * step);
      }
      return keys;
    };
    const auto u32 = ascending(std::uint32_t{5}, std::uint32_t{7});
    const auto i32 = ascending(std::int32_t{-7 * 2 * chunk}, std::int32_t{7});  // across zero (the flipped sign bit)
    const auto i64 = ascending(std::int64_t{-1} << 45, std::int64_t{1} << 33);
    const auto f32 = ascending(-1000.5f, 0.25f);
    for (const config& cfg : {config{}, three}) {
      check_order(u32, cfg, "uint32 ascending");
      check_order(i32, cfg, "int32 ascending");
      check_order(i64, cfg, "int64 ascending");
      check_order(f32, cfg, "float ascending");
      // Left neighbours across a lane, a row of 32, a warp's rows, a chunk, a histogram block, the end.
      constexpr std::int64_t warp_keys = 32 * histogram_items;
      for (const std::int64_t at : {std::int64_t{1}, std::int64_t{17}, std::int64_t{32}, std::int64_t{64},
                                    warp_keys, warp_keys + 32, chunk - 1, chunk, 3 * chunk, n - 1}) {
        auto swapped = u32;
        std::swap(swapped[static_cast<std::size_t>(at - 1)], swapped[static_cast<std::size_t>(at)]);
        check_order(swapped, cfg,
                    "uint32 ascending, keys " + std::to_string(at - 1) + " and " + std::to_string(at) + " swapped");
      }
    }
    auto i64_swapped = i64;
    std::swap(i64_swapped[static_cast<std::size_t>(chunk - 1)], i64_swapped[static_cast<std::size_t>(chunk)]);
    check_order(i64_swapped, config{}, "int64 ascending, a pair swapped across a chunk");
    // Equal neighbours are in order (stable: a copy keeps the values' order); -0.0 before +0.0
    // is in key_bits' order, +0.0 before -0.0 is not.
    auto runs = wb::gen::few_distinct<std::int32_t>(static_cast<std::size_t>(n), wb::testing::seed(1790), 16);
    std::sort(runs.begin(), runs.end());
    check_order(runs, config{}, "int32, 16 distinct, in order");
    check_order(std::vector<float>{-1.0f, -0.0f, 0.0f, 2.0f}, config{}, "float, -0 then +0");
    check_order(std::vector<float>{-1.0f, 0.0f, -0.0f, 2.0f}, config{}, "float, +0 then -0");
    check_order(std::vector<std::uint32_t>{7}, config{}, "one key");
    check_order(std::vector<std::uint32_t>{9, 8}, config{}, "two keys out of order");
    check_order(wb::gen::all_equal<std::int64_t>(static_cast<std::size_t>(n), std::int64_t{-5}), config{},
                "int64, all equal");
  }
  TEST_CASE("onesweep: values at any alignment") {
    // The solution copies each tile's values 16 bytes at a time where the values start on a
    // 16-byte boundary, one at a time otherwise: values (and keys) 0 to 3 elements past an
    // aligned start, short tiles and long, partial last tiles.
    std::uint64_t salt = 990;
    for (const std::int64_t long_from : {std::int64_t{0}, std::int64_t{1}}) {
      config cfg{};
      cfg.onesweep_long_tiles_from = long_from;
      for (const std::size_t shift : {0, 1, 2, 3}) {
        auto run = [&]<class K>(K, std::size_t n) {
          const auto keys = seeded_keys<K>(n, wb::testing::seed(++salt));
          const auto values = positions(n);
          wb::device_buffer<K> d_keys(n + shift), d_out(n + shift);
          wb::device_buffer<std::uint32_t> d_values(n + shift), d_values_out(n + shift);
          WB_CHECK(cudaMemcpy(d_keys.data() + shift, keys.data(), n * sizeof(K), cudaMemcpyHostToDevice));
          WB_CHECK(cudaMemcpy(d_values.data() + shift, values.data(), n * sizeof(std::uint32_t),
                              cudaMemcpyHostToDevice));
          workspace_buffer<K> ws(static_cast<std::int64_t>(n), cfg);
          sort::WB_TRACK::sort_onesweep<K>(d_keys.data() + shift, d_out.data() + shift, d_values.data() + shift,
                                           d_values_out.data() + shift, static_cast<std::int64_t>(n), ws.view(), cfg);
          WB_CHECK(cudaDeviceSynchronize());
          std::vector<K> out_keys(n);
          std::vector<std::uint32_t> out_values(n);
          WB_CHECK(cudaMemcpy(out_keys.data(), d_out.data() + shift, n * sizeof(K), cudaMemcpyDeviceToHost));
          WB_CHECK(cudaMemcpy(out_values.data(), d_values_out.data() + shift, n * sizeof(std::uint32_t),
                              cudaMemcpyDeviceToHost));
          INFO(sizeof(K) << "-byte keys, n " << n << ", " << shift << " elements past an aligned start"
                         << (long_from ? ", long tiles" : ""));
          const std::string why = sort_error(keys, values, sorted<K>{out_keys, out_values});
          CHECK_MESSAGE(why.empty(), why);
        };
        run(std::uint32_t{}, 20011);
        run(std::int64_t{}, 13001);
      }
    }
  }
  TEST_CASE("onesweep: one workspace, several sorts") {
    // Stale tile counters or status words of an earlier sort must not leak into the next one.
    const std::int64_t tile = onesweep_tile(4, true);
    const auto n = 3 * tile + 11;
    const config cfg{};
    workspace_buffer<float> ws(n, cfg);
    for (int round = 0; round < 3; ++round) {
      const auto keys = round == 1 ? wb::gen::all_equal<float>(static_cast<std::size_t>(n), 2.5f)
                                   : seeded_keys<float>(static_cast<std::size_t>(n), wb::testing::seed(970 + round));
      const auto values = positions(keys.size());
      wb::device_buffer<float> d_keys(keys), d_out(keys.size());
      wb::device_buffer<std::uint32_t> d_values(values), d_values_out(values.size());
      sort::WB_TRACK::sort_onesweep<float>(d_keys.data(), d_out.data(), d_values.data(), d_values_out.data(), n,
                                           ws.view(), cfg);
      WB_CHECK(cudaDeviceSynchronize());
      INFO("round " << round);
      const std::string why = sort_error(keys, values, sorted<float>{d_out.to_host(), d_values_out.to_host()});
      CHECK_MESSAGE(why.empty(), why);
    }
  }
}
TEST_SUITE("sort/6 merge") {
  TEST_CASE("merge sort: sizes, patterns, extremes, key-value") { check_all(6); }
  TEST_CASE("merge sort: sizes just off the tiles and run boundaries of every level") {
    // Block 64: level 0 sorts tiles of 64 x 3 = 192 keys, each later level doubles the runs.
    // n = 192 * 2^L - 1, + 0, + 1 leaves the last pair one short, exact, or one key with no
    // sibling run (copied through the level); odd multiples give a short last run.
    const config cfg{64, 0, 0};
    const std::int64_t tile = merge_tiles_for(cfg, 4, false).sort_tile;
    REQUIRE(tile == 192);
    for (const int level : {0, 1, 2, 4}) {
      for (const std::int64_t delta : {-1, 0, 1}) {
        const std::int64_t n = (tile << level) + delta;
        check_stage<std::uint32_t>(6, seeded_keys<std::uint32_t>(n, wb::testing::seed(960 + n)), cfg, "uint32");
      }
    }
    check_stage<std::int64_t>(6, seeded_keys<std::int64_t>(5 * tile + 7, wb::testing::seed(968)), cfg, "int64");
    check_stage<float>(6, seeded_keys<float>(3 * tile - 1, wb::testing::seed(969)), cfg, "float");
  }
  TEST_CASE("merge sort: stability on few distinct keys across many levels") {
    const config cfg{32, 0, 0};  // tiles of 96: a 3000-key input takes 5 merge levels
    check_stage<std::int32_t>(6, wb::gen::few_distinct<std::int32_t>(3000, wb::testing::seed(975), 2), cfg,
                              "two distinct values");
    check_stage<std::int64_t>(6, wb::gen::all_equal<std::int64_t>(3001, std::int64_t{-3}), cfg, "all equal");
  }
  TEST_CASE("merge sort: the default shape, one merge level and a short last pair") {
    const config cfg{};  // block 256: the tuned shape
    const merge_tiles t = merge_tiles_for(cfg, 4, false);  // keys only: the largest tiles
    REQUIRE(t.sort_tile % t.merge_tile == 0);
    // Keys only: one level, its last tile a single key; key-value (smaller tiles): two levels.
    check_stage<std::uint32_t>(6, seeded_keys<std::uint32_t>(t.sort_tile + t.merge_tile + 1, wb::testing::seed(980)),
                               cfg, "uint32");
  }
  TEST_CASE("merge sort: a block size without a compiled shape is refused") {
    std::vector<std::uint32_t> keys = {3, 1, 2};
    CHECK_THROWS_AS(run_stage<std::uint32_t>(6, keys, {}, config{128, 0, 0}), std::invalid_argument);
  }
}
