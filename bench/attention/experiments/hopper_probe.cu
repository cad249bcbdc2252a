// Stage 5's probe on an sm_90 GPU: checks attention_hopper (and the kernel variants the notes
// compare) against a plain reference kernel on the same bf16-rounded inputs, and times them.
// Standalone (no chapter build), from the repository root:
//
//   nvcc -gencode=arch=compute_90a,code=sm_90a -O3 -std=c++20 --expt-relaxed-constexpr \
//        -DWB_BACKEND_CUDA=1 -DWB_TRACK=solution -Icommon/include -Ichapters/attention \
//        -Isolutions/attention/hopper -Ichapters/attention/hopper \
//        bench/attention/experiments/hopper_probe.cu check.o tensor_map.o device_info.o -o hopper_probe
//   with the three objects from common/src/ by the host compiler (nvcc's g++ pass rejects fmt's
//   consteval format strings there), fmt header-only:
//   for f in check tensor_map device_info; do g++ -std=c++20 -O2 -DWB_BACKEND_CUDA=1 \
//     -DFMT_HEADER_ONLY -I<fmt's include dir> -Icommon/include -I/usr/local/cuda/include \
//     -c common/src/$f.cpp -o $f.o; done
//   ./hopper_probe check      small odd shapes, d 64 and 128, causal and not: max error
//   ./hopper_probe sanitize   two small shapes (for compute-sanitizer)
//   ./hopper_probe time       the timed shapes, every variant (checked on two heads first)
//   ./hopper_probe one [c]    one run at b 4, h 16, seq 4096, d 128 (c: causal), for ncu
//
// The error printed is max |O - ref| / sum_j w_j |v_jc| (the scale of the chapter's bound): the
// reference is exact on the bf16 inputs except that it does not round P to bf16 as the tensor
// cores need, so about 2^-8 is expected; 1e-2 fails.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

// The track's stage: -DWB_TRACK=solution (or exercise, to see that the shipped stub fails).
#define WB_PROBE_STR2(x) #x
#define WB_PROBE_STR(x) WB_PROBE_STR2(x)
#define WB_PROBE_TRACK_FILE2(track) WB_PROBE_STR(../../../track##s/attention/hopper/hopper.cu)
#define WB_PROBE_TRACK_FILE(track) WB_PROBE_TRACK_FILE2(track)
#include WB_PROBE_TRACK_FILE(WB_TRACK)

namespace {

using attention::bf16;
using attention::dims;
using attention::problem;
namespace hop = attention::WB_TRACK::hopper;

// One warp per (bh, row) of the heads listed, rows seq - 1, seq - 1 - stride, ... (rows_per_head
// of them): double sums of the bf16 values (Q rounded as the kernel does).
__global__ void reference_kernel(const float* Q, const bf16* K, const bf16* V, double* ref, double* scale, dims d,
                                 const std::int64_t* heads, int head_count, std::int64_t stride,
                                 std::int64_t rows_per_head) {
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= head_count * rows_per_head) return;
  const std::int64_t bh = heads[warp / rows_per_head], i = d.seq - 1 - (warp % rows_per_head) * stride;
  const int D = static_cast<int>(d.dim);
  const float* q = Q + (bh * d.seq + i) * D;
  const bf16* Kb = K + bh * d.kv_seq * D;
  const bf16* Vb = V + bh * d.kv_seq * D;
  const std::int64_t end = attention::visible_end(d, i);
  const double sc = 1.0 / sqrt(static_cast<double>(D));
  auto score = [&](std::int64_t j) {
    double part = 0;
    for (int c = lane; c < D; c += 32) {
      part += static_cast<double>(__bfloat162float(__float2bfloat16(q[c]))) * __bfloat162float(Kb[j * D + c]);
    }
    for (int o = 16; o > 0; o /= 2) part += __shfl_xor_sync(0xffffffffu, part, o);
    return part * sc;
  };
  double m = -INFINITY;
  for (std::int64_t j = 0; j < end; ++j) m = fmax(m, score(j));
  double l = 0, acc[4] = {}, absacc[4] = {};
  for (std::int64_t j = 0; j < end; ++j) {
    const double w = exp(score(j) - m);
    l += w;
    for (int t = 0; t < 4; ++t) {
      const int c = lane + 32 * t;
      if (c < D) {
        const double v = __bfloat162float(Vb[j * D + c]);
        acc[t] += w * v;
        absacc[t] += w * fabs(v);
      }
    }
  }
  const std::int64_t out = warp * D;
  for (int t = 0; t < 4; ++t) {
    const int c = lane + 32 * t;
    if (c < D) {
      ref[out + c] = acc[t] / l;
      scale[out + c] = absacc[t] / l;
    }
  }
}

