// The cpu backend's race check (common/cpu/race.cpp, common/CPU-BACKEND.md): each pitfall the
// chapters teach, in a few lines, found every time whatever the scheduling order; and the
// right versions of the same kernels pass. On a GPU these are compute-sanitizer's racecheck's
// to find: the cases run there only where the kernel is right.
#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#include "wb/kernel.hpp"
#include "wb/testing.hpp"

namespace {

// --- a histogram: the read-modify-write needs an atomic ------------------------------------

template <bool atomic>
__global__ void count_bytes(const std::uint8_t* in, std::int64_t n, unsigned* bins) {
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    if constexpr (atomic) {
      atomicAdd(&bins[in[i]], 1u);
    } else {
      bins[in[i]] += 1;  // racy: two threads read the same count, both write it plus one
    }
  }
}

// --- an in-place Kogge-Stone step: each thread updates its own value from a neighbour's ------

#if defined(WB_BACKEND_CPU)  // only the race check's message is tested
__global__ void kogge_stone_in_place(int* data) {
  int* xy = wb::dynamic_shared<int>();
  const unsigned t = threadIdx.x;
  xy[t] = data[t];
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (t >= stride) xy[t] += xy[t - stride];  // racy: the neighbour may have updated xy[t - stride]
    __syncthreads();
  }
  data[t] = xy[t];
}
#endif

// --- shared memory: a barrier between a write and another thread's read ----------------------

template <bool barrier>
__global__ void shift_right(const int* in, int* out) {
  int* s = wb::dynamic_shared<int>();
  const unsigned t = threadIdx.x;
  s[t] = in[t];
  if (barrier) __syncthreads();
  out[t] = t > 0 ? s[t - 1] : 0;
}

// --- one warp: the warp-synchronous tail (volatile shared memory) ---------------------------

template <bool syncwarp>
__global__ void warp_sum(const int* in, int* out) {
  volatile int* s = wb::dynamic_shared<int>();
  const unsigned t = threadIdx.x;
  s[t] = in[t];
  if (syncwarp) __syncwarp();
  for (unsigned offset = 16; offset > 0; offset /= 2) {
    if (syncwarp) {
      const int v = t < offset ? s[t] + s[t + offset] : s[t];
      __syncwarp();
      s[t] = v;
      __syncwarp();
    } else if (t < offset) {
      s[t] = s[t] + s[t + offset];  // as printed: no lock-step on Volta and later
    }
  }
  if (t == 0) *out = s[0];
}

// --- across blocks: a chain of flags (the domino scan in miniature) ----------------------------

enum class chain_defect {
  none,
  no_wait,
  no_writer_fence,
  no_reader_fence,
  flag_before_carry,
  plain_carries,         // right: plain carries behind the flag and the fences
  plain_carries_no_wait  // plain carries read without waiting for the flag
};

// Block b (one thread) adds in[b] to block b-1's carry and passes it on. b is the order the
// blocks start in (a ticket: a block never waits for one that has not started, S4).
__global__ void carry_chain(const int* in, int* carries, unsigned* flags, int* out, unsigned* ticket,
                            chain_defect defect) {
  const unsigned b = atomicAdd(ticket, 1u);
  int before = 0;
  if (b > 0) {
    if (defect != chain_defect::no_wait && defect != chain_defect::plain_carries_no_wait) {
      while (static_cast<volatile unsigned*>(flags)[b - 1] == 0) {
      }
    }
    if (defect != chain_defect::no_reader_fence) __threadfence();
    // (Two statements: `plain ? carries[i] : volatile_carries[i]` would read volatile both ways.)
    if (defect == chain_defect::plain_carries || defect == chain_defect::plain_carries_no_wait) {
      before = carries[b - 1];
    } else {
      before = static_cast<volatile int*>(carries)[b - 1];
    }
  }
  const int mine = before + in[b];
  if (defect == chain_defect::flag_before_carry) {
    __threadfence();
    static_cast<volatile unsigned*>(flags)[b] = 1;
    static_cast<volatile int*>(carries)[b] = mine;
  } else {
    if (defect == chain_defect::plain_carries || defect == chain_defect::plain_carries_no_wait) carries[b] = mine;
    else static_cast<volatile int*>(carries)[b] = mine;
    if (defect != chain_defect::no_writer_fence) __threadfence();
    static_cast<volatile unsigned*>(flags)[b] = 1;
  }
  out[b] = mine;
}

// --- the last block done sums everyone's partial (a ticket) ------------------------------------

template <bool fence>
__global__ void last_block_sum(const int* in, int* partials, unsigned* ticket, int* out) {
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = in[blockIdx.x];
    if (fence) __threadfence();
    is_last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last) return;
  if (fence) __threadfence();
  if (threadIdx.x == 0) {
    int total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) total += partials[b];
    *out = total;
  }
}

