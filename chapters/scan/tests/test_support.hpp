// What the scan checks share: running a stage of the track under test on host data, an
// independent reference, and the comparison (exact for integers, scan::tolerance for floats).
#pragma once

#include <cmath>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "scan.hpp"
#include "stages.hpp"
#include "wb/check.hpp"
#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#include "wb/runtime.hpp"
#include "wb/testing.hpp"

namespace scan::testing {

// The track under test (WB_TRACK: solution or exercise) runs stage `stage` on `in`.
template <class T>
std::vector<T> run_stage(int stage, const std::vector<T>& in, const config& cfg) {
  wb::testing::expect_stage_in_reach(stage);
  namespace track = scan::WB_TRACK;
  std::vector<T> out(in.size(), T(-3));
  if (stage == 0) {
    track::scan_sequential<T>(std::span<const T>(in), std::span<T>(out), cfg.exclusive);
    return out;
  }
  using fn_t = void (*)(const T*, T*, std::int64_t, const workspace&, const config&);
  const fn_t fns[] = {nullptr,
                      &track::scan_kogge_stone<T>,
                      &track::scan_brent_kung<T>,
                      &track::scan_coarsened<T>,
                      &track::scan_hierarchical<T>,
                      &track::scan_domino<T>,
                      &track::scan_single_pass<T>};
  const auto n = static_cast<std::int64_t>(in.size());
  wb::device_buffer<T> d_in(in);
  wb::device_buffer<T> d_out(in.size());
  d_out.fill_bytes(0xA5);  // an item nobody writes is visible
  workspace_buffer<T> ws(n, cfg);
  fns[stage](d_in.data(), d_out.data(), n, ws.view(), cfg);
  WB_CHECK(cudaDeviceSynchronize());
  return d_out.to_host();
}

// Independent of stage 0: the standard library's scans, integers in unsigned arithmetic
// (wrapping), floats in double.
template <class T>
std::vector<T> reference_integer(const std::vector<T>& in, bool exclusive) {
  using U = std::make_unsigned_t<T>;
  std::vector<U> u(in.begin(), in.end());
  std::vector<U> r(in.size());
  if (exclusive) std::exclusive_scan(u.begin(), u.end(), r.begin(), U{0});
  else std::inclusive_scan(u.begin(), u.end(), r.begin());
  return std::vector<T>(r.begin(), r.end());
}

inline std::string describe(int stage, std::size_t n, const config& cfg) {
  return "stage " + std::to_string(stage) + ", n " + std::to_string(n) + ", block " + std::to_string(cfg.block) +
         ", items per thread " + std::to_string(cfg.items_per_thread) + (cfg.exclusive ? ", exclusive" : ", inclusive");
}

// Empty when out is the scan of in; else the first wrong index.
template <class T>
std::string scan_error(const std::vector<T>& in, const std::vector<T>& out, bool exclusive) {
  if (out.size() != in.size()) return "size " + std::to_string(out.size()) + " for " + std::to_string(in.size()) + " items";
  if constexpr (std::is_integral_v<T>) {
    const auto expected = reference_integer(in, exclusive);
    const auto mismatch = wb::testing::first_mismatch(expected, out);
    return mismatch ? *mismatch : std::string();
  } else {
    const std::int64_t depth = std::max<std::int64_t>(rounding_depth(static_cast<std::int64_t>(in.size())), 1);
    double running = 0, running_abs = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      double expected = running;
      running += in[i];
      running_abs += std::fabs(static_cast<double>(in[i]));
      if (!exclusive) expected = running;
      const double error = std::fabs(static_cast<double>(out[i]) - expected);
      if (!(error <= tolerance<T>(running_abs, depth))) {
        return "at index " + std::to_string(i) + ": expected " + std::to_string(expected) + ", got " +
               std::to_string(out[i]) + " (error " + std::to_string(error) + ")";
      }
    }
    return {};
  }
}

template <class T>
void check_stage(int stage, const std::vector<T>& in, const config& cfg) {
  const std::string error = scan_error(in, run_stage<T>(stage, in, cfg), cfg.exclusive);
  CHECK_MESSAGE(error.empty(), describe(stage, in.size(), cfg) << ": " << error);
}

// Seeded random data: integers over the whole range (so sums wrap), floats in [-1, 1].
template <class T>
std::vector<T> seeded_data(std::size_t n, std::uint64_t seed) {
  if constexpr (std::is_integral_v<T>) return wb::gen::uniform<T>(n, seed);
  else return wb::gen::uniform<T>(n, seed, T(-1), T(1));
}

}  // namespace scan::testing
