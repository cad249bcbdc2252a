// What the matmul experiments share: inputs made on the device, the double-precision reference,
// one timed configuration per line (checked against the reference first), the library rows, and
// the command line (shapes, --csv, --only).
//
//   PROGRAM [--csv FILE] [--only TEXT] [--skip TEXT] SHAPE...     SHAPE: 4096 (a square) or M,N,K
//
// --only runs the configurations whose stage and name contain TEXT, --skip those that contain
// none of a comma-separated list (the library rows always run).
//
// Each line: M,N,K,stage,configuration,median_ms,tflop_per_s,vs_library,verified. vs_library is
// the library's median over the configuration's, measured on the same inputs in the same
// process; a configuration whose output is wrong says "NO" and how many elements were.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "wb/device_buffer.hpp"
#include "wb/device_info.hpp"
#include "wb/kernel.hpp"
#include "wb/timing.hpp"

#include "baseline_cublas.hpp"
#include "error_bound.hpp"
#include "matmul.hpp"
#include "reference_device.hpp"

namespace matmul::experiment {

// Uniform in [-1, 1) from a hash of the index: inputs made on the device, any size quickly.
__device__ inline float hashed_uniform(std::uint64_t i, std::uint64_t seed) {
  std::uint64_t z = i * 0x9E3779B97F4A7C15ull + seed;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<float>(static_cast<double>(z >> 11) * 0x1p-53 * 2 - 1);
}
template <class T>
__global__ void fill_uniform(T* out, std::int64_t count, std::uint64_t seed) {
  for (std::int64_t i = wb::global_thread_index(); i < count; i += wb::grid_thread_count()) {
    if constexpr (std::is_same_v<T, bf16>)
      out[i] = wb::to_bf16(hashed_uniform(static_cast<std::uint64_t>(i), seed));
    else
      out[i] = hashed_uniform(static_cast<std::uint64_t>(i), seed);
  }
}

struct shape {
  std::int64_t M, N, K;
};

// One problem of element type T on the device, its reference, and the runs measured on it.
template <class T>
class bench {
 public:
  explicit bench(shape s, std::string only)
      : s_(s),
        only_(std::move(only)),
        skip_(skip_text()),
        A_(count(s.M, s.K)),
        B_(count(s.K, s.N)),
        C_(count(s.M, s.N)),
        exact_(count(s.M, s.N)),
        abs_(count(s.M, s.N)) {
    wb::launch({dim3(1024), dim3(256)}, fill_uniform<T>, A_.data(), s.M * s.K, std::uint64_t{1});
    wb::launch({dim3(1024), dim3(256)}, fill_uniform<T>, B_.data(), s.K * s.N, std::uint64_t{2});
    matmul_reference::product_device(A_.data(), B_.data(), s.M, s.N, s.K, exact_.data(), abs_.data());
    WB_CHECK(cudaDeviceSynchronize());
  }
  problem<T> p() { return {A_.data(), B_.data(), C_.data(), s_.M, s_.N, s_.K}; }
  // Scratch device memory of at least `bytes` (stage 6's padded copies).
  wb::workspace workspace(std::size_t bytes) {
    if (workspace_.size() < bytes) workspace_ = wb::device_buffer<unsigned char>(bytes);
    return {workspace_.data(), workspace_.size()};
  }

  // The library's row first: every later line is compared with it.
  void library(const std::string& stage, const std::string& config, const std::function<void()>& run) {
    measure(stage, config, run, true);
  }
  // Runs `run` once to check it, then times it; prints the line. Configurations whose name does
  // not contain --only's text are left out.
  void measure(const std::string& stage, const std::string& config, const std::function<void()>& run,
               bool is_library = false) {
    const std::string named = stage + " " + config;
    if (!is_library && !only_.empty() && named.find(only_) == std::string::npos) return;
    if (!is_library && skipped(named)) return;
    if (config.find(',') != std::string::npos) throw std::invalid_argument("a configuration's name has no comma: " + config);
    std::string line;
    try {
      C_.fill_bytes(0x7F);
      run();
      WB_CHECK(cudaDeviceSynchronize());
      const error_model model = std::is_same_v<T, bf16> ? bf16_error_model(s_.K) : fp32_error_model(s_.K);
      const auto counts = matmul_reference::check_device(C_.data(), exact_.data(), abs_.data(), s_.M * s_.N, model);
      const wb::timing t = wb::time_gpu(run);
      if (is_library) library_ms_ = t.median_ms;
      const double tflops =
          2.0 * static_cast<double>(s_.M) * static_cast<double>(s_.N) * static_cast<double>(s_.K) / (t.median_ms * 1e9);
      char text[512];
      char ratio[32] = "";
      if (!is_library && library_ms_ > 0) std::snprintf(ratio, sizeof ratio, "%.3f", library_ms_ / t.median_ms);
      const std::string verified = counts.wrong == 0 ? "yes" : "NO (" + std::to_string(counts.wrong) + " wrong)";
      std::snprintf(text, sizeof text, "%lld,%lld,%lld,%s,%s,%.4f,%.1f,%s,%s", static_cast<long long>(s_.M),
                    static_cast<long long>(s_.N), static_cast<long long>(s_.K), stage.c_str(), config.c_str(),
                    t.median_ms, tflops, ratio, verified.c_str());
      line = text;
    } catch (const std::exception& e) {
      line = std::to_string(s_.M) + "," + std::to_string(s_.N) + "," + std::to_string(s_.K) + "," + stage + "," +
             config + ",,,,failed: " + e.what();
      (void)cudaGetLastError();
    }
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
    lines().push_back(line);
  }