// --- a hash table: a slot is read before it is claimed with atomicCAS ---------------------------

constexpr unsigned empty_slot = 0xFFFFFFFFu;

__global__ void insert_keys(const unsigned* keys, std::int64_t n, unsigned* slots, unsigned* counts, unsigned capacity) {
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    const unsigned key = keys[i];
    for (unsigned h = key % capacity;; h = (h + 1) % capacity) {
      unsigned here = slots[h];  // may be claimed meanwhile: the CAS below decides
      if (here == empty_slot) {
        here = atomicCAS(&slots[h], empty_slot, key);
        if (here == empty_slot) here = key;
      }
      if (here == key) {
        atomicAdd(&counts[h], 1u);
        break;
      }
    }
  }
}

// --- a shared counter zeroed by one thread while the others add (counting's D6) -----------------

template <bool barrier>
__global__ void shared_counter(unsigned* out) {
  __shared__ unsigned count;
  if (threadIdx.x == 0) count = 0;
  if (barrier) __syncthreads();
  atomicAdd(&count, 1u);
  __syncthreads();
  if (threadIdx.x == 0) *out = count;
}

// --- a flag several threads set to the same value ------------------------------------------------

__global__ void set_flag(unsigned long long* flag, unsigned long long value_of_block_1) {
  if (threadIdx.x == 0) *flag = blockIdx.x == 1 ? value_of_block_1 : 1;
}

// --- reads past either end of an array -------------------------------------------------------

__global__ void read_shifted(const int* in, int* out, int n, int shift) {
  const int i = static_cast<int>(threadIdx.x);
  if (i < n) out[i] = in[i + shift];  // shift 1: the last thread reads in[n]; shift -1: the first in[-1]
}

#if defined(WB_BACKEND_CPU)
struct order_scope {
  std::string saved = wb::cpu::schedule_order_name();
  explicit order_scope(const char* order) { wb::cpu::set_schedule_order(order); }
  ~order_scope() { wb::cpu::set_schedule_order(saved); }
};
const char* const orders[] = {"in-order", "reverse", "shuffle:3"};

// The message of the launch's failure, or "" when it ran.
template <class F>
std::string failure_of(F&& launch) {
  try {
    launch();
  } catch (const wb::cuda_error& e) {
    return e.what();
  }
  return "";
}
#endif

std::vector<int> small_ints(std::size_t n, std::uint64_t salt) {
  return wb::gen::uniform<int>(n, wb::testing::seed(salt), 1, 9);
}

}  // namespace

