// Checks of the CUDA built-ins the workbook relies on. The expectations are written from the
// CUDA Programming Guide, not from the emulator's code, and the same cases run on both
// backends: on a GPU they confirm the expectations, on the cpu backend they check the
// emulator against them. Error cases (divergence, deadlock, bad masks, launch limits) are
// the emulator's own and run on the cpu backend only.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "wb/device/grid_dependency.cuh"
#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#include "wb/kernel.hpp"
#include "wb/testing.hpp"

namespace {

#if defined(WB_BACKEND_CPU)
// Runs a check under one scheduling order and restores the previous one.
struct order_scope {
  std::string saved = wb::cpu::schedule_order_name();
  explicit order_scope(const char* order) { wb::cpu::set_schedule_order(order); }
  ~order_scope() { wb::cpu::set_schedule_order(saved); }
};
const char* const all_orders[] = {"in-order", "reverse", "shuffle:1", "shuffle:2"};

// Runs a check with the race check on or off (test_race_check.cu checks the check itself;
// here a racy kernel shows what the scheduling order does to it).
struct race_check_scope {
  bool saved = wb::cpu::race_check();
  explicit race_check_scope(bool on) { wb::cpu::set_race_check(on); }
  ~race_check_scope() { wb::cpu::set_race_check(saved); }
};

// Launch a kernel expected to fail; return the error text.
std::string launch_error_text() {
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? std::string() : std::string(cudaGetErrorString(e));
}
#endif

// --- built-in variables ------------------------------------------------------------------

__global__ void write_indices(unsigned* out) {
  const unsigned block_linear = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned thread_linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned i = block_linear * threads + thread_linear;
  out[4 * i + 0] = threadIdx.x + 100 * threadIdx.y + 10000 * threadIdx.z;
  out[4 * i + 1] = blockIdx.x + 100 * blockIdx.y + 10000 * blockIdx.z;
  out[4 * i + 2] = blockDim.x + 100 * blockDim.y + 10000 * blockDim.z;
  out[4 * i + 3] = gridDim.x + 100 * gridDim.y + 10000 * gridDim.z;
}

// --- barriers ------------------------------------------------------------------------------

// Reverses each block's slice through shared memory: needs the barrier between write and read.
template <bool with_barrier>
__global__ void reverse_in_block(const int* in, int* out) {
  int* tile = wb::dynamic_shared<int>();
  const unsigned t = threadIdx.x;
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * blockDim.x;
  tile[t] = in[base + t];
  if (with_barrier) __syncthreads();
  out[base + t] = tile[blockDim.x - 1 - t];
}

// Threads past `active` return before the barrier; exited threads count as arrived.
__global__ void early_exit_then_barrier(int active, int* out) {
  __shared__ int tile[256];
  const int t = static_cast<int>(threadIdx.x);
  if (t >= active) return;
  tile[t] = t * 3;
  __syncthreads();
  out[t] = tile[active - 1 - t];
}

__global__ void barrier_reductions(const int* predicate, int* out) {
  const int t = static_cast<int>(threadIdx.x);
  const int p = predicate[t];
  const int count = __syncthreads_count(p);
  const int all = __syncthreads_and(p);
  const int any = __syncthreads_or(p);
  if (t == 0) {
    out[0] = count;
    out[1] = all;
    out[2] = any;
  }
}

// --- warp collectives ---------------------------------------------------------------------

enum shuffle_kind { k_shfl, k_up, k_down, k_xor };

__global__ void shuffle_all(int kind, int arg, int width, int* out) {
  const int lane = static_cast<int>(threadIdx.x);
  const int v = 1000 + lane;
  int r = 0;
  switch (kind) {
    case k_shfl: r = __shfl_sync(0xffffffffu, v, arg, width); break;
    case k_up: r = __shfl_up_sync(0xffffffffu, v, static_cast<unsigned>(arg), width); break;
    case k_down: r = __shfl_down_sync(0xffffffffu, v, static_cast<unsigned>(arg), width); break;
    default: r = __shfl_xor_sync(0xffffffffu, v, arg, width); break;
  }
  out[lane] = r;
}

__global__ void shuffle_64bit(long long* out) {
  const int lane = static_cast<int>(threadIdx.x);
  long long v = (1LL << 40) + lane;
  double d = 0.5 * lane;
  v = __shfl_down_sync(0xffffffffu, v, 1);
  d = __shfl_xor_sync(0xffffffffu, d, 1);
  out[lane] = v + static_cast<long long>(d * 2.0) * 1000000;
}

__global__ void votes(const int* predicate, unsigned* out) {
  const int lane = static_cast<int>(threadIdx.x);
  const int p = predicate[lane];
  const unsigned b = __ballot_sync(0xffffffffu, p);
  const int any = __any_sync(0xffffffffu, p);
  const int all = __all_sync(0xffffffffu, p);
  const unsigned low_half = lane < 16 ? __ballot_sync(0x0000ffffu, p) : __ballot_sync(0xffff0000u, p);
  out[4 * lane + 0] = b;
  out[4 * lane + 1] = static_cast<unsigned>(any);
  out[4 * lane + 2] = static_cast<unsigned>(all);
  out[4 * lane + 3] = low_half;
}

__global__ void match_and_reduce(const int* values, unsigned* out) {
  const int lane = static_cast<int>(threadIdx.x);
  const int v = values[lane];
  out[6 * lane + 0] = __match_any_sync(0xffffffffu, v);
  out[6 * lane + 1] = __reduce_add_sync(0xffffffffu, static_cast<unsigned>(v));
  out[6 * lane + 2] = static_cast<unsigned>(__reduce_min_sync(0xffffffffu, v));
  out[6 * lane + 3] = static_cast<unsigned>(__reduce_max_sync(0xffffffffu, v));
  out[6 * lane + 4] = __reduce_or_sync(0xffffffffu, static_cast<unsigned>(v));
  out[6 * lane + 5] = __reduce_and_sync(0xffffffffu, static_cast<unsigned>(v));
}

// A warp-level sum with shuffles: the pattern the reduction chapter builds on.
__global__ void warp_sum_shuffle(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;
}

// R3 (the reduction chapter's defect table): the last warp of a shared-memory reduction, as
// The CUDA Handbook prints it (volatile, no __syncwarp), and fixed (each read separated from
// each write).
template <bool fixed>
__global__ void last_warp_sum(const int* in, int* out) {
  int* partial = wb::dynamic_shared<int>();
  const unsigned t = threadIdx.x;  // one block of 64 threads
  partial[t] = in[t];
  __syncthreads();
  if (t < 32) {
    volatile int* ws = partial;
    if (fixed) {
      int v = ws[t];
      for (int offset = 32; offset > 0; offset /= 2) {
        v += ws[t + offset];
        __syncwarp();
        ws[t] = v;
        __syncwarp();
      }
    } else {
      ws[t] = ws[t] + ws[t + 32];
      ws[t] = ws[t] + ws[t + 16];
      ws[t] = ws[t] + ws[t + 8];
      ws[t] = ws[t] + ws[t + 4];
      ws[t] = ws[t] + ws[t + 2];
      ws[t] = ws[t] + ws[t + 1];
    }
    if (t == 0) *out = ws[0];
  }
}

// Lanes split in two halves that synchronise separately, then read each other's writes.
__global__ void half_warp_exchange(int* out) {
  __shared__ int slot[32];
  const unsigned lane = threadIdx.x;
  const unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  // Which lanes are active is the scheduler's business (CUDA promises no convergence here);
  // the calling lane always is.
  out[32 + lane] = static_cast<int>(__activemask());
  slot[lane] = static_cast<int>(lane) * 10;
  __syncwarp(half);
  out[lane] = slot[lane ^ 1u];  // the neighbour is in the same half
}

// Each block fills its own static shared array with its block index, waits, and checks that
// no other block wrote into it (one copy per running block, also with blocks in parallel).
__global__ void static_shared_per_block(int* mismatches) {
  __shared__ int tile[128];
  tile[threadIdx.x] = static_cast<int>(blockIdx.x);
  __syncthreads();
  for (int r = 0; r < 4; ++r) {
    if (tile[(threadIdx.x + 17u * r) % blockDim.x] != static_cast<int>(blockIdx.x)) atomicAdd(mismatches, 1);
    __syncthreads();
  }
}

__global__ void more_atomics(unsigned* u32, unsigned long long* u64, float* f32) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAnd(&u32[0], ~(1u << (g % 32)));      // clears every bit
  atomicDec(&u32[1], 1000u);                  // counts down from 1000 (wraps at 0 to 1000)
  atomicMax(&u64[0], 1000000000000ull + g);
  atomicMin(&u64[1], 1000000000000ull + g);
  atomicExch(f32, 2.5f);
  __threadfence();
}

