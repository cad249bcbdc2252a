// An experiment beside the chapter: how stage 5's pass kernel was tuned. It compiles the
// solution's stage-5 kernels (its device headers, solutions/sort/onesweep_histogram.cuh and
// onesweep_pass.cuh, and the host side onesweep_host.inl), so every variant runs the
// solution's kernels with another tile shape and other choices (onesweep.hpp's `shape`:
// block, keys a thread, blocks an SM, peer method, staging, byte digits, bucket pointers),
// timed in one process with CUB's radix sort on the same device-generated input and checked
// against CUB's output (both stable: identical keys and values). The stage itself runs the
// shapes of onesweep.hpp's stage_shape, picked from these measurements (chapter README,
// stage 5; bench/sort/results/onesweep_variants.txt). cuda backend only.
//
//   sort_onesweep_variants --type uint32 --log2n 24,26,28 [--pairs] [--variants a,b] [--reps 10]
//   sort_onesweep_variants --list                 the variants of each key size
//
// One line per size and variant: median ms of --reps runs, CUB's median, CUB / variant.
// Per size, also the histogram kernel alone (with the memset of its counts), and what it
// costs without the count of keys in order (the plain histogram: the stage kernel's second
// loop for every chunk). `--variants none` times the histograms only.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

// The solution's stage 5 (WB_TRACK=solution, solutions/sort/ on the include path): its kernels,
// then its host side. Not its few-digits kernel (onesweep_few_digits.cuh): every variant runs
// the pass kernel on every pass, which is what it tunes.
#include "onesweep_histogram.cuh"
#include "onesweep_pass.cuh"

#include "onesweep_host.inl"

#include "baseline_cub.hpp"
#include "device_input.cuh"
#include "wb/device_buffer.hpp"
#include "wb/device_info.hpp"
#include "wb/timing.hpp"
#include "wb/workspace.hpp"

