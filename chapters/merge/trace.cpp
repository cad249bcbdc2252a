// --trace (see trace.hpp).
#include "trace.hpp"

#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "merge.hpp"
#include "wb/arguments.hpp"

namespace merge {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
std::int64_t part_begin(std::int64_t p, std::int64_t parts, std::int64_t total) {
  return std::min(p * ceil_div(total, parts), total);
}

template <class K>
std::string slice(const K* data, std::int64_t begin, std::int64_t end) {
  std::string out;
  for (std::int64_t i = begin; i < end; ++i) out += fmt::format("{}{}", i > begin ? " " : "", data[i]);
  return out.empty() ? "-" : out;
}

// ---- Running the track's co_rank where a wrong one shows ---------------------------------
//
// The track's co_rank runs on copies of A and B placed against a page nobody may read: first
// at the end of their pages (a read past the end faults), then at the start (a read before the
// start faults). The fault is caught and named instead of crashing the trace; what the call
// returns is checked against the search below and against the grid (max(0, k - n) <= i <=
// min(k, m)).
sigjmp_buf g_fault_jump;
volatile sig_atomic_t g_fault_armed = 0;
const void* volatile g_fault_address = nullptr;

void on_fault(int sig, siginfo_t* info, void*) {
  if (!g_fault_armed) {
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  g_fault_armed = 0;
  g_fault_address = info->si_addr;
  siglongjmp(g_fault_jump, 1);
}

// `count` elements of `data` on pages of their own, touching a guard page at the end (or the start).
template <class K>
class fenced_copy {
 public:
  fenced_copy(const K* data, std::int64_t count, bool at_end) : count_(count) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(K);
    const std::size_t body = (bytes + page - 1) / page * page + page;
    size_ = body + 2 * page;
    void* map = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) throw std::runtime_error("--trace: mmap failed");
    base_ = static_cast<unsigned char*>(map);
    mprotect(base_, page, PROT_NONE);
    mprotect(base_ + page + body, page, PROT_NONE);
    // Elements stay aligned: the copy ends at the back guard, or starts at the front one.
    elements_ = reinterpret_cast<K*>(at_end ? base_ + page + body - bytes : base_ + page);
    if (bytes > 0) std::memcpy(elements_, data, bytes);
  }
  ~fenced_copy() { munmap(base_, size_); }
  fenced_copy(const fenced_copy&) = delete;
  fenced_copy& operator=(const fenced_copy&) = delete;
  const K* data() const { return elements_; }
  // The index of the element at `address` (it may lie outside [0, count)), if it is near.
  bool index_of(const void* address, std::int64_t& index) const {
    const auto* a = static_cast<const unsigned char*>(address);
    if (a < base_ || a >= base_ + size_) return false;
    const std::ptrdiff_t offset = a - reinterpret_cast<const unsigned char*>(elements_);
    const auto size = static_cast<std::ptrdiff_t>(sizeof(K));
    index = offset >= 0 ? offset / size : -((-offset + size - 1) / size);  // -1: the element before
    return true;
  }

 private:
  std::int64_t count_;
  std::size_t size_ = 0;
  unsigned char* base_ = nullptr;
  K* elements_ = nullptr;
};

// The stable split by the specification, independent of the search being checked: walk the
// stable merge's first k outputs (A's element first on a tie) and count those taken from A.
template <class K>
std::int64_t reference_co_rank(std::int64_t k, const K* A, std::int64_t m, const K* B, std::int64_t n) {
  std::int64_t i = 0, j = 0;
  while (i + j < k && (i < m || j < n)) {
    if (j >= n || (i < m && !(B[j] < A[i]))) {
      ++i;
    } else {
      ++j;
    }
  }
  return i;
}

// What one call of the track's co_rank did.
struct co_rank_call {
  std::int64_t i = 0;     // what it returned (the stable split when it faulted)
  std::int64_t right = 0; // the stable split
  bool faulted = false;
  std::string problem;    // empty when i is the stable split
  // i clamped into the grid, for slicing the inputs
  std::int64_t usable(std::int64_t k, std::int64_t m, std::int64_t n) const {
    return std::clamp(i, std::max<std::int64_t>(0, k - n), std::min(k, m));
  }
};