// 40 KiB of static and 16 KiB of dynamic shared memory: together past the 48 KiB default,
// so wb::launch must opt the kernel into more.
__global__ void big_static_plus_dynamic(int* out) {
  __shared__ int fixed[10 * 1024];
  int* extra = wb::dynamic_shared<int>();
  const unsigned t = threadIdx.x;
  for (unsigned i = t; i < 10u * 1024; i += blockDim.x) fixed[i] = static_cast<int>(i);
  for (unsigned i = t; i < 4u * 1024; i += blockDim.x) extra[i] = static_cast<int>(2 * i);
  __syncthreads();
  if (t == 0) out[blockIdx.x] = fixed[10 * 1024 - 1] + extra[4 * 1024 - 1];
}

// --- integer intrinsics ----------------------------------------------------------------------

__global__ void integer_intrinsics(unsigned x, unsigned y, unsigned long long a, unsigned long long b,
                                   unsigned long long* out) {
  out[0] = __byte_perm(x, y, 0x3210u);  // x itself
  out[1] = __byte_perm(x, y, 0x7654u);  // y itself
  out[2] = __byte_perm(x, y, 0x0123u);  // x with its bytes reversed
  out[3] = __byte_perm(x, y, 0x5140u);  // bytes x0, y0, x1, y1 (from the low byte up)
  out[4] = __umul64hi(a, b);
  out[5] = __umulhi(x, y);
  out[6] = static_cast<unsigned long long>(__popc(x)) + 100ull * static_cast<unsigned long long>(__clz(static_cast<int>(y)));
  out[7] = __brev(x);
}