TEST_SUITE("race check") {
  TEST_CASE("a histogram's counts need atomics: the plain += is reported, atomicAdd is not") {
    const auto bytes = wb::gen::uniform<int>(5000, wb::testing::seed(1), 0, 7);
    std::vector<std::uint8_t> in(bytes.begin(), bytes.end());
    std::vector<unsigned> expected(256, 0);
    for (auto v : in) ++expected[v];
    wb::device_buffer<std::uint8_t> d_in(in);
    wb::device_buffer<unsigned> bins(256);
    bins.fill_bytes(0);
    wb::launch({dim3(4), dim3(64)}, count_bytes<true>, d_in.data(), static_cast<std::int64_t>(in.size()), bins.data());
    WB_CHECK_EQUAL_SEQ(expected, bins.to_host());
#if defined(WB_BACKEND_CPU)
    for (const std::string order : orders) {
      CAPTURE(order);
      order_scope scope(order.c_str());
      bins.fill_bytes(0);
      const std::string failure = failure_of([&] {
        wb::launch({dim3(4), dim3(64)}, count_bytes<false>, d_in.data(), static_cast<std::int64_t>(in.size()),
                   bins.data());
      });
      CAPTURE(failure);
      CHECK(failure.find("data race on global memory") != std::string::npos);
      CHECK(failure.find("test_race_check.cu:") != std::string::npos);  // the line, from the line tables
      CHECK(failure.find("count_bytes") != std::string::npos);          // the kernel
      CHECK(failure.find("needs an atomic") != std::string::npos);      // the same line in both threads
    }
#endif
  }

  TEST_CASE("an in-place scan step is reported with both remedies: atomics, and read, barrier, write") {
#if defined(WB_BACKEND_CPU)
    wb::device_buffer<int> data(small_ints(64, 3));
    const std::string failure =
        failure_of([&] { wb::launch({dim3(1), dim3(64), 64 * sizeof(int)}, kogge_stone_in_place, data.data()); });
    CAPTURE(failure);
    CHECK(failure.find("data race on shared memory") != std::string::npos);
    CHECK(failure.find("on the same line") != std::string::npos);
    // The counter's remedy alone would mislead here: each thread owns its own xy[t].
    CHECK(failure.find("read it into a register, __syncthreads(), then write") != std::string::npos);
#endif
  }

  TEST_CASE("shared memory: a missing __syncthreads is reported under every order") {
    const auto in = small_ints(128, 2);
    wb::device_buffer<int> d_in(in), d_out(in.size());
    wb::launch({dim3(1), dim3(128), 128 * sizeof(int)}, shift_right<true>, d_in.data(), d_out.data());
    const auto got = d_out.to_host();
    CHECK(got[0] == 0);
    for (int t = 1; t < 128; ++t) CHECK(got[t] == in[t - 1]);
#if defined(WB_BACKEND_CPU)
    for (const std::string order : orders) {
      CAPTURE(order);
      order_scope scope(order.c_str());
      const std::string failure = failure_of(
          [&] { wb::launch({dim3(1), dim3(128), 128 * sizeof(int)}, shift_right<false>, d_in.data(), d_out.data()); });
      CHECK(failure.find("data race on shared memory") != std::string::npos);
      CHECK(failure.find("no __syncthreads() between them") != std::string::npos);
    }
#endif
  }

  TEST_CASE("a warp's volatile tail needs __syncwarp (The CUDA Handbook's, as printed, is reported)") {
    const auto in = small_ints(32, 3);
    wb::device_buffer<int> d_in(in), d_out(1);
    wb::launch({dim3(1), dim3(32), 32 * sizeof(int)}, warp_sum<true>, d_in.data(), d_out.data());
    CHECK(d_out.to_host()[0] == std::accumulate(in.begin(), in.end(), 0));
#if defined(WB_BACKEND_CPU)
    for (const std::string order : orders) {
      CAPTURE(order);
      order_scope scope(order.c_str());
      const std::string failure = failure_of(
          [&] { wb::launch({dim3(1), dim3(32), 32 * sizeof(int)}, warp_sum<false>, d_in.data(), d_out.data()); });
      CHECK(failure.find("data race on shared memory") != std::string::npos);
      CHECK(failure.find("__syncwarp()") != std::string::npos);
    }
#endif
  }

  TEST_CASE("a chain of flags between blocks: right with the wait and both fences, wrong without any of them") {
    const int blocks = 24;
    const auto in = small_ints(blocks, 4);
    std::vector<int> expected(blocks);
    std::partial_sum(in.begin(), in.end(), expected.begin());
    wb::device_buffer<int> d_in(in), carries(blocks), out(blocks);
    wb::device_buffer<unsigned> flags(blocks), ticket(1);
    const auto run = [&](chain_defect defect) {
      carries.fill_bytes(0);
      flags.fill_bytes(0);
      out.fill_bytes(0);
      ticket.fill_bytes(0);
      wb::launch({dim3(blocks), dim3(1)}, carry_chain, d_in.data(), carries.data(), flags.data(), out.data(),
                 ticket.data(), defect);
      return out.to_host();
    };
    WB_CHECK_EQUAL_SEQ(expected, run(chain_defect::none));
#if defined(WB_BACKEND_CPU)
    // Blocks run one after another here, so every carry is in memory before its reader starts:
    // without the check each defective chain would give the right sums. The check serves a
    // read that nothing orders after the write the value an ordered read would see (zero).
    for (const auto defect : {chain_defect::no_wait, chain_defect::no_writer_fence, chain_defect::no_reader_fence,
                              chain_defect::flag_before_carry}) {
      CAPTURE(static_cast<int>(defect));
      CHECK(run(defect) != expected);
    }
    WB_CHECK_EQUAL_SEQ(expected, run(chain_defect::plain_carries));  // ordered by the flag and the fences
    // Plain carries read without waiting: a plain write and a read that nothing orders.
    const std::string failure = failure_of([&] { run(chain_defect::plain_carries_no_wait); });
    CHECK(failure.find("data race on global memory") != std::string::npos);
    CHECK(failure.find("different blocks") != std::string::npos);
    {
      wb::cpu::set_race_check(false);
      WB_CHECK_EQUAL_SEQ(expected, run(chain_defect::no_wait));  // unchecked, one block at a time: right
      wb::cpu::set_race_check(true);
    }
#endif
  }

  TEST_CASE("the last block done: its ticket orders everyone's partial before the sum, with the fences") {
    const int blocks = 40;
    const auto in = small_ints(blocks, 5);
    wb::device_buffer<int> d_in(in), partials(blocks), out(1);
    wb::device_buffer<unsigned> ticket(1);
    ticket.fill_bytes(0);
    wb::launch({dim3(blocks), dim3(32)}, last_block_sum<true>, d_in.data(), partials.data(), ticket.data(), out.data());
    CHECK(out.to_host()[0] == std::accumulate(in.begin(), in.end(), 0));
#if defined(WB_BACKEND_CPU)
    ticket.fill_bytes(0);
    const std::string failure = failure_of([&] {
      wb::launch({dim3(blocks), dim3(32)}, last_block_sum<false>, d_in.data(), partials.data(), ticket.data(),
                 out.data());
    });
    CHECK(failure.find("data race on global memory") != std::string::npos);
    CHECK(failure.find("different blocks") != std::string::npos);
    CHECK(failure.find("__threadfence()") != std::string::npos);
#endif
  }

  TEST_CASE("a hash table reads a slot before claiming it with atomicCAS: not a race") {
    const auto raw = wb::gen::uniform<int>(3000, wb::testing::seed(6), 0, 199);
    std::vector<unsigned> keys(raw.begin(), raw.end());
    const unsigned capacity = 512;
    wb::device_buffer<unsigned> d_keys(keys), slots(capacity), counts(capacity);
    slots.fill_bytes(0xFF);
    counts.fill_bytes(0);
    wb::launch({dim3(6), dim3(128)}, insert_keys, d_keys.data(), static_cast<std::int64_t>(keys.size()), slots.data(),
               counts.data(), capacity);
    const auto s = slots.to_host();
    const auto c = counts.to_host();
    std::vector<unsigned> got(200, 0), expected(200, 0);
    for (auto k : keys) ++expected[k];
    for (unsigned i = 0; i < capacity; ++i) {
      if (s[i] != empty_slot) got[s[i]] += c[i];
    }
    WB_CHECK_EQUAL_SEQ(expected, got);
  }

  TEST_CASE("a shared counter zeroed by one thread while the others add (D6) is reported") {
    wb::device_buffer<unsigned> out(1);
    wb::launch({dim3(1), dim3(96)}, shared_counter<true>, out.data());
    CHECK(out.to_host()[0] == 96u);
#if defined(WB_BACKEND_CPU)
    for (const std::string order : orders) {
      CAPTURE(order);
      order_scope scope(order.c_str());
      const std::string failure = failure_of([&] { wb::launch({dim3(1), dim3(96)}, shared_counter<false>, out.data()); });
      CHECK(failure.find("data race on shared memory") != std::string::npos);
    }
#endif
  }

  TEST_CASE("blocks setting one flag to the same value do not race; to different values they do") {
    wb::device_buffer<unsigned long long> flag(1);
    flag.fill_bytes(0);
    wb::launch({dim3(3), dim3(32)}, set_flag, flag.data(), 1ull);
    CHECK(flag.to_host()[0] == 1u);
#if defined(WB_BACKEND_CPU)
    const std::string failure = failure_of([&] { wb::launch({dim3(3), dim3(32)}, set_flag, flag.data(), 2ull); });
    CHECK(failure.find("data race on global memory") != std::string::npos);
#endif
  }

#if defined(WB_BACKEND_CPU)
  TEST_CASE("a read past either end of a device array is reported, with the element") {
    wb::device_buffer<int> in(std::vector<int>(10, 7)), out(10);
    wb::launch({dim3(1), dim3(10)}, read_shifted, in.data(), out.data(), 10, 0);
    const std::string past = failure_of([&] { wb::launch({dim3(1), dim3(10)}, read_shifted, in.data(), out.data(), 10, 1); });
    CAPTURE(past);
    CHECK(past.find("out-of-bounds access: thread 9 of block (0,0,0) reads 4 bytes at byte 40 of a 40-byte device "
                    "allocation, past its end (element 10; it has 10)") != std::string::npos);
    CHECK(past.find("test_race_check.cu:") != std::string::npos);
    const std::string before = failure_of([&] { wb::launch({dim3(1), dim3(10)}, read_shifted, in.data(), out.data(), 10, -1); });
    CAPTURE(before);
    CHECK(before.find("4 bytes before the start of a 40-byte device allocation") != std::string::npos);
  }

  TEST_CASE("WB_CPU_RACECHECK=0 (set_race_check(false)) runs kernels unchecked") {
    const auto bytes = wb::gen::uniform<int>(2000, wb::testing::seed(7), 0, 3);
    std::vector<std::uint8_t> in(bytes.begin(), bytes.end());
    wb::device_buffer<std::uint8_t> d_in(in);
    wb::device_buffer<unsigned> bins(256);
    bins.fill_bytes(0);
    wb::cpu::set_race_check(false);
    // Fibers do not interleave inside a read-modify-write: unchecked, the racy count is right.
    wb::launch({dim3(2), dim3(64)}, count_bytes<false>, d_in.data(), static_cast<std::int64_t>(in.size()), bins.data());
    wb::cpu::set_race_check(true);
    std::vector<unsigned> expected(256, 0);
    for (auto v : in) ++expected[v];
    WB_CHECK_EQUAL_SEQ(expected, bins.to_host());
  }
#endif
}