template <class K>
co_rank_call checked_co_rank(co_rank_fn<K> co_rank, std::int64_t k, const K* A, std::int64_t m, const K* B,
                             std::int64_t n, const char* a_name, const char* b_name) {
  co_rank_call call;
  call.right = reference_co_rank(k, A, m, B, n);
  struct sigaction action {}, old_segv {}, old_bus {};
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &old_segv);
  sigaction(SIGBUS, &action, &old_bus);
  for (const bool at_end : {true, false}) {
    fenced_copy<K> a(A, m, at_end), b(B, n, at_end);
    if (sigsetjmp(g_fault_jump, 1) == 0) {
      g_fault_armed = 1;
      call.i = co_rank(k, a.data(), m, b.data(), n);
      g_fault_armed = 0;
    } else {
      std::int64_t index = 0;
      const char* which = a.index_of(g_fault_address, index) ? a_name : b.index_of(g_fault_address, index) ? b_name : nullptr;
      const std::int64_t size = which == a_name ? m : n;
      call.faulted = true;
      call.i = call.right;
      call.problem = which == nullptr
                         ? "it read memory outside A and B"
                         : fmt::format("it reads {}[{}], {} ({} has {} element{})", which, index,
                                       index < 0 ? "before the start" : "past the end", which, size, size == 1 ? "" : "s");
      break;
    }
  }
  sigaction(SIGSEGV, &old_segv, nullptr);
  sigaction(SIGBUS, &old_bus, nullptr);
  if (!call.faulted) {
    const std::int64_t low = std::max<std::int64_t>(0, k - n), high = std::min(k, m);
    if (call.i < low || call.i > high) {
      call.problem = fmt::format("i = {} is out of range: co_rank({}) lies in [{}, {}] (max(0, k - n) .. min(k, m)); "
                                 "the stable split is {}",
                                 call.i, k, low, high, call.right);
    } else if (call.i != call.right) {
      call.problem = fmt::format("i = {} is wrong: the stable split is {} (ties go to A)", call.i, call.right);
    }
  }
  return call;
}

// The search of Fig. 12.5, narrated (a teaching copy of the algorithm; the value it finds is
// compared with the track's co_rank below).
template <class K>
std::int64_t narrate_co_rank(std::int64_t k, const K* A, std::int64_t m, const K* B, std::int64_t n,
                             const char* indent) {
  std::int64_t i = std::min(k, m);
  std::int64_t j = k - i;
  std::int64_t i_low = std::max<std::int64_t>(0, k - n);
  std::int64_t j_low = std::max<std::int64_t>(0, k - m);
  for (int step = 0;; ++step) {
    std::string head = fmt::format("{}step {}: i={} j={} (i_low={} j_low={}): ", indent, step, i, j, i_low, j_low);
    if (i > 0 && j < n && A[i - 1] > B[j]) {
      const std::int64_t delta = (i - i_low + 1) / 2;
      std::printf("%sA[%lld]=%s > B[%lld]=%s: i too high, move %lld from A to B\n", head.c_str(),
                  static_cast<long long>(i - 1), fmt::format("{}", A[i - 1]).c_str(), static_cast<long long>(j),
                  fmt::format("{}", B[j]).c_str(), static_cast<long long>(delta));
      j_low = j;
      i -= delta;
      j += delta;
    } else if (j > 0 && i < m && B[j - 1] >= A[i]) {
      const std::int64_t delta = (j - j_low + 1) / 2;
      std::printf("%sB[%lld]=%s >= A[%lld]=%s: j too high (ties go to A), move %lld from B to A\n", head.c_str(),
                  static_cast<long long>(j - 1), fmt::format("{}", B[j - 1]).c_str(), static_cast<long long>(i),
                  fmt::format("{}", A[i]).c_str(), static_cast<long long>(delta));
      i_low = i;
      i += delta;
      j -= delta;
    } else {
      std::printf("%sboth tests pass: co-rank i=%lld, j=%lld\n", head.c_str(), static_cast<long long>(i),
                  static_cast<long long>(j));
      return i;
    }
  }
}

}  // namespace