// --- atomics --------------------------------------------------------------------------------

__global__ void atomics_kernel(int* i32, unsigned long long* u64, float* f32, double* f64, unsigned* u32) {
  const int g = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  atomicAdd(&i32[0], 1);
  atomicSub(&i32[1], 2);
  atomicMax(&i32[2], g);
  atomicMin(&i32[3], -g);
  atomicAdd(&u64[0], 1ull << 33);
  atomicAdd(f32, 0.5f);
  atomicAdd(f64, 0.25);
  atomicInc(&u32[0], 9u);  // wraps to 0 after reaching 9
  atomicOr(&u32[1], 1u << (g % 32));
  atomicXor(&u32[2], 1u);
  // A lock-free "first claim" through CAS: exactly one thread wins.
  if (atomicCAS(&u32[3], 0u, static_cast<unsigned>(g + 1)) == 0u) atomicAdd(&u32[4], 1u);
}

// Programmatic dependent launch: every thread waits for the kernel ahead before it reads; in
// the defective variants none, or one, does not.
__global__ void add_one_after_waiting(int* out) {
  wb::device::wait_for_previous_grid();
  out[blockIdx.x * blockDim.x + threadIdx.x] += 1;
}
__global__ void add_one_without_waiting(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] += 1; }
__global__ void add_one_thread_5_not_waiting(int* out) {
  if (threadIdx.x != 5) wb::device::wait_for_previous_grid();
  out[blockIdx.x * blockDim.x + threadIdx.x] += 1;
}

// --- emulator-only error cases ----------------------------------------------------------------

#if defined(WB_BACKEND_CPU)
__global__ void divergent_barrier() {
  if (threadIdx.x < 16) {
    __syncthreads();
  } else {
    __syncthreads();
  }
}
__global__ void shuffle_meets_barrier(int* out) {
  int v = static_cast<int>(threadIdx.x);
  if (threadIdx.x < 16) {
    v = __shfl_sync(0xffffffffu, v, 0);
  } else {
    __syncthreads();
  }
  out[threadIdx.x] = v;
}
__global__ void shuffle_with_exited_lane(int* out) {
  if (threadIdx.x == 5) return;
  out[threadIdx.x] = __shfl_down_sync(0xffffffffu, static_cast<int>(threadIdx.x), 1);
}
__global__ void mask_without_self(int* out) {
  out[threadIdx.x] = __shfl_sync(0x1u, 1, 0);
}
__global__ void read_shared_unwritten(unsigned* out) { out[threadIdx.x] = wb::dynamic_shared<unsigned>()[threadIdx.x]; }
__global__ void many_barriers(int rounds, int* out) {
  __shared__ int counter[1];
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0) counter[0] = r;
    __syncthreads();
    if (static_cast<int>(threadIdx.x) == r) out[0] = counter[0];
    __syncthreads();
  }
}
__global__ void empty_kernel() {}
#endif

}  // namespace

