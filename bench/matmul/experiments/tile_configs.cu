// An experiment beside the chapter: the tile shapes and pipeline depths behind stages 4, 5 and
// 6, timed in one process with cuBLAS on the same device-generated inputs, every output checked
// against a double-precision product on the device. It compiles the solution's own sources
// (#include of solutions/matmul/...), so every configuration runs the solution's kernels, only
// with other template arguments. Which configuration each stage ships with, and why, is in the
// README's measurements.
//
//   configs   at each size: stage 4's block tiles (128 x 128 x 8 and x 16, 128 x 256, 256 x 128,
//             64 x 64) against cublasSgemm; stage 5's tiles and depths, stage 6's ring depths
//             (3, 4) and tile orders (rows, groups of 8 and 16) and the simple kernel, against
//             cublasGemmEx
//   sweep     stage 6 (and 4 with "fp32") against the library on a list of shapes M,N,K
//
// Build (cuda backend, an sm_90 GPU to run): cmake --build build --target matmul_tile_configs
// Run: build/chapters/matmul/matmul_tile_configs configs 4096 8192
//      build/chapters/matmul/matmul_tile_configs sweep 512,512,512 16,8192,8192 [fp32]
// Prints one line per (shape, configuration); --csv FILE (first argument) also writes them.
#include <cstdio>
#include <cstdlib>
#include <functional>
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

// The solution's stages 4, 5 and 6, compiled here (WB_TRACK=solution).
#include "../../../solutions/matmul/fp32_ceiling.cu"
#include "../../../solutions/matmul/hopper/hopper.cu"
#include "../../../solutions/matmul/wmma.cu"

