// Helpers for the reduction checks: the independent reference, running a stage on the
// device, and the comparison with a message that says what went wrong.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <cstdint>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "reduction.hpp"
#include "stages.hpp"
#include "wb/check.hpp"
#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#include "wb/runtime.hpp"
#include "wb/testing.hpp"

namespace reduction::testing {

namespace track = ::reduction::WB_TRACK;

template <class T>
using device_stage_fn = void (*)(const T*, std::int64_t, sum_t<T>*, const workspace<T>&, const config&);

template <class T>
device_stage_fn<T> device_stage(int number) {
  wb::testing::expect_stage_in_reach(number);
  switch (number) {
    case 1: return &track::sum_two_pass<T>;
    case 2: return &track::sum_warp_synchronous<T>;
    case 3: return &track::sum_unrolled<T>;
    case 4: return &track::sum_shuffle<T>;
    case 5: return &track::sum_at_bandwidth<T>;
    default: throw std::invalid_argument("no device stage " + std::to_string(number));
  }
}

template <class T>
std::string type_name() {
  if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, double>) return "double";
}

inline std::string to_string(__int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 u = negative ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  std::string digits;
  while (u > 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return negative ? "-" + digits : digits;
}

// The independent reference: std::accumulate into a wider type, written here and not
// shared with stage 0. Integers: exact in 128 bits. Floating point: __float128 (113-bit
// significand: a million additions lose less than 2^-90 of sum|x|), plus sum(|x|) for the
// tolerance.
struct reference {
  __int128 exact = 0;
  long double value = 0;
  long double sum_abs = 0;
};

template <class T>
reference reference_sum(const std::vector<T>& data) {
  reference r;
  if constexpr (std::is_integral_v<T>) {
    r.exact = std::accumulate(data.begin(), data.end(), __int128{0},
                              [](__int128 acc, T x) { return acc + static_cast<__int128>(x); });
  } else {
    const __float128 sum = std::accumulate(data.begin(), data.end(), __float128{0},
                                           [](__float128 acc, T x) { return acc + static_cast<__float128>(x); });
    const __float128 sum_abs = std::accumulate(data.begin(), data.end(), __float128{0}, [](__float128 acc, T x) {
      return acc + static_cast<__float128>(x < 0 ? -x : x);
    });
    r.value = static_cast<long double>(sum);
    r.sum_abs = static_cast<long double>(sum_abs);
  }
  return r;
}

// True if v still holds the poison a test writes into the output before a stage runs
// (every byte 0xA5): the stage never wrote its sum.
template <class S>
bool never_written(const S& v) {
  S poison;
  std::memset(&poison, 0xA5, sizeof poison);
  return std::memcmp(&v, &poison, sizeof v) == 0;
}

// Empty if `got` is the sum of `data` (integers: exactly; floating point: within
// tolerance<T>(sum|x|, depth), reduction.hpp); else what is wrong.
template <class T>
std::string sum_mismatch(const std::vector<T>& data, sum_t<T> got, std::int64_t depth) {
  const reference ref = reference_sum(data);
  std::ostringstream out;
  out.precision(17);
  if (never_written(got)) {
    out << "expected ";
    if constexpr (std::is_integral_v<T>) out << to_string(ref.exact);
    else out << static_cast<double>(ref.value);
    out << ", got nothing: *out was never written";
    return out.str();
  }
  if constexpr (std::is_integral_v<T>) {
    if (static_cast<__int128>(got) == ref.exact) return {};
    out << "expected " << to_string(ref.exact) << ", got " << got;
  } else {
    const double tol = tolerance<T>(static_cast<double>(ref.sum_abs), depth);
    const long double error = std::fabs(static_cast<long double>(got) - ref.value);
    if (std::isfinite(got) && error <= tol) return {};
    out << "expected " << static_cast<double>(ref.value) << ", got " << got << ": error "
        << static_cast<double>(error) << " above the tolerance " << tol << " (depth " << depth
        << " x eps x sum|x| = " << static_cast<double>(ref.sum_abs) << ")";
  }
  return out.str();
}

inline std::string describe(const std::string& type, std::size_t n, const config& cfg, std::size_t offset = 0) {
  std::ostringstream out;
  out << type << ", n = " << n << ", block = " << cfg.block << ", blocks = " << cfg.blocks
      << (cfg.blocks == 0 ? " (auto)" : "");
  if (offset != 0) out << ", input starts " << offset << " items past an aligned address";
  return out.str();
}

// A value that must never reach a sum: the padding before and after the input.
template <class T>
constexpr T sentinel() {
  return static_cast<T>(1000003);
}

// Runs a device stage on `data` (copied `offset` items past the start of an allocation,
// with sentinel padding on both sides: a read outside [in, in + n) changes the sum) and
// returns the sum it wrote (the output is poisoned first: an unwritten sum is visible).
template <class T>
sum_t<T> run_device(device_stage_fn<T> fn, const std::vector<T>& data, const config& cfg,
                    std::size_t offset = 0) {
  constexpr std::size_t trailing = 16;
  std::vector<T> padded(offset + data.size() + trailing, sentinel<T>());
  std::copy(data.begin(), data.end(), padded.begin() + static_cast<std::ptrdiff_t>(offset));
  wb::device_buffer<T> d_in(padded);
  wb::device_buffer<sum_t<T>> d_out(1);
  d_out.fill_bytes(0xA5);
  const auto n = static_cast<std::int64_t>(data.size());
  workspace_buffer<T> ws(n, cfg);
  fn(d_in.data() + offset, n, d_out.data(), ws.view(), cfg);
  WB_CHECK(cudaDeviceSynchronize());
  return d_out.to_host()[0];
}

// Runs device stage `number` and CHECKs its sum against the reference.
template <class T>
void check_stage(int number, const std::vector<T>& data, const config& cfg, std::size_t offset = 0) {
  const sum_t<T> got = run_device(device_stage<T>(number), data, cfg, offset);
  const std::string mismatch =
      sum_mismatch(data, got, rounding_depth(static_cast<std::int64_t>(data.size()), cfg));
  CHECK_MESSAGE(mismatch.empty(), "stage " << number << ", " << describe(type_name<T>(), data.size(), cfg, offset)
                                           << ": " << mismatch);
}

// Seeded random data of each type, in a range whose sums cannot overflow sum_t<T>:
// int32 over its whole range (the int64 sum holds 2^32 of them), int64 within +-2^40,
// float in [-1, 1), double in [-1000, 1000).
template <class T>
std::vector<T> seeded_data(std::size_t n, std::uint64_t seed) {
  if constexpr (std::is_same_v<T, std::int32_t>) return wb::gen::uniform<T>(n, seed);
  if constexpr (std::is_same_v<T, std::int64_t>) return wb::gen::uniform<T>(n, seed, -(T{1} << 40), T{1} << 40);
  if constexpr (std::is_same_v<T, float>) return wb::gen::uniform<T>(n, seed, -1.0f, 1.0f);
  if constexpr (std::is_same_v<T, double>) return wb::gen::uniform<T>(n, seed, -1000.0, 1000.0);
}

// Sizes just off every boundary a stage has with this config: a warp, the block, one sweep
// of the grid (blocks x block), and stage 5's sweep of 16 items a thread.
inline std::vector<std::size_t> boundary_sizes(const config& cfg) {
  const auto b = static_cast<std::size_t>(cfg.block);
  const auto g = static_cast<std::size_t>(cfg.blocks > 0 ? cfg.blocks : 1);
  std::vector<std::size_t> sizes = {0, 1, 2, 3, 4, 5, 31, 32, 33};
  for (std::size_t edge : {b, b * g, 2 * b * g, 4 * b * g, 16 * b * g, 3 * 16 * b * g}) {
    sizes.push_back(edge - 1);
    sizes.push_back(edge);
    sizes.push_back(edge + 1);
  }
  sizes.push_back(3 * 16 * b * g + 4 * b + 7);  // several sweeps, then a ragged remainder
  return sizes;
}

#if defined(WB_BACKEND_CPU)
// Sets the cpu backend's scheduling order for one scope (WB_CPU_ORDER for the rest).
class scoped_schedule_order {
 public:
  explicit scoped_schedule_order(const std::string& order) : saved_(wb::cpu::schedule_order_name()) {
    wb::cpu::set_schedule_order(order);
  }
  ~scoped_schedule_order() { wb::cpu::set_schedule_order(saved_); }
  scoped_schedule_order(const scoped_schedule_order&) = delete;
  scoped_schedule_order& operator=(const scoped_schedule_order&) = delete;

 private:
  std::string saved_;
};
#endif

}  // namespace reduction::testing