TEST_SUITE("common/cpu backend") {

TEST_CASE("built-in variables cover 1-D to 3-D grids and blocks") {
  for (auto [grid, block] : {std::pair{dim3(3), dim3(37)}, std::pair{dim3(2, 3), dim3(4, 5)},
                             std::pair{dim3(2, 1, 3), dim3(3, 2, 4)}}) {
    const unsigned blocks = grid.x * grid.y * grid.z, threads = block.x * block.y * block.z;
    wb::device_buffer<unsigned> out(4 * blocks * threads);
    wb::launch({grid, block}, write_indices, out.data());
    WB_CHECK(cudaDeviceSynchronize());
    const auto h = out.to_host();
    std::vector<unsigned> expected;
    for (unsigned bz = 0; bz < grid.z; ++bz)
      for (unsigned by = 0; by < grid.y; ++by)
        for (unsigned bx = 0; bx < grid.x; ++bx)
          for (unsigned tz = 0; tz < block.z; ++tz)
            for (unsigned ty = 0; ty < block.y; ++ty)
              for (unsigned tx = 0; tx < block.x; ++tx) {
                expected.push_back(tx + 100 * ty + 10000 * tz);
                expected.push_back(bx + 100 * by + 10000 * bz);
                expected.push_back(block.x + 100 * block.y + 10000 * block.z);
                expected.push_back(grid.x + 100 * grid.y + 10000 * grid.z);
              }
    WB_CHECK_EQUAL_SEQ(expected, h);
  }
}

TEST_CASE("__syncthreads orders shared-memory writes before reads") {
  const int block = 128, blocks = 3;
  std::vector<int> in(block * blocks);
  std::iota(in.begin(), in.end(), static_cast<int>(wb::testing::seed(1) % 1000));
  std::vector<int> expected(in.size());
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < block; ++t) expected[b * block + t] = in[b * block + block - 1 - t];
  wb::device_buffer<int> d_in(in), d_out(in.size());
#if defined(WB_BACKEND_CPU)
  for (const char* order : all_orders) {
    INFO("order := " << std::string(order));
    order_scope scope(order);
#endif
    d_out.fill_bytes(0xFF);
    wb::launch({dim3(blocks), dim3(block), block * sizeof(int)}, reverse_in_block<true>, d_in.data(), d_out.data());
    WB_CHECK_EQUAL_SEQ(expected, d_out.to_host());
#if defined(WB_BACKEND_CPU)
  }
#endif
}

#if defined(WB_BACKEND_CPU)
TEST_CASE("a missing __syncthreads gives wrong results under some order") {
  const int block = 64;
  std::vector<int> in(block);
  std::iota(in.begin(), in.end(), 1);
  wb::device_buffer<int> d_in(in), d_out(in.size());
  // With the race check (the test binaries' default) the launch fails, whatever the order.
  CHECK_THROWS_WITH_AS(
      wb::launch({dim3(1), dim3(block), block * sizeof(int)}, reverse_in_block<false>, d_in.data(), d_out.data()),
      doctest::Contains("data race on shared memory"), wb::cuda_error);
  race_check_scope unchecked(false);
  int orders_wrong = 0;
  for (const char* order : all_orders) {
    order_scope scope(order);
    wb::launch({dim3(1), dim3(block), block * sizeof(int)}, reverse_in_block<false>, d_in.data(), d_out.data());
    const auto h = d_out.to_host();
    bool right = true;
    for (int t = 0; t < block; ++t) right = right && h[t] == in[block - 1 - t];
    orders_wrong += !right;
  }
  CHECK(orders_wrong >= 2);
}
#endif

TEST_CASE("threads that exit before a barrier count as arrived") {
  wb::device_buffer<int> out(256);
  for (int active : {1, 31, 32, 33, 100}) {
    CAPTURE(active);
    out.fill_bytes(0xFF);
    wb::launch({dim3(1), dim3(256)}, early_exit_then_barrier, active, out.data());
    const auto h = out.to_host();
    for (int t = 0; t < active; ++t) CHECK(h[t] == (active - 1 - t) * 3);
  }
}

TEST_CASE("__syncthreads_count, _and, _or") {
  for (int ones : {0, 1, 77, 160}) {
    CAPTURE(ones);
    std::vector<int> pred(160, 0);
    for (int i = 0; i < ones; ++i) pred[(i * 37) % 160] = 1 + i;  // any non-zero counts
    wb::device_buffer<int> d_pred(pred), out(3);
    wb::launch({dim3(1), dim3(160)}, barrier_reductions, d_pred.data(), out.data());
    const auto h = out.to_host();
    CHECK(h[0] == ones);
    CHECK(h[1] == (ones == 160 ? 1 : 0));
    CHECK(h[2] == (ones > 0 ? 1 : 0));
  }
}

TEST_CASE("shuffles follow CUDA's lane and width rules") {
  wb::device_buffer<int> out(32);
  auto run = [&](int kind, int arg, int width) {
    wb::launch({dim3(1), dim3(32)}, shuffle_all, kind, arg, width, out.data());
    return out.to_host();
  };
  for (int width : {1, 2, 4, 8, 16, 32}) {
    for (int arg : {0, 1, 3, 5, 16, 31}) {
      CAPTURE(width);
      CAPTURE(arg);
      std::vector<int> shfl(32), up(32), down(32), xr(32);
      for (int l = 0; l < 32; ++l) {
        const int segment = l & ~(width - 1), in_seg = l - segment;
        shfl[l] = 1000 + segment + (arg % width);               // srcLane modulo width
        up[l] = 1000 + (in_seg >= arg ? l - arg : l);          // no source below the segment: own value
        down[l] = 1000 + (in_seg + arg < width ? l + arg : l);  // no source above it: own value
        const int x = l ^ arg;
        xr[l] = 1000 + (x < segment + width ? x : l);          // later segments: own value
      }
      WB_CHECK_EQUAL_SEQ(shfl, run(k_shfl, arg, width));
      WB_CHECK_EQUAL_SEQ(up, run(k_up, arg, width));
      WB_CHECK_EQUAL_SEQ(down, run(k_down, arg, width));
      WB_CHECK_EQUAL_SEQ(xr, run(k_xor, arg, width));
    }
  }
}