namespace {

using namespace sort;
using onesweep::peer_method;
constexpr auto votes = peer_method::ballots;
constexpr auto ored = peer_method::shared_or;
constexpr auto over = onesweep::staging::over_counters;
constexpr auto beside = onesweep::staging::beside_counters;

// The stage's histogram kernel without the count of keys in order: every chunk the plain
// way (the stage's count_chunks).
template <class K>
__global__ void __launch_bounds__(onesweep::histogram_block)
    plain_histogram_kernel(const K* keys, std::int64_t n, unsigned long long* histogram) {
  constexpr int counts = static_cast<int>(sizeof(bits_of<K>)) * onesweep::radix;
  constexpr std::int64_t chunk = std::int64_t{onesweep::histogram_block} * onesweep::histogram_items;
  __shared__ unsigned count[counts];
  for (int i = static_cast<int>(threadIdx.x); i < counts; i += onesweep::histogram_block) count[i] = 0;
  __syncthreads();
  solution::count_chunks(keys, n, blockIdx.x * chunk, std::int64_t{gridDim.x} * chunk, count);
  __syncthreads();
  for (int i = static_cast<int>(threadIdx.x); i < counts; i += onesweep::histogram_block) {
    if (count[i] != 0) atomicAdd(&histogram[i], static_cast<unsigned long long>(count[i]));
  }
}

template <class K, bool Pairs>
using runner = void (*)(const K*, K*, const std::uint32_t*, std::uint32_t*, std::int64_t, const workspace&,
                        const config&);

template <class K, bool Pairs>
struct variant {
  const char* name;
  runner<K, Pairs> run;
};

template <class K, bool Pairs, class Shape>
void run_shape(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
               std::int64_t n, const workspace& ws, const config& cfg) {
  solution::onesweep_host::run<K, Pairs, Shape>(keys_in, keys_out, values_in, values_out, n, ws, cfg);
}

// shape<block, items, peers, min blocks an SM, staging, byte digits, bucket pointers>
// (onesweep.hpp). Names: block x items / min blocks, "or": shared_or peers (else ballots),
// "beside": staging beside the counters (else over them), "plain": neither byte digits nor
// bucket pointers (else both).
#define SHAPE(name, ...) {name, run_shape<K, Pairs, onesweep::shape<__VA_ARGS__>>}
template <class K, bool Pairs>
std::vector<variant<K, Pairs>> variants() {
  if constexpr (sizeof(K) == 4 && !Pairs) {
    return {
        SHAPE("384x16/3 plain", 384, 16, votes, 3, over, false, false),
        SHAPE("384x16/3", 384, 16, votes, 3, over, true, true),
        SHAPE("384x16/3 beside", 384, 16, votes, 3, beside, true, true),
        SHAPE("384x16/3 or", 384, 16, ored, 3, over, true, true),
        SHAPE("384x16/4 beside or", 384, 16, ored, 4, beside, true, true),
        SHAPE("384x20/3 beside", 384, 20, votes, 3, beside, true, true),
        SHAPE("384x24/3 beside", 384, 24, votes, 3, beside, true, true),
        SHAPE("384x25/3 beside", 384, 25, votes, 3, beside, true, true),
        SHAPE("384x26/3 beside", 384, 26, votes, 3, beside, true, true),
        SHAPE("384x27/3 beside", 384, 27, votes, 3, beside, true, true),
        SHAPE("384x28/3 beside", 384, 28, votes, 3, beside, true, true),
        SHAPE("384x32/3 beside", 384, 32, votes, 3, beside, true, true),
        SHAPE("384x20/3 beside or", 384, 20, ored, 3, beside, true, true),
        SHAPE("384x22/3 beside or", 384, 22, ored, 3, beside, true, true),
        SHAPE("384x24/3 beside or", 384, 24, ored, 3, beside, true, true),
        SHAPE("384x26/3 beside or", 384, 26, ored, 3, beside, true, true),
        SHAPE("384x28/3 beside or", 384, 28, ored, 3, beside, true, true),
        SHAPE("256x32/4 beside or", 256, 32, ored, 4, beside, true, true),
    };
  } else if constexpr (sizeof(K) == 4) {
    return {
        SHAPE("384x23/2 plain", 384, 23, votes, 2, over, false, false),
        SHAPE("384x23/2", 384, 23, votes, 2, over, true, true),
        SHAPE("384x23/2 plain or", 384, 23, ored, 2, over, false, false),
        SHAPE("384x20/2 plain", 384, 20, votes, 2, over, false, false),
        SHAPE("512x16/2 plain", 512, 16, votes, 2, over, false, false),
        SHAPE("384x16/3 plain", 384, 16, votes, 3, over, false, false),
    };
  } else if constexpr (!Pairs) {
    return {
        SHAPE("512x12/2 plain", 512, 12, votes, 2, over, false, false),
        SHAPE("384x16/2", 384, 16, votes, 2, over, true, true),
        SHAPE("384x16/2 or", 384, 16, ored, 2, over, true, true),
        SHAPE("384x18/2 beside or", 384, 18, ored, 2, beside, true, true),
        SHAPE("384x20/2 beside or", 384, 20, ored, 2, beside, true, true),
        SHAPE("384x22/2 beside or", 384, 22, ored, 2, beside, true, true),
        SHAPE("512x16/2 beside or", 512, 16, ored, 2, beside, true, true),
        SHAPE("384x20/2 beside", 384, 20, votes, 2, beside, true, true),
        SHAPE("384x16/2 beside", 384, 16, votes, 2, beside, true, true),
    };
  } else {
    return {
        SHAPE("384x16/2 plain", 384, 16, votes, 2, over, false, false),
        SHAPE("384x16/2", 384, 16, votes, 2, over, true, true),
        SHAPE("384x16/2 plain or", 384, 16, ored, 2, over, false, false),
        SHAPE("512x12/2 plain", 512, 12, votes, 2, over, false, false),
        SHAPE("256x16/3 plain", 256, 16, votes, 3, over, false, false),
        SHAPE("256x20/3 plain", 256, 20, votes, 3, over, false, false),
        SHAPE("256x24/2 plain", 256, 24, votes, 2, over, false, false),
        SHAPE("288x16/3 plain", 288, 16, votes, 3, over, false, false),
        SHAPE("384x12/2 plain", 384, 12, votes, 2, over, false, false),
        SHAPE("384x12/3 plain", 384, 12, votes, 3, over, false, false),
    };
  }
}
#undef SHAPE

template <class K, bool Pairs>
int run(std::int64_t n, int dist, int reps, const std::string& type, const std::vector<std::string>& only) {
  wb::device_buffer<K> keys(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n)),
      ref(static_cast<std::size_t>(n));
  wb::device_buffer<std::uint32_t> values(Pairs ? n : 0), vout(Pairs ? n : 0), vref(Pairs ? n : 0);
  sort_experiment::generate(keys.data(), Pairs ? values.data() : nullptr, n, dist, 0x5eed);
  const std::uint32_t* vin = Pairs ? values.data() : nullptr;
  const std::size_t temp_bytes =
      sort::baseline::cub_radix_sort<K>(keys.data(), ref.data(), vin, Pairs ? vref.data() : nullptr, n, nullptr, 0);
  wb::device_buffer<unsigned char> temp(temp_bytes + 16);
  auto cub = [&] {
    sort::baseline::cub_radix_sort<K>(keys.data(), ref.data(), vin, Pairs ? vref.data() : nullptr, n, temp.data(),
                                temp_bytes);
  };
  const auto cub_time = wb::time_gpu(std::ref(cub), {2, reps, true});
  const config cfg{};
  // Room for the smallest tile of any variant (4096 keys): the workspace of twice the keys.
  wb::workspace_buffer ws(onesweep_workspace_bytes(2 * n, sizeof(K), cfg));