struct data {
  dims d;
  float* Q = nullptr;
  bf16* K = nullptr;
  bf16* V = nullptr;
  float* O = nullptr;
  float* Q_shifted = nullptr;  // Q again, one float further (the misaligned view)
  std::size_t q_count = 0, kv_count = 0;
  explicit data(const dims& dd, unsigned seed, float range = 1.0f) : d(dd) {
    q_count = static_cast<std::size_t>(d.batch * d.heads * d.seq * d.dim);
    kv_count = static_cast<std::size_t>(d.batch * d.heads * d.kv_seq * d.dim);
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> u(-range, range);
    std::vector<float> q(q_count);
    std::vector<bf16> k(kv_count), v(kv_count);
    for (auto& x : q) x = u(gen);
    for (auto& x : k) x = __float2bfloat16(u(gen));
    for (auto& x : v) x = __float2bfloat16(u(gen));
    // One extra element before Q and O, so that a misaligned view can be tested too.
    WB_CHECK(cudaMalloc(&Q, (q_count + 4) * sizeof(float)));
    WB_CHECK(cudaMalloc(&O, (q_count + 4) * sizeof(float)));
    WB_CHECK(cudaMalloc(&Q_shifted, (q_count + 4) * sizeof(float)));
    WB_CHECK(cudaMemcpy(Q_shifted + 1, q.data(), q_count * sizeof(float), cudaMemcpyHostToDevice));
    WB_CHECK(cudaMalloc(&K, kv_count * sizeof(bf16)));
    WB_CHECK(cudaMalloc(&V, kv_count * sizeof(bf16)));
    WB_CHECK(cudaMemcpy(Q, q.data(), q_count * sizeof(float), cudaMemcpyHostToDevice));
    WB_CHECK(cudaMemcpy(Q, q.data(), q_count * sizeof(float), cudaMemcpyHostToDevice));
    WB_CHECK(cudaMemcpy(K, k.data(), kv_count * sizeof(bf16), cudaMemcpyHostToDevice));
    WB_CHECK(cudaMemcpy(V, v.data(), kv_count * sizeof(bf16), cudaMemcpyHostToDevice));
  }
  ~data() {
    cudaFree(Q);
    cudaFree(K);
    cudaFree(V);
    cudaFree(O);
    cudaFree(Q_shifted);
  }
  problem<bf16> view(bool misaligned = false) const {
    problem<bf16> p;
    p.Q = Q;
    p.K = K;
    p.V = V;
    p.O = O;
    p.d = d;
    if (misaligned) {  // Q and O one float off: the scalar paths
      p.Q = Q_shifted + 1;
      p.O = O + 1;
    }
    return p;
  }
};