TEST_CASE("shuffles move 64-bit integers and doubles whole") {
  wb::device_buffer<long long> out(32);
  wb::launch({dim3(1), dim3(32)}, shuffle_64bit, out.data());
  const auto h = out.to_host();
  for (int l = 0; l < 32; ++l) {
    const long long down = (1LL << 40) + (l < 31 ? l + 1 : l);
    const long long x = static_cast<long long>(0.5 * (l ^ 1) * 2.0) * 1000000;
    CHECK(h[l] == down + x);
  }
}

TEST_CASE("ballot, any, all, with full and partial masks") {
  wb::gen::rng rng(wb::testing::seed(2));
  for (int trial = 0; trial < 4; ++trial) {
    std::vector<int> pred(32);
    for (auto& p : pred) p = trial == 0 ? 1 : trial == 1 ? 0 : static_cast<int>(rng.below(2));
    unsigned ballot = 0;
    for (int l = 0; l < 32; ++l) ballot |= (pred[l] ? 1u : 0u) << l;
    wb::device_buffer<int> d_pred(pred);
    wb::device_buffer<unsigned> out(4 * 32);
    wb::launch({dim3(1), dim3(32)}, votes, d_pred.data(), out.data());
    const auto h = out.to_host();
    for (int l = 0; l < 32; ++l) {
      CHECK(h[4 * l + 0] == ballot);
      CHECK(h[4 * l + 1] == (ballot != 0 ? 1u : 0u));
      CHECK(h[4 * l + 2] == (ballot == 0xffffffffu ? 1u : 0u));
      CHECK(h[4 * l + 3] == (ballot & (l < 16 ? 0x0000ffffu : 0xffff0000u)));
    }
  }
}

TEST_CASE("__match_any_sync and the __reduce_*_sync family") {
  wb::gen::rng rng(wb::testing::seed(3));
  std::vector<int> values(32);
  for (auto& v : values) v = static_cast<int>(rng.below(5)) - 2;  // few distinct, some negative
  wb::device_buffer<int> d_values(values);
  wb::device_buffer<unsigned> out(6 * 32);
  wb::launch({dim3(1), dim3(32)}, match_and_reduce, d_values.data(), out.data());
  const auto h = out.to_host();
  unsigned sum = 0, or_all = 0, and_all = ~0u;
  int mn = values[0], mx = values[0];
  for (int v : values) {
    sum += static_cast<unsigned>(v);
    or_all |= static_cast<unsigned>(v);
    and_all &= static_cast<unsigned>(v);
    mn = std::min(mn, v);
    mx = std::max(mx, v);
  }
  for (int l = 0; l < 32; ++l) {
    unsigned same = 0;
    for (int k = 0; k < 32; ++k) same |= (values[k] == values[l] ? 1u : 0u) << k;
    CHECK(h[6 * l + 0] == same);
    CHECK(h[6 * l + 1] == sum);
    CHECK(static_cast<int>(h[6 * l + 2]) == mn);
    CHECK(static_cast<int>(h[6 * l + 3]) == mx);
    CHECK(h[6 * l + 4] == or_all);
    CHECK(h[6 * l + 5] == and_all);
  }
}

TEST_CASE("a shuffle warp sum is right under every order") {
  const int n = 256;
  wb::gen::rng rng(wb::testing::seed(4));
  std::vector<int> in(n);
  for (auto& v : in) v = static_cast<int>(rng.below(2001)) - 1000;
  wb::device_buffer<int> d_in(in), d_out(n / 32);
#if defined(WB_BACKEND_CPU)
  for (const char* order : all_orders) {
    INFO("order := " << std::string(order));
    order_scope scope(order);
#endif
    wb::launch({dim3(2), dim3(128)}, warp_sum_shuffle, d_in.data(), d_out.data());
    const auto h = d_out.to_host();
    for (int w = 0; w < n / 32; ++w) CHECK(h[w] == std::accumulate(in.begin() + 32 * w, in.begin() + 32 * w + 32, 0));
#if defined(WB_BACKEND_CPU)
  }
#endif
}