template <class K>
trace_splits print_trace(const std::vector<K>& A, const std::vector<K>& B, const config& basic, const config& tiled,
                         co_rank_fn<K> co_rank, const char* track) {
  trace_splits splits;
  const auto m = static_cast<std::int64_t>(A.size());
  const auto n = static_cast<std::int64_t>(B.size());
  const std::int64_t total = m + n;
  std::printf("\ntrace with the %s track's co_rank\nA = [%s] (m = %lld)\nB = [%s] (n = %lld)\n", track,
              slice(A.data(), 0, m).c_str(), static_cast<long long>(m), slice(B.data(), 0, n).c_str(),
              static_cast<long long>(n));

  // Each co-rank comes from the track's co_rank, checked (see checked_co_rank): a wrong or
  // out-of-range one, or one that reads outside A or B, is marked "!!" and the trace goes on
  // with the value clamped into the grid.
  int problems = 0;
  const auto report = [&](const co_rank_call& call, std::int64_t k, const char* indent) {
    if (call.problem.empty()) return;
    ++problems;
    std::printf("%s!! the %s track's co_rank(%lld): %s\n", indent, track, static_cast<long long>(k), call.problem.c_str());
  };

  // ---- the basic kernel (§12.5): one output slice per thread
  const std::int64_t threads = basic.grid * basic.block;
  std::printf("\nstage 2, basic kernel (PMPP §12.5, Figs. 12.4-12.9): %lld block(s) x %d threads = %lld threads, "
              "ceil(%lld / %lld) = %lld outputs each\n",
              static_cast<long long>(basic.grid), basic.block, static_cast<long long>(threads),
              static_cast<long long>(total), static_cast<long long>(threads),
              static_cast<long long>(ceil_div(total, threads)));
  for (std::int64_t t = 0; t < threads; ++t) {
    const std::int64_t k_curr = part_begin(t, threads, total);
    const std::int64_t k_next = part_begin(t + 1, threads, total);
    const co_rank_call curr = checked_co_rank(co_rank, k_curr, A.data(), m, B.data(), n, "A", "B");
    const co_rank_call next = checked_co_rank(co_rank, k_next, A.data(), m, B.data(), n, "A", "B");
    const std::int64_t i_curr = curr.usable(k_curr, m, n);
    const std::int64_t i_next = std::max(i_curr, next.usable(k_next, m, n));
    splits.threads.push_back({k_curr, curr.faulted ? -1 : curr.i});  // a faulting call: drawn out of range
    std::printf("  thread %lld: C[%lld, %lld) from A[%lld, %lld) = {%s} and B[%lld, %lld) = {%s}\n",
                static_cast<long long>(t), static_cast<long long>(k_curr), static_cast<long long>(k_next),
                static_cast<long long>(curr.i), static_cast<long long>(next.i), slice(A.data(), i_curr, i_next).c_str(),
                static_cast<long long>(k_curr - curr.i), static_cast<long long>(k_next - next.i),
                slice(B.data(), k_curr - i_curr, std::max(k_curr - i_curr, k_next - i_next)).c_str());
    report(curr, k_curr, "    ");
    if (k_next == total) report(next, k_next, "    ");  // the last thread's end: k = m + n
    if (k_curr < total && k_curr > 0) {
      std::printf("    co_rank(%lld), step by step (Figs. 12.6-12.8):\n", static_cast<long long>(k_curr));
      narrate_co_rank(k_curr, A.data(), m, B.data(), n, "      ");
    }
  }

  // ---- the tiled kernel (§12.6): blocks, tiles, threads
  const int tile = tiled.tile;
  std::printf("\nstage 3, tiled kernel (PMPP §12.6, Figs. 12.10-12.14): %lld block(s) x %d threads, tile_size %d\n",
              static_cast<long long>(tiled.grid), tiled.block, tile);
  for (std::int64_t b = 0; b < tiled.grid; ++b) {
    const std::int64_t C_curr = part_begin(b, tiled.grid, total);
    const std::int64_t C_next = part_begin(b + 1, tiled.grid, total);
    const co_rank_call curr = checked_co_rank(co_rank, C_curr, A.data(), m, B.data(), n, "A", "B");
    const co_rank_call next = checked_co_rank(co_rank, C_next, A.data(), m, B.data(), n, "A", "B");
    const std::int64_t A_curr = curr.usable(C_curr, m, n);
    const std::int64_t A_next = std::max(A_curr, next.usable(C_next, m, n));
    const std::int64_t B_curr = C_curr - A_curr;
    const std::int64_t B_next = std::max(B_curr, C_next - A_next);
    splits.blocks.push_back({C_curr, curr.faulted ? -1 : curr.i});
    std::printf("  block %lld: C[%lld, %lld) from A[%lld, %lld) and B[%lld, %lld)\n", static_cast<long long>(b),
                static_cast<long long>(C_curr), static_cast<long long>(C_next), static_cast<long long>(curr.i),
                static_cast<long long>(next.i), static_cast<long long>(C_curr - curr.i),
                static_cast<long long>(C_next - next.i));
    report(curr, C_curr, "    ");
    if (C_next == total) report(next, C_next, "    ");
    std::int64_t C_completed = 0;
    std::int64_t A_consumed = 0;
    for (int iteration = 0; C_completed < C_next - C_curr; ++iteration) {
      const std::int64_t B_consumed = C_completed - A_consumed;
      const std::int64_t A_tile = std::max<std::int64_t>(0, std::min<std::int64_t>(tile, (A_next - A_curr) - A_consumed));
      const std::int64_t B_tile = std::max<std::int64_t>(0, std::min<std::int64_t>(tile, (B_next - B_curr) - B_consumed));
      const std::int64_t C_tile = std::min<std::int64_t>({tile, (C_next - C_curr) - C_completed, A_tile + B_tile});
      if (C_tile <= 0) {
        std::printf("    tile %d: nothing left to load (the block's co-ranks above are wrong)\n", iteration);
        break;
      }
      const K* A_S = A.data() + A_curr + A_consumed;
      const K* B_S = B.data() + B_curr + B_consumed;
      std::printf("    tile %d: A_S = {%s}, B_S = {%s}, %lld outputs C[%lld, %lld)\n", iteration,
                  slice(A_S, 0, A_tile).c_str(), slice(B_S, 0, B_tile).c_str(), static_cast<long long>(C_tile),
                  static_cast<long long>(C_curr + C_completed), static_cast<long long>(C_curr + C_completed + C_tile));
      for (int t = 0; t < tiled.block; ++t) {
        const std::int64_t c_curr = part_begin(t, tiled.block, C_tile);
        const std::int64_t c_next = part_begin(t + 1, tiled.block, C_tile);
        const co_rank_call a_c = checked_co_rank(co_rank, c_curr, A_S, A_tile, B_S, B_tile, "A_S", "B_S");
        const co_rank_call a_n = checked_co_rank(co_rank, c_next, A_S, A_tile, B_S, B_tile, "A_S", "B_S");
        const std::int64_t a_curr = a_c.usable(c_curr, A_tile, B_tile);
        const std::int64_t a_next = std::max(a_curr, a_n.usable(c_next, A_tile, B_tile));
        std::printf("      thread %d: c %lld..%lld  a %lld..%lld  b %lld..%lld  -> {%s | %s}\n", t,
                    static_cast<long long>(c_curr), static_cast<long long>(c_next), static_cast<long long>(a_c.i),
                    static_cast<long long>(a_n.i), static_cast<long long>(c_curr - a_c.i),
                    static_cast<long long>(c_next - a_n.i), slice(A_S, a_curr, a_next).c_str(),
                    slice(B_S, c_curr - a_curr, std::max(c_curr - a_curr, c_next - a_next)).c_str());
        report(a_c, c_curr, "        ");
        if (c_next == C_tile) report(a_n, c_next, "        ");
      }
      const co_rank_call used = checked_co_rank(co_rank, C_tile, A_S, A_tile, B_S, B_tile, "A_S", "B_S");
      const std::int64_t A_used = used.usable(C_tile, A_tile, B_tile);
      std::printf("      consumed: %lld of A_S, %lld of B_S (co_rank(%lld) over the %lld + %lld filled slots, M6)\n",
                  static_cast<long long>(used.i), static_cast<long long>(C_tile - used.i),
                  static_cast<long long>(C_tile), static_cast<long long>(A_tile), static_cast<long long>(B_tile));
      report(used, C_tile, "        ");
      C_completed += C_tile;
      A_consumed += A_used;
    }
  }
  if (problems > 0) {
    std::printf("\n!! %d co-rank%s of the %s track above %s wrong (marked !!)\n", problems, problems == 1 ? "" : "s",
                track, problems == 1 ? "is" : "are");
  }
  std::printf("\n");
  return splits;
}