  static std::vector<std::string>& lines() {
    static std::vector<std::string> all;
    return all;
  }
  bool skipped(const std::string& named) const {
    std::size_t from = 0;
    while (from <= skip_.size() && !skip_.empty()) {
      const std::size_t comma = std::min(skip_.find(',', from), skip_.size());
      const std::string part = skip_.substr(from, comma - from);
      if (!part.empty() && named.find(part) != std::string::npos) return true;
      from = comma + 1;
    }
    return false;
  }
  static std::string& skip_text() {
    static std::string text;
    return text;
  }

 private:
  static std::size_t count(std::int64_t a, std::int64_t b) { return static_cast<std::size_t>(a * b); }
  shape s_;
  std::string only_;
  std::string skip_;
  wb::device_buffer<T> A_, B_, C_;
  wb::device_buffer<double> exact_, abs_;
  wb::device_buffer<unsigned char> workspace_;
  double library_ms_ = 0;
};

inline void library_fp32(bench<float>& b) {
  b.library("cublasSgemm", "default math", [&] { baseline::cublas_sgemm(b.p()); });
}
inline void library_bf16(bench<bf16>& b) {
  b.library("cublasGemmEx", "bf16 in and out fp32 sums", [&] { baseline::cublas_gemm_bf16(b.p()); });
}

inline shape parse_shape(const std::string& text) {
  long long m = 0, n = 0, k = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%lld,%lld,%lld%c", &m, &n, &k, &tail) == 3) return {m, n, k};
  if (std::sscanf(text.c_str(), "%lld%c", &m, &tail) == 1) return {m, m, m};
  throw std::invalid_argument("a shape is SIZE (a square) or M,N,K, not '" + text + "'");
}

// The command line: [--csv FILE] [--only TEXT] SHAPE...; `each` runs the configurations at one
// shape. Returns the exit status.
inline int run(int argc, char** argv, const char* usage,
               const std::function<void(const shape&, const std::string& only)>& each) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string csv, only;
  std::vector<shape> shapes;
  try {
    for (std::size_t i = 0; i < args.size(); ++i) {
      if ((args[i] == "--csv" || args[i] == "--only" || args[i] == "--skip") && i + 1 < args.size()) {
        (args[i] == "--csv" ? csv : args[i] == "--only" ? only : bench<float>::skip_text()) = args[i + 1];
        bench<bf16>::skip_text() = bench<float>::skip_text();
        ++i;
      } else {
        const shape s = parse_shape(args[i]);
        if (s.M <= 0 || s.N <= 0 || s.K <= 0) throw std::invalid_argument("sizes must be positive: " + args[i]);
        shapes.push_back(s);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\nusage: %s\n", e.what(), usage);
    return 2;
  }
  if (shapes.empty()) {
    std::fprintf(stderr, "usage: %s\n", usage);
    return 2;
  }
  int status = 0;
  try {
    wb::print_device_info_or_exit();
    std::printf("M,N,K,stage,configuration,median_ms,tflop_per_s,vs_library,verified\n");
    for (const shape& s : shapes) each(s, only);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    status = 1;
  }
  if (!csv.empty()) {
    std::FILE* f = std::fopen(csv.c_str(), "w");
    if (f == nullptr) return 1;
    std::fprintf(f, "M,N,K,stage,configuration,median_ms,tflop_per_s,vs_library,verified\n");
    for (const auto& l : bench<float>::lines()) std::fprintf(f, "%s\n", l.c_str());
    for (const auto& l : bench<bf16>::lines()) std::fprintf(f, "%s\n", l.c_str());
    std::fclose(f);
  }
  return status;
}

}  // namespace matmul::experiment