TEST_CASE("R3: the warp-synchronous tail needs __syncwarp") {
  std::vector<int> in(64);
  wb::gen::rng rng(wb::testing::seed(5));
  for (auto& v : in) v = static_cast<int>(rng.below(100)) + 1;
  const int expected = std::accumulate(in.begin(), in.end(), 0);
  wb::device_buffer<int> d_in(in), d_out(1);
#if defined(WB_BACKEND_CPU)
  for (const char* order : all_orders) {
    INFO("order := " << std::string(order));
    order_scope scope(order);
#endif
    wb::launch({dim3(1), dim3(64), 64 * sizeof(int)}, last_warp_sum<true>, d_in.data(), d_out.data());
    CHECK(d_out.to_host()[0] == expected);
#if defined(WB_BACKEND_CPU)
  }
  // As printed: relies on lock-step warps, which independent thread scheduling does not give.
  CHECK_THROWS_WITH_AS(wb::launch({dim3(1), dim3(64), 64 * sizeof(int)}, last_warp_sum<false>, d_in.data(), d_out.data()),
                       doctest::Contains("no __syncwarp() in their warp"), wb::cuda_error);
  race_check_scope unchecked(false);
  order_scope scope("reverse");
  wb::launch({dim3(1), dim3(64), 64 * sizeof(int)}, last_warp_sum<false>, d_in.data(), d_out.data());
  CHECK(d_out.to_host()[0] != expected);
#endif
}

TEST_CASE("__syncwarp with partial masks, and __activemask") {
  wb::device_buffer<int> out(64);
  wb::launch({dim3(1), dim3(32)}, half_warp_exchange, out.data());
  const auto h = out.to_host();
  for (int l = 0; l < 32; ++l) {
    CHECK(h[l] == (l ^ 1) * 10);
    CHECK((static_cast<unsigned>(h[32 + l]) >> l & 1u) == 1u);
  }
}

TEST_CASE("static __shared__ memory is one copy per block") {
  wb::device_buffer<int> mismatches(std::vector<int>{0});
#if defined(WB_BACKEND_CPU)
  const int saved_threads = wb::cpu::current_options().host_threads;
  wb::cpu::current_options().host_threads = 2;
#endif
  wb::launch({dim3(64), dim3(128)}, static_shared_per_block, mismatches.data());
#if defined(WB_BACKEND_CPU)
  wb::cpu::current_options().host_threads = saved_threads;
#endif
  CHECK(mismatches.to_host()[0] == 0);
}

TEST_CASE("atomicAnd, atomicDec, 64-bit atomicMin/Max, atomicExch on float") {
  const int blocks = 4, threads = 64, total = blocks * threads;
  wb::device_buffer<unsigned> u32(std::vector<unsigned>{0xffffffffu, 1000u});
  wb::device_buffer<unsigned long long> u64(std::vector<unsigned long long>{0ull, ~0ull});
  wb::device_buffer<float> f32(std::vector<float>{0.0f});
  wb::launch({dim3(blocks), dim3(threads)}, more_atomics, u32.data(), u64.data(), f32.data());
  const auto h = u32.to_host();
  CHECK(h[0] == 0u);
  CHECK(h[1] == static_cast<unsigned>(1000 - total));
  const auto h64 = u64.to_host();
  CHECK(h64[0] == 1000000000000ull + total - 1);
  CHECK(h64[1] == 1000000000000ull);
  CHECK(f32.to_host()[0] == 2.5f);
}

TEST_CASE("static plus dynamic shared memory past 48 KiB launches") {
  wb::device_buffer<int> out(2);
  wb::launch({dim3(2), dim3(256), 16 * 1024}, big_static_plus_dynamic, out.data());
  CHECK(out.to_host()[0] == (10 * 1024 - 1) + 2 * (4 * 1024 - 1));
  CHECK(out.to_host()[1] == (10 * 1024 - 1) + 2 * (4 * 1024 - 1));
}

TEST_CASE("integer intrinsics: __byte_perm, __umul64hi, __umulhi, __popc, __clz, __brev") {
  const unsigned x = 0x44332211u, y = 0x88776655u;
  const unsigned long long a = 0xFEDCBA9876543210ull, b = 0x0123456789ABCDEFull;
  wb::device_buffer<unsigned long long> out(8);
  wb::launch({dim3(1), dim3(1)}, integer_intrinsics, x, y, a, b, out.data());
  const auto h = out.to_host();
  CHECK(h[0] == 0x44332211ull);
  CHECK(h[1] == 0x88776655ull);
  CHECK(h[2] == 0x11223344ull);
  CHECK(h[3] == 0x66225511ull);
  CHECK(h[4] == static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64));
  CHECK(h[5] == ((static_cast<unsigned long long>(x) * y) >> 32));
  CHECK(h[6] == 10ull);  // popc(0x44332211) = 10; clz(y) = 0: its top bit is set
  CHECK(h[7] == 0x8844CC22ull);
}