template <class K>
void write_merge_path_svg(const std::vector<K>& A, const std::vector<K>& B, const trace_splits& splits,
                          const config& basic, const config& tiled, const char* track, const std::string& file) {
  if constexpr (std::is_floating_point_v<K>) {
    throw std::logic_error("the merge-path picture draws integer keys");
  } else {
    const auto m = static_cast<std::int64_t>(A.size());
    const auto n = static_cast<std::int64_t>(B.size());
    wb::svg::merge_path_input picture;
    picture.A.assign(A.begin(), A.end());
    picture.B.assign(B.begin(), B.end());
    // A co-rank outside 0 <= i <= m, 0 <= k - i <= n (or a call that read outside A or B) has
    // no grid point: it is drawn at the edge of the grid on its anti-diagonal, as a red cross.
    // One inside the grid but off the path is drawn, in red.
    const auto keep = [&](const std::vector<wb::svg::co_rank_split>& from, std::vector<wb::svg::co_rank_split>& to,
                          const char* who) {
      for (std::size_t at = 0; at < from.size(); ++at) {
        const auto [k, i] = from[at];
        if (i >= 0 && i <= m && k - i >= 0 && k - i <= n) {
          to.push_back(from[at]);
        } else {
          picture.out_of_range.push_back(from[at]);
          std::printf("merge path: %s %zu's co_rank(%lld) = %lld is outside the %lld x %lld grid: a red cross at its "
                      "edge\n",
                      who, at, static_cast<long long>(k), static_cast<long long>(i), static_cast<long long>(m),
                      static_cast<long long>(n));
        }
      }
    };
    keep(splits.threads, picture.thread_splits, "stage 2 thread");
    keep(splits.blocks, picture.block_splits, "stage 3 block");
    picture.caption = fmt::format("merge path, {} track's co_rank: dots = stage 2's {} threads, squares = stage 3's {} "
                                  "blocks",
                                  track, basic.grid * basic.block, tiled.grid);
    const std::string text = wb::svg::merge_path_svg(picture);
    std::ofstream out(file, std::ios::binary);
    if (!out || !out.write(text.data(), static_cast<std::streamsize>(text.size())) || !out.flush()) {
      throw std::runtime_error("--svg: cannot write " + file);
    }
    std::printf("merge path picture (PMPP Figs. 12.4-12.10): %s\n", file.c_str());
  }
}