namespace {

using namespace matmul;

// Uniform in [-1, 1) from a hash of the index: inputs made on the device, any size quickly.
__device__ float hashed_uniform(std::uint64_t i, std::uint64_t seed) {
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
  explicit bench(shape s)
      : s_(s),
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

  // Runs `run` once to check it, then times it; prints and returns the line ("" if it failed to run).
  std::string measure(const std::string& stage, const std::string& config, const std::function<void()>& run,
                      double library_ms) {
    std::string line;
    try {
      C_.fill_bytes(0x7F);
      run();
      WB_CHECK(cudaDeviceSynchronize());
      const error_model model = std::is_same_v<T, bf16> ? bf16_error_model(s_.K) : fp32_error_model(s_.K);
      const auto counts = matmul_reference::check_device(C_.data(), exact_.data(), abs_.data(), s_.M * s_.N, model);
      const wb::timing t = wb::time_gpu(run);
      last_ms_ = t.median_ms;
      const double tflops =
          2.0 * static_cast<double>(s_.M) * static_cast<double>(s_.N) * static_cast<double>(s_.K) / (t.median_ms * 1e9);
      char text[512];
      char ratio[32] = "";
      if (library_ms > 0) std::snprintf(ratio, sizeof ratio, "%.3f", library_ms / t.median_ms);
      const std::string verified = counts.wrong == 0 ? "yes" : "NO (" + std::to_string(counts.wrong) + " wrong)";
      std::snprintf(text, sizeof text, "%lld,%lld,%lld,%s,%s,%.4f,%.1f,%s,%s", static_cast<long long>(s_.M),
                    static_cast<long long>(s_.N), static_cast<long long>(s_.K), stage.c_str(), config.c_str(),
                    t.median_ms, tflops, ratio, verified.c_str());
      line = text;
    } catch (const std::exception& e) {
      line = std::to_string(s_.M) + "," + std::to_string(s_.N) + "," + std::to_string(s_.K) + "," + stage + "," +
             config + ",,,,failed: " + e.what();
      cudaGetLastError();
    }
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
    return line;
  }
  double last_ms() const { return last_ms_; }

 private:
  static std::size_t count(std::int64_t a, std::int64_t b) { return static_cast<std::size_t>(a * b); }
  shape s_;
  wb::device_buffer<T> A_, B_, C_;
  wb::device_buffer<double> exact_, abs_;
  double last_ms_ = 0;
};

std::vector<std::string> lines;

template <class S>
void fp32_config(bench<float>& b, const std::string& name, double library_ms) {
  lines.push_back(b.measure(
      "4", name, [&] { solution::launch_fp32_ceiling<S>(b.p()); }, library_ms));
}
template <class S>
void wmma_config(bench<bf16>& b, const std::string& name, double library_ms) {
  lines.push_back(b.measure(
      "5", name, [&] { solution::launch_wmma<S>(b.p()); }, library_ms));
}
template <class S>
void hopper_config(bench<bf16>& b, const std::string& name, double library_ms) {
  const problem<bf16> p = b.p();
  lines.push_back(b.measure(
      "6", name, [&] { solution::launch_hopper<S>(p, p.A, p.B); }, library_ms));
}

double library_fp32(bench<float>& b) {
  lines.push_back(b.measure(
      "cublasSgemm", "default math", [&] { baseline::cublas_sgemm(b.p()); }, 0));
  return b.last_ms();
}
double library_bf16(bench<bf16>& b) {
  lines.push_back(b.measure(
      "cublasGemmEx", "bf16, fp32 compute", [&] { baseline::cublas_gemm_bf16(b.p()); }, 0));
  return b.last_ms();
}

void configs(std::int64_t size) {
  using L = a_layout;
  {
    bench<float> b({size, size, size});
    const double lib = library_fp32(b);
    fp32_config<fp32_shape<128, 128, 8, 8, 8, L::swizzled, true>>(b, "128x128x8 (the stage)", lib);
    fp32_config<fp32_shape<128, 128, 8, 8, 8, L::swizzled, true, 1>>(b, "128x128x8, 1 block per SM (no register cap)",
                                                                     lib);
    fp32_config<fp32_shape<128, 128, 16, 8, 8, L::swizzled, true>>(b, "128x128x16", lib);
    fp32_config<fp32_shape<128, 256, 8, 8, 16, L::swizzled, true, 1>>(b, "128x256x8, 8x16 per thread", lib);
    fp32_config<fp32_shape<256, 128, 8, 16, 8, L::swizzled, true, 1>>(b, "256x128x8, 16x8 per thread", lib);
    fp32_config<fp32_shape<64, 64, 8, 8, 8, L::swizzled, true, 4>>(b, "64x64x8, 64 threads", lib);
    fp32_config<fp32_shape<128, 128, 8, 8, 8, L::padded, true>>(b, "128x128x8 padded", lib);
    fp32_config<fp32_shape<128, 128, 8, 8, 8, L::plain, true>>(b, "128x128x8 conflicts", lib);
    fp32_config<fp32_shape<128, 128, 8, 8, 8, L::swizzled, false>>(b, "128x128x8 single buffer", lib);
  }
  {
    bench<bf16> b({size, size, size});
    const double lib = library_bf16(b);
    wmma_config<wmma_shape<128, 128, 32, 2, 4, 4>>(b, "128x128x32 4 stages (the stage)", lib);
    wmma_config<wmma_shape<128, 128, 32, 2, 4, 3>>(b, "128x128x32 3 stages", lib);
    wmma_config<wmma_shape<128, 128, 32, 2, 4, 2>>(b, "128x128x32 2 stages", lib);
    wmma_config<wmma_shape<128, 256, 32, 2, 4, 3>>(b, "128x256x32 3 stages", lib);
    wmma_config<wmma_shape<256, 128, 32, 4, 2, 3>>(b, "256x128x32 3 stages", lib);
    wmma_config<wmma_shape<64, 64, 32, 2, 2, 4>>(b, "64x64x32 4 stages", lib);
    hopper_config<hopper_shape<128, 256, 4, 8, true>>(b, "specialized 4 stages, groups of 8 (the stage)", lib);
    hopper_config<hopper_shape<128, 256, 4, 16, true>>(b, "specialized 4 stages, groups of 16", lib);
    hopper_config<hopper_shape<128, 256, 4, 4, true>>(b, "specialized 4 stages, groups of 4", lib);
    hopper_config<hopper_shape<128, 256, 4, 1, true>>(b, "specialized 4 stages, row order", lib);
    hopper_config<hopper_shape<128, 256, 3, 8, true>>(b, "specialized 3 stages, groups of 8", lib);
    hopper_config<hopper_shape<128, 128, 3, 1, false>>(b, "simple 3 stages", lib);
    hopper_config<hopper_shape<128, 128, 4, 1, false>>(b, "simple 4 stages", lib);
  }
}

void sweep(const shape& s, bool fp32) {
  {
    bench<bf16> b(s);
    const double lib = library_bf16(b);
    hopper_config<hopper_shape<128, 256, 4, 8, true>>(b, "specialized (the stage)", lib);
  }
  if (fp32) {
    bench<float> b(s);
    const double lib = library_fp32(b);
    fp32_config<fp32_shape<128, 128, 8, 8, 8, a_layout::swizzled, true>>(b, "128x128x8 (the stage)", lib);
  }
}

shape parse_shape(const std::string& text) {
  shape s{};
  if (std::sscanf(text.c_str(), "%ld,%ld,%ld", &s.M, &s.N, &s.K) != 3 || s.M <= 0 || s.N <= 0 || s.K <= 0 ||
      s.K % 8 != 0 || s.N % 8 != 0) {
    throw std::invalid_argument("a shape is M,N,K with N and K multiples of 8, not '" + text + "'");
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string csv;
  if (args.size() >= 2 && args[0] == "--csv") {
    csv = args[1];
    args.erase(args.begin(), args.begin() + 2);
  }
  if (args.empty() || (args[0] != "configs" && args[0] != "sweep")) {
    std::fprintf(stderr, "usage: matmul_tile_configs [--csv FILE] configs SIZE... | sweep M,N,K... [fp32]\n");
    return 2;
  }
  try {
    wb::print_device_info_or_exit();
    matmul::require_sm90("the experiment");
    std::printf("M,N,K,stage,configuration,median_ms,tflop_per_s,vs_library,verified\n");
    if (args[0] == "configs") {
      for (std::size_t i = 1; i < args.size(); ++i) configs(std::stoll(args[i]));
    } else {
      const bool fp32 = args.back() == "fp32";
      for (std::size_t i = 1; i < args.size() - (fp32 ? 1 : 0); ++i) sweep(parse_shape(args[i]), fp32);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  if (!csv.empty()) {
    std::FILE* f = std::fopen(csv.c_str(), "w");
    if (f == nullptr) return 1;
    std::fprintf(f, "M,N,K,stage,configuration,median_ms,tflop_per_s,vs_library,verified\n");
    for (const auto& l : lines) std::fprintf(f, "%s\n", l.c_str());
    std::fclose(f);
  }
  return 0;
}