TEST_CASE("atomics on 32- and 64-bit integers and floating point") {
  const int blocks = 6, threads = 96, total = blocks * threads;
#if defined(WB_BACKEND_CPU)
  // Several OS threads run blocks at once, so the atomics really race.
  const int saved_threads = wb::cpu::current_options().host_threads;
  wb::cpu::current_options().host_threads = 3;
#endif
  wb::device_buffer<int> i32(std::vector<int>{0, 0, -1, 1});
  wb::device_buffer<unsigned long long> u64(std::vector<unsigned long long>{0});
  wb::device_buffer<float> f32(std::vector<float>{0});
  wb::device_buffer<double> f64(std::vector<double>{0});
  wb::device_buffer<unsigned> u32(std::vector<unsigned>{0, 0, 0, 0, 0});
  wb::launch({dim3(blocks), dim3(threads)}, atomics_kernel, i32.data(), u64.data(), f32.data(), f64.data(), u32.data());
#if defined(WB_BACKEND_CPU)
  wb::cpu::current_options().host_threads = saved_threads;
#endif
  const auto h32 = i32.to_host();
  CHECK(h32[0] == total);
  CHECK(h32[1] == -2 * total);
  CHECK(h32[2] == total - 1);
  CHECK(h32[3] == -(total - 1));
  CHECK(u64.to_host()[0] == (1ull << 33) * total);
  CHECK(f32.to_host()[0] == doctest::Approx(0.5 * total));
  CHECK(f64.to_host()[0] == doctest::Approx(0.25 * total));
  const auto hu = u32.to_host();
  CHECK(hu[0] == static_cast<unsigned>(total % 10));
  CHECK(hu[1] == 0xffffffffu);
  CHECK(hu[2] == static_cast<unsigned>(total % 2));
  CHECK(hu[3] != 0u);
  CHECK(hu[4] == 1u);
}

TEST_CASE("an early-started kernel's threads all wait for the kernel ahead") {
  const std::vector<int> zeros(128, 0);
  wb::device_buffer<int> out(zeros);
  wb::launch({dim3(2), dim3(64)}, add_one_without_waiting, out.data());  // a plain launch ahead
  wb::launch_config early{dim3(2), dim3(64)};
  early.early_start = true;
  wb::launch(early, add_one_after_waiting, out.data());
  const std::vector<int> twos(128, 2);
  CHECK(out.to_host() == twos);  // the early kernel read what the one ahead wrote
#if defined(WB_BACKEND_CPU)
  // On a GPU these could read before the kernel ahead is done; the emulator fails them always.
  CHECK_THROWS_WITH_AS(wb::launch(early, add_one_without_waiting, out.data()),
                       doctest::Contains("returned without calling wb::device::wait_for_previous_grid()"),
                       wb::cuda_error);
  CHECK_THROWS_WITH_AS(wb::launch(early, add_one_thread_5_not_waiting, out.data()),
                       doctest::Contains("launched with early_start"), wb::cuda_error);
  wb::launch({dim3(2), dim3(64)}, add_one_without_waiting, out.data());  // without early_start: fine
#endif
}

#if defined(WB_BACKEND_CPU)
// wb::launch throws wb::cuda_error with the emulator's message; a raw launch leaves the
// error for cudaGetLastError, as on a GPU.
TEST_CASE("barrier divergence is an error naming the block, threads and lines") {
  CHECK_THROWS_WITH_AS(wb::launch({dim3(2), dim3(64)}, divergent_barrier),
                       doctest::Contains("barrier divergence in block (0,0,0)"), wb::cuda_error);
  try {
    wb::launch({dim3(1), dim3(64)}, divergent_barrier);
  } catch (const wb::cuda_error& e) {
    const std::string msg = e.what();
    CHECK(e.code() == cudaErrorLaunchFailure);
    CHECK(msg.find("threads 0-15: wait at __syncthreads (test_builtins.cu:") != std::string::npos);
    CHECK(msg.find("threads 16-63: wait at __syncthreads (test_builtins.cu:") != std::string::npos);
  }
  // The emulator is usable again after a fault (it is not sticky, unlike a GPU context).
  wb::launch({dim3(1), dim3(32)}, empty_kernel);
}

TEST_CASE("a shuffle whose lanes wait at a barrier is reported, not a hang") {
  wb::device_buffer<int> out(32);
  CHECK_THROWS_WITH_AS(wb::launch({dim3(1), dim3(32)}, shuffle_meets_barrier, out.data()),
                       doctest::Contains("deadlock in block (0,0,0)"), wb::cuda_error);
}

TEST_CASE("a shuffle naming an exited lane is an error") {
  wb::device_buffer<int> out(32);
  for (const char* order : all_orders) {
    INFO("order := " << std::string(order));
    order_scope scope(order);
    // In order, lanes 0-4 wait first and the fault shows when lane 5 exits (a deadlock);
    // in other orders a lane arriving after lane 5 exited names it. Both are errors.
    CHECK_THROWS_AS(wb::launch({dim3(1), dim3(32)}, shuffle_with_exited_lane, out.data()), wb::cuda_error);
  }
  order_scope scope("reverse");
  CHECK_THROWS_WITH_AS(wb::launch({dim3(1), dim3(32)}, shuffle_with_exited_lane, out.data()),
                       doctest::Contains("lane 5 named in the mask 0xffffffff has exited"), wb::cuda_error);
}