// max over the heads checked of |O - ref| / (sum w |v| + tiny); NaN or a row never written counts as 1e9.
double max_error(const data& x, const problem<bf16>& p, std::vector<std::int64_t> heads, std::int64_t stride = 1) {
  const dims& d = x.d;
  const std::int64_t rows = (d.seq + stride - 1) / stride;
  const std::size_t per_head = static_cast<std::size_t>(rows * d.dim);
  std::int64_t* dheads = nullptr;
  double *ref = nullptr, *scale = nullptr;
  WB_CHECK(cudaMalloc(&dheads, heads.size() * sizeof(std::int64_t)));
  WB_CHECK(cudaMalloc(&ref, heads.size() * per_head * sizeof(double)));
  WB_CHECK(cudaMalloc(&scale, heads.size() * per_head * sizeof(double)));
  WB_CHECK(cudaMemcpy(dheads, heads.data(), heads.size() * sizeof(std::int64_t), cudaMemcpyHostToDevice));
  const std::int64_t warps = static_cast<std::int64_t>(heads.size()) * rows;
  reference_kernel<<<static_cast<unsigned>((warps + 7) / 8), 256>>>(p.Q, p.K, p.V, ref, scale, d, dheads,
                                                                      static_cast<int>(heads.size()), stride, rows);
  WB_CHECK(cudaGetLastError());
  WB_CHECK(cudaDeviceSynchronize());
  std::vector<double> r(heads.size() * per_head), s(r.size());
  std::vector<float> o(static_cast<std::size_t>(d.seq * d.dim));
  WB_CHECK(cudaMemcpy(r.data(), ref, r.size() * sizeof(double), cudaMemcpyDeviceToHost));
  WB_CHECK(cudaMemcpy(s.data(), scale, s.size() * sizeof(double), cudaMemcpyDeviceToHost));
  double worst = 0;
  for (std::size_t h = 0; h < heads.size(); ++h) {
    WB_CHECK(cudaMemcpy(o.data(), p.O + heads[h] * d.seq * d.dim, o.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (std::int64_t r_ = 0; r_ < rows; ++r_) {
      const std::int64_t i = d.seq - 1 - r_ * stride;
      for (std::int64_t c = 0; c < d.dim; ++c) {
        const std::size_t e = h * per_head + static_cast<std::size_t>(r_ * d.dim + c);
        const double err = std::fabs(o[static_cast<std::size_t>(i * d.dim + c)] - r[e]) / (s[e] + 1e-30);
        worst = std::isfinite(err) ? std::max(worst, err) : 1e9;
      }
    }
  }
  cudaFree(dheads);
  cudaFree(ref);
  cudaFree(scale);
  return worst;
}

std::vector<std::int64_t> all_heads(const dims& d) {
  std::vector<std::int64_t> h;
  for (std::int64_t i = 0; i < d.batch * d.heads; ++i) h.push_back(i);
  return h;
}

int failures = 0;
void report(const char* what, const dims& d, double err) {
  const bool ok = err < 1e-2;
  failures += !ok;
  std::printf("%-10s b%lld h%lld seq %5lld kv %5lld d %3lld %-6s  err %.3e  %s\n", what, (long long)d.batch,
              (long long)d.heads, (long long)d.seq, (long long)d.kv_seq, (long long)d.dim, d.causal ? "causal" : "full",
              err, ok ? "ok" : "FAIL");
}

// The fill value of O before a run: NaN bytes, so that an output never written shows.
void poison(const data& x) { WB_CHECK(cudaMemset(x.O, 0xff, (x.q_count + 4) * sizeof(float))); }

template <class S>
void run_variant(const problem<bf16>& p) {
  hop::launch<S>(p);
}

struct variant {
  const char* name;
  int dim;
  void (*run)(const problem<bf16>&);
};
const variant variants[] = {
    {"d128 c2 s2", 128, run_variant<hop::shape<128, 2, 2, false, false>>},
    {"d128 c2 s2 pp", 128, run_variant<hop::shape<128, 2, 2, true, false>>},
    {"d128 c2 s2 per", 128, run_variant<hop::shape<128, 2, 2, false, true>>},
    {"d128 c2 s2 pp per", 128, run_variant<hop::shape<128, 2, 2, true, true>>},
    {"d128 c2 s3 per", 128, run_variant<hop::shape<128, 2, 3, false, true>>},
    {"d128 n176", 128, run_variant<hop::shape<128, 2, 2, false, false, 176>>},
    {"d128 n176 per", 128, run_variant<hop::shape<128, 2, 2, false, true, 176>>},
    {"d128 n176 pp per", 128, run_variant<hop::shape<128, 2, 2, true, true, 176>>},
    {"d64 c2 s4", 64, run_variant<hop::shape<64, 2, 4, false, false>>},
    {"d64 c2 s4 pp", 64, run_variant<hop::shape<64, 2, 4, true, false>>},
    {"d64 c2 s4 per", 64, run_variant<hop::shape<64, 2, 4, false, true>>},
    {"d64 c2 s4 pp per", 64, run_variant<hop::shape<64, 2, 4, true, true>>},
    {"d64 n192 s3 per", 64, run_variant<hop::shape<64, 2, 3, false, true, 192>>},
    {"d64 n192 s3 pp per", 64, run_variant<hop::shape<64, 2, 3, true, true, 192>>},
};

void check_small() {
  const std::int64_t shapes[][2] = {{1, 1},     {1, 200},   {63, 63},   {64, 64},   {65, 65},   {63, 129},
                                    {127, 128}, {128, 128}, {129, 129}, {129, 200}, {200, 200}, {65, 300},
                                    {256, 257}, {300, 1000}};
  unsigned seed = 1;
  for (int dim : {64, 128}) {
    for (bool causal : {false, true}) {
      for (const auto& s : shapes) {
        dims d{2, 3, s[0], s[1], dim, causal};
        data x(d, seed++);
        poison(x);
        attention::WB_TRACK::attention_hopper(x.view());
        WB_CHECK(cudaDeviceSynchronize());
        report("stage5", d, max_error(x, x.view(), all_heads(d)));
      }
    }
  }
  {  // Q and O misaligned (scalar paths); large values (scores far past exp's range without the max)
    dims d{1, 2, 130, 260, 128, true};
    data x(d, 99);
    poison(x);
    const problem<bf16> p = x.view(true);
    attention::WB_TRACK::attention_hopper(p);
    WB_CHECK(cudaDeviceSynchronize());
    report("misalign", d, max_error(x, p, all_heads(d)));
    data big(d, 100, 12.0f);
    poison(big);
    attention::WB_TRACK::attention_hopper(big.view());
    WB_CHECK(cudaDeviceSynchronize());
    report("range12", d, max_error(big, big.view(), all_heads(d)));
  }
  for (const variant& v : variants) {  // every variant on one odd causal and one full shape
    for (bool causal : {false, true}) {
      dims d{1, 3, 333, 461, v.dim, causal};
      data x(d, seed++);
      poison(x);
      v.run(x.view());
      WB_CHECK(cudaDeviceSynchronize());
      report(v.name, d, max_error(x, x.view(), all_heads(d)));
    }
  }
  try {
    dims d{1, 1, 4, 4, 96, false};
    data x(d, 5);
    attention::WB_TRACK::attention_hopper(x.view());
    std::printf("d 96 accepted: FAIL\n");
    ++failures;
  } catch (const std::invalid_argument& e) {
    std::printf("d 96 refused: %s\n", e.what());
  }
}

void sanitize() {
  for (int dim : {64, 128}) {
    dims d{1, 2, 130, 200, dim, true};
    data x(d, 7);
    poison(x);
    attention::WB_TRACK::attention_hopper(x.view());
    WB_CHECK(cudaDeviceSynchronize());
    report("sanitize", d, max_error(x, x.view(), all_heads(d)));
    d.causal = false;
    d.seq = 70;
    data y(d, 8);
    attention::WB_TRACK::attention_hopper(y.view());
    WB_CHECK(cudaDeviceSynchronize());
    report("sanitize", d, max_error(y, y.view(), all_heads(d)));
  }
  // More work items than SMs: blocks of the persistent grid take several. The stage twice (the
  // second launch finds the scheduler's counters reset), and the alternatives the notes compare.
  for (int dim : {128, 64}) {
    dims d{1, 8, 2100, 2100, dim, true};
    data x(d, 9);
    for (int twice = 0; twice < 2; ++twice) {
      poison(x);
      attention::WB_TRACK::attention_hopper(x.view());
      WB_CHECK(cudaDeviceSynchronize());
      report("stage5", d, max_error(x, x.view(), all_heads(d), 7));
    }
    for (const variant& v : variants) {
      if (v.dim != dim || (std::strcmp(v.name, "d128 c2 s2") != 0 && std::strcmp(v.name, "d64 n192 s3 per") != 0))
        continue;
      poison(x);
      v.run(x.view());
      WB_CHECK(cudaDeviceSynchronize());
      report(v.name, d, max_error(x, x.view(), all_heads(d), 7));
    }
  }
}

double median_ms(const std::function<void()>& f, int reps) {
  cudaEvent_t a, b;
  WB_CHECK(cudaEventCreate(&a));
  WB_CHECK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i) f();
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    WB_CHECK(cudaEventRecord(a));
    f();
    WB_CHECK(cudaEventRecord(b));
    WB_CHECK(cudaEventSynchronize(b));
    float ms = 0;
    WB_CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void time_all(const char* only) {
  const dims shapes[] = {{4, 16, 4096, 4096, 128, false}, {4, 16, 4096, 4096, 128, true},
                         {4, 16, 4096, 4096, 64, false},  {4, 16, 4096, 4096, 64, true},
                         {1, 16, 16384, 16384, 128, false}, {1, 16, 16384, 16384, 128, true}};
  for (const dims& d : shapes) {
    data x(d, 42);
    const double flops = 4.0 * d.batch * d.heads * d.seq * d.kv_seq * d.dim * (d.causal ? 0.5 : 1.0);
    for (const variant& v : variants) {
      if (v.dim != d.dim || (only && std::strstr(v.name, only) == nullptr)) continue;
      poison(x);
      const problem<bf16> p = x.view();
      v.run(p);
      WB_CHECK(cudaDeviceSynchronize());
      const double err = max_error(x, p, {0, d.batch * d.heads - 1}, d.seq / 1024);
      const double ms = median_ms([&] { v.run(p); }, 15);
      std::printf("%-14s b%lld h%lld seq %5lld d %3lld %-6s  %8.3f ms  %6.1f TFLOP/s  err %.2e %s\n", v.name,
                  (long long)d.batch, (long long)d.heads, (long long)d.seq, (long long)d.dim,
                  d.causal ? "causal" : "full", ms, flops / ms * 1e-9, err, err < 1e-2 ? "ok" : "FAIL");
      std::fflush(stdout);
      failures += err >= 1e-2;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "check";
  try {
    if (mode == "check") check_small();
    if (mode == "sanitize") sanitize();
    if (mode == "time") time_all(argc > 2 ? argv[2] : nullptr);
    if (mode == "one") {  // one run of the stage at b 4, h 16, seq 4096, d 128 (for a profiler)
      dims d{4, 16, 4096, 4096, 128, argc > 2};
      data x(d, 3);
      attention::WB_TRACK::attention_hopper(x.view());
      WB_CHECK(cudaDeviceSynchronize());
    }
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 2;
  }
  std::printf("%s: %d failure(s)\n", mode.c_str(), failures);
  return failures == 0 ? 0 : 1;
}