template <class K>
void trace_merge(const std::vector<K>& A, const std::vector<K>& B, const config& requested, co_rank_fn<K> co_rank,
                 const char* track, const std::string& svg) {
  const auto m = static_cast<std::int64_t>(A.size());
  const auto n = static_cast<std::int64_t>(B.size());
  if (m + n > max_trace) {
    throw wb::usage_error(fmt::format("--trace prints every element: give at most {} in all (m + n = {})", max_trace, m + n));
  }
  if (!svg.empty() && (m > max_svg_side || n > max_svg_side)) {
    throw wb::usage_error(fmt::format("--svg draws one column per element of A and one row per element of B: give at "
                                      "most {} in each (m = {}, n = {})",
                                      max_svg_side, m, n));
  }
  const auto or_default = [](auto value, auto fallback) { return value > 0 ? value : fallback; };
  const config basic{or_default(requested.block, 4), 0, 0, or_default(requested.grid, std::int64_t{1})};
  const config tiled{or_default(requested.block, 2), or_default(requested.tile, 4), 0,
                     or_default(requested.grid, std::int64_t{2})};
  const trace_splits splits = print_trace<K>(A, B, basic, tiled, co_rank, track);
  if (!svg.empty()) write_merge_path_svg<K>(A, B, splits, basic, tiled, track, svg);
}

#define MERGE_INSTANTIATE(K)                                                                                    \
  template void trace_merge<K>(const std::vector<K>&, const std::vector<K>&, const config&, co_rank_fn<K>,      \
                               const char*, const std::string&);                                                \
  template trace_splits print_trace<K>(const std::vector<K>&, const std::vector<K>&, const config&,             \
                                       const config&, co_rank_fn<K>, const char*);                              \
  template void write_merge_path_svg<K>(const std::vector<K>&, const std::vector<K>&, const trace_splits&,      \
                                        const config&, const config&, const char*, const std::string&);
MERGE_FOR_EACH_KEY(MERGE_INSTANTIATE)
#undef MERGE_INSTANTIATE

}  // namespace merge