TEST_CASE("a mask must include the calling lane and only existing lanes") {
  wb::device_buffer<int> out(48);
  CHECK_THROWS_WITH_AS(wb::launch({dim3(1), dim3(32)}, mask_without_self, out.data()),
                       doctest::Contains("does not include the calling lane"), wb::cuda_error);
  // Block of 48: the second warp has 16 lanes, so a full mask names lanes that do not exist.
  CHECK_THROWS_WITH_AS(wb::launch({dim3(1), dim3(48)}, shuffle_all, int(k_down), 1, 32, out.data()),
                       doctest::Contains("names lanes that do not exist"), wb::cuda_error);
}

TEST_CASE("launch limits are checked like a GPU's") {
  CHECK_THROWS_WITH_AS(wb::launch({dim3(1), dim3(1025)}, empty_kernel), doctest::Contains("1025 threads"),
                       wb::cuda_error);
  CHECK_THROWS_AS(wb::launch({dim3(1), dim3(32, 32, 2)}, empty_kernel), wb::cuda_error);
  CHECK_THROWS_AS(wb::launch({dim3(0), dim3(32)}, empty_kernel), wb::cuda_error);
  CHECK_THROWS_WITH_AS(wb::launch({dim3(1), dim3(32), 228 * 1024}, empty_kernel),
                       doctest::Contains("dynamic shared memory"), wb::cuda_error);
  wb::launch({dim3(1), dim3(1024), 227 * 1024}, empty_kernel);  // exactly the limit is fine
  // A raw launch leaves the error for cudaGetLastError, which then clears it.
  wb::cpu::launch_kernel(dim3(1), dim3(2048), 0, [] {});
  CHECK(launch_error_text().find("2048 threads") != std::string::npos);
  CHECK(cudaGetLastError() == cudaSuccess);
}

TEST_CASE("dynamic shared memory starts as poison") {
  wb::device_buffer<unsigned> out(64);
  wb::launch({dim3(1), dim3(64), 64 * sizeof(unsigned)}, read_shared_unwritten, out.data());
  for (unsigned v : out.to_host()) CHECK(v == 0xA5A5A5A5u);
}

TEST_CASE("runtime API checks pointers like a GPU") {
  std::vector<int> host(16, 1);
  wb::device_buffer<int> dev(16);
  int* not_device = host.data();
  CHECK(cudaMemcpy(not_device, host.data(), 64, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
  CHECK(cudaMemcpy(dev.data(), host.data(), 65, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
  CHECK(cudaMemcpy(dev.data(), host.data(), 64, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaFree(not_device) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK_THROWS_WITH_AS(WB_CHECK(cudaMemset(not_device, 0, 4)), doctest::Contains("cudaMemset(not_device, 0, 4) failed at"),
                       wb::cuda_error);
  cudaGetLastError();
}

__global__ void record_start_order(unsigned* counter, unsigned* ticket_of_block) {
  if (threadIdx.x == 0) ticket_of_block[blockIdx.x] = atomicAdd(counter, 1u);
}

TEST_CASE("WB_CPU_BLOCK_ORDER: blocks start in blockIdx order, or the last first") {
  const std::string saved = wb::cpu::block_order_name();
  for (const char* order : {"in-order", "reverse"}) {
    wb::cpu::set_block_order(order);
    wb::device_buffer<unsigned> counter(std::vector<unsigned>{0});
    wb::device_buffer<unsigned> tickets(5);
    wb::launch({dim3(5), dim3(64)}, record_start_order, counter.data(), tickets.data());
    const auto t = tickets.to_host();
    INFO("order := " << std::string(order));
    for (unsigned b = 0; b < 5; ++b) CHECK(t[b] == (std::string(order) == "reverse" ? 4 - b : b));
  }
  wb::cpu::set_block_order(saved);
  CHECK(wb::cpu::block_order_name() == saved);
  CHECK_THROWS_AS(wb::cpu::set_block_order("sideways"), std::invalid_argument);
}

TEST_CASE("cost: a block of 1024 threads passing 10 barriers") {
  wb::device_buffer<int> out(1);
  wb::launch({dim3(1), dim3(1024)}, many_barriers, 10, out.data());  // warm the stack pool
  const int reps = 20;
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r) wb::launch({dim3(1), dim3(1024)}, many_barriers, 10, out.data());
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / reps;
  CHECK(out.to_host()[0] == 9);
  MESSAGE("1024 threads x 20 barriers (10 rounds): " << ms << " ms per block (emulated, race check "
                                                      << std::string(wb::cpu::race_check() ? "on" : "off") << ")");
  CHECK(ms < 50.0);  // generous: guards against a pathological regression, not a benchmark
}
#endif

}  // TEST_SUITE