  // The histogram kernel alone (with the memset of its counts and of the keys in order, the
  // last word), and the plain histogram without that count.
  wb::device_buffer<unsigned long long> histogram(onesweep::max_passes * onesweep::radix + 1);
  const std::int64_t histogram_blocks = onesweep::histogram_blocks_for(n, wb::multiprocessor_count(), 0);
  const wb::launch_config histogram_launch{dim3(static_cast<unsigned>(histogram_blocks)),
                                           dim3(onesweep::histogram_block)};
  auto histogram_only = [&] {
    WB_CHECK(cudaMemsetAsync(histogram.data(), 0, histogram.size() * sizeof(unsigned long long)));
    wb::launch(histogram_launch, solution::onesweep_histogram_kernel<K>, static_cast<const K*>(keys.data()), n,
               histogram.data(), histogram.data() + onesweep::max_passes * onesweep::radix);
  };
  auto plain_histogram = [&] {
    WB_CHECK(cudaMemsetAsync(histogram.data(), 0, histogram.size() * sizeof(unsigned long long)));
    wb::launch(histogram_launch, plain_histogram_kernel<K>, static_cast<const K*>(keys.data()), n, histogram.data());
  };
  const auto h = wb::time_gpu(std::ref(histogram_only), {2, reps, true});
  const auto plain = wb::time_gpu(std::ref(plain_histogram), {2, reps, true});
  std::printf("%-6s dist%d n=%11lld %-5s cub %9.4f ms   histogram kernel %8.4f ms (without the order count %8.4f)\n",
              type.c_str(), dist, static_cast<long long>(n), Pairs ? "pairs" : "keys", cub_time.median_ms,
              h.median_ms, plain.median_ms);
  int failures = 0;
  for (const auto& v : variants<K, Pairs>()) {
    if (!only.empty() && std::find(only.begin(), only.end(), std::string(v.name)) == only.end()) continue;
    out.fill_bytes(0xA5);
    if (Pairs) vout.fill_bytes(0xA5);
    auto ours = [&] { v.run(keys.data(), out.data(), vin, Pairs ? vout.data() : nullptr, n, ws.view(), cfg); };
    ours();
    const auto mismatches = sort_experiment::mismatches(out.data(), ref.data(), Pairs ? vout.data() : nullptr,
                                                        Pairs ? vref.data() : nullptr, n);
    const auto t = wb::time_gpu(std::ref(ours), {2, reps, true});
    std::printf("%-6s dist%d n=%11lld %-5s %-16s %9.4f ms (min %8.4f)  cub %9.4f  cub/ours %5.3f  %s (%llu)\n",
                type.c_str(), dist, static_cast<long long>(n), Pairs ? "pairs" : "keys", v.name, t.median_ms,
                t.min_ms, cub_time.median_ms, cub_time.median_ms / t.median_ms, mismatches == 0 ? "ok" : "WRONG",
                static_cast<unsigned long long>(mismatches));
    std::fflush(stdout);
    failures += mismatches == 0 ? 0 : 1;
  }
  return failures;
}

template <class K>
int run_type(std::int64_t n, bool pairs, int dist, int reps, const std::string& type,
             const std::vector<std::string>& only) {
  return pairs ? run<K, true>(n, dist, reps, type, only) : run<K, false>(n, dist, reps, type, only);
}

template <class K, bool Pairs>
void list(const char* what) {
  std::printf("%s:", what);
  for (const auto& v : variants<K, Pairs>()) std::printf(" [%s]", v.name);
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"stage 5's pass kernel: tile shapes and options against CUB's radix sort"};
  std::string type = "uint32";
  std::vector<std::int64_t> ns;
  std::vector<int> log2ns;
  std::vector<int> dists{0};
  std::vector<std::string> only;
  bool pairs = false;
  bool show = false;
  int reps = 10;
  app.add_option("--type", type)->check(CLI::IsMember({"uint32", "int32", "float", "int64"}));
  app.add_option("--n", ns)->delimiter(',');
  app.add_option("--log2n", log2ns)->delimiter(',');
  app.add_option("--dist", dists)->delimiter(',');
  app.add_option("--variants", only, "names from --list (default: all)")->delimiter(',');
  app.add_flag("--pairs", pairs);
  app.add_flag("--list", show);
  app.add_option("--reps", reps);
  CLI11_PARSE(app, argc, argv);
  if (show) {
    list<std::uint32_t, false>("4-byte keys");
    list<std::uint32_t, true>("4-byte keys, values");
    list<std::int64_t, false>("8-byte keys");
    list<std::int64_t, true>("8-byte keys, values");
    return 0;
  }
  for (const int l : log2ns) ns.push_back(std::int64_t{1} << l);
  int failures = 0;
  for (const auto n : ns) {
    for (const int dist : dists) {
      if (type == "uint32") failures += run_type<std::uint32_t>(n, pairs, dist, reps, type, only);
      else if (type == "int32") failures += run_type<std::int32_t>(n, pairs, dist, reps, type, only);
      else if (type == "float") failures += run_type<float>(n, pairs, dist, reps, type, only);
      else failures += run_type<std::int64_t>(n, pairs, dist, reps, type, only);
    }
  }
  return failures == 0 ? 0 : 1;
}
