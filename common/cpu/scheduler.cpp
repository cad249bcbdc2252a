// The cpu backend's engine: every thread of a block is a fiber (Boost.Context) on one OS
// thread. The scheduler works in rounds: it lists the runnable threads in the order the
// options ask for (in order, reverse, seeded shuffle), and each runs until it reaches a
// synchronisation point (__syncthreads, a warp collective) or returns, then hands control
// straight to the next thread of the round.
//
//   __syncthreads  releases when every thread of the block that has not exited waits at a
//                  barrier; threads waiting at different barrier call sites are an error
//                  (barrier divergence), reported with the block, threads and lines.
//   warp collective completes when every lane named in the mask has arrived at a collective
//                  of the same kind with the same mask; the last lane to arrive computes every
//                  lane's result. A lane in the mask that has exited, does not exist, or waits
//                  somewhere else is an error, not a hang.
#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "internal.hpp"
#include "race.hpp"
#include "wb/cpu/emulation.hpp"

namespace wb::cpu {
namespace ctx = boost::context;

namespace {

// --- options ---------------------------------------------------------------------------------

schedule_order parse_order(const std::string& spec, std::uint64_t& seed) {
  if (spec == "in-order" || spec == "in_order" || spec.empty()) return schedule_order::in_order;
  if (spec == "reverse") return schedule_order::reverse;
  if (spec.rfind("shuffle", 0) == 0) {
    if (spec.size() > 7) {
      if (spec[7] != ':') throw std::invalid_argument("WB_CPU_ORDER: expected shuffle or shuffle:SEED, got '" + spec + "'");
      char* end = nullptr;
      seed = std::strtoull(spec.c_str() + 8, &end, 10);
      if (end == spec.c_str() + 8 || *end != '\0') {
        throw std::invalid_argument("WB_CPU_ORDER: bad shuffle seed in '" + spec + "'");
      }
    }
    return schedule_order::shuffle;
  }
  throw std::invalid_argument("WB_CPU_ORDER: expected in-order, reverse or shuffle[:SEED], got '" + spec + "'");
}

block_order parse_block_order(const std::string& spec) {
  if (spec == "in-order" || spec == "in_order" || spec.empty()) return block_order::in_order;
  if (spec == "reverse") return block_order::reverse;
  throw std::invalid_argument("WB_CPU_BLOCK_ORDER: expected in-order or reverse, got '" + spec + "'");
}

long env_long(const char* name, long fallback, long lo, long hi) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  long v = std::strtol(text, &end, 10);
  if (*end != '\0' || v < lo || v > hi) {
    throw std::invalid_argument(std::string(name) + ": expected a number from " + std::to_string(lo) + " to " +
                                std::to_string(hi) + ", got '" + text + "'");
  }
  return v;
}

options options_from_environment() {
  options o;
  if (const char* order = std::getenv("WB_CPU_ORDER")) o.order = parse_order(order, o.shuffle_seed);
  if (const char* order = std::getenv("WB_CPU_BLOCK_ORDER")) o.blocks = parse_block_order(order);
  o.host_threads = static_cast<int>(env_long("WB_CPU_THREADS", 1, 1, 256));
  o.stack_bytes = static_cast<std::size_t>(env_long("WB_CPU_STACK_KB", 256, 16, 65536)) * 1024;
  o.race_check = env_long("WB_CPU_RACECHECK", 0, 0, 1) != 0;
  return o;
}

// --- per-thread and per-block state -------------------------------------------------------

enum class thread_state { ready, at_barrier, at_warp_op, exited };

struct kernel_fault {
  std::string message;
};

struct emulated_thread {
  uint3 index{};
  unsigned linear = 0;
  thread_state state = thread_state::ready;
  ctx::fiber fiber;  // this thread's context while it is suspended
  std::source_location site;
  bool waited_for_previous_grid = false;  // grid_dependency_wait
  // cp.async: the copies issued and not yet landed, with their group (no_group: not committed)
  struct pending_copy {
    async_copy copy;
    std::uint64_t group;
  };
  static constexpr std::uint64_t no_group = ~std::uint64_t{0};
  std::deque<pending_copy> async_copies;
  std::uint64_t async_groups = 0;  // groups committed so far
  // barrier
  int barrier_kind = 0;
  int predicate = 0;
  int barrier_result = 0;
  // warp collective
  warp_op op = warp_op::sync;
  unsigned mask = 0;
  std::uint64_t value = 0;
  int arg = 0;
  int width = 32;
  std::uint64_t result = 0;
};

struct block_state {
  uint3 index{};
  dim3 dim;
  dim3 grid;
  unsigned count = 0;
  std::vector<emulated_thread> threads;
  std::vector<unsigned char> shared_storage;
  unsigned char* dynamic_shared = nullptr;
  std::string fault;
  // The current round: runnable threads in the order the options ask for. A thread that
  // suspends hands control straight to the next one (one context switch, not two); the
  // last one of the round hands it back to the scheduler.
  std::vector<unsigned> order;
  std::size_t cursor = 0;
  ctx::fiber scheduler;  // the scheduler's context while the round runs
};

// Fiber stacks are allocated once per OS thread and reused by every block it runs.
class stack_pool {
 public:
  explicit stack_pool(std::size_t bytes) : allocator_(bytes), bytes_(bytes) {}
  stack_pool(const stack_pool&) = delete;
  stack_pool& operator=(const stack_pool&) = delete;
  ~stack_pool() {
    for (auto& s : free_) allocator_.deallocate(s);
  }
  std::size_t stack_bytes() const { return bytes_; }
  ctx::stack_context allocate() {
    if (free_.empty()) return allocator_.allocate();
    ctx::stack_context s = free_.back();
    free_.pop_back();
    return s;
  }
  void deallocate(ctx::stack_context& s) noexcept { free_.push_back(s); }

 private:
  ctx::protected_fixedsize_stack allocator_;
  std::size_t bytes_;
  std::vector<ctx::stack_context> free_;
};

thread_local ctx::stack_context t_last_stack;  // the stack the last fiber made got

struct pooled_stack {
  stack_pool* pool;
  ctx::stack_context allocate() { return t_last_stack = pool->allocate(); }
  void deallocate(ctx::stack_context& s) noexcept { pool->deallocate(s); }
};

thread_local block_state* t_block = nullptr;
thread_local emulated_thread* t_thread = nullptr;
thread_local bool t_race_check = false;  // the launch running on this OS thread is race-checked

// Test mutations (set_mutation) and the synchronisation sites reached (sync_sites).
mutation g_mutation;
bool g_recording_sites = false;
std::vector<std::string> g_sites;
std::mutex g_sites_mutex;

std::string site_key(const std::source_location& s) {
  std::string file = s.file_name();
  if (const auto slash = file.find_last_of('/'); slash != std::string::npos) file = file.substr(slash + 1);
  return file + ":" + std::to_string(s.line()) + ":" + std::to_string(s.column());
}

// Records a __syncthreads()/__syncwarp() call site; true when the mutation skips it.
bool skip_sync(const std::source_location& site) {
  if (!g_recording_sites && g_mutation.skip_sync.empty()) return false;
  const std::string key = site_key(site);
  if (g_recording_sites) {
    std::lock_guard lock(g_sites_mutex);
    if (std::find(g_sites.begin(), g_sites.end(), key) == g_sites.end()) g_sites.push_back(key);
  }
  return key == g_mutation.skip_sync;
}

// The fiber of `t` runs from now on (null: the scheduler).
void set_current(emulated_thread* t) {
  t_thread = t;
  if (t_race_check) race::switch_to(t != nullptr ? static_cast<int>(t->linear) : -1);
}

// A race the check found in the running block ends it, at a point where a fault may be thrown.
void throw_if_race();
thread_local std::unique_ptr<stack_pool> t_stacks;
thread_local std::unique_ptr<block_state> t_block_storage;

emulated_thread& current_thread(const char* what) {
  if (t_thread == nullptr) {
    throw std::logic_error(std::string(what) + " used outside a kernel (cpu backend)");
  }
  return *t_thread;
}

// --- messages -------------------------------------------------------------------------------

std::string site_text(const std::source_location& s) {
  std::string file = s.file_name();
  auto slash = file.find_last_of('/');
  if (slash != std::string::npos) file = file.substr(slash + 1);
  return file + ":" + std::to_string(s.line());
}

std::string block_text(const block_state& b) {
  return "block (" + std::to_string(b.index.x) + "," + std::to_string(b.index.y) + "," + std::to_string(b.index.z) + ")";
}

const char* op_name(warp_op op) {
  switch (op) {
    case warp_op::sync: return "__syncwarp";
    case warp_op::shfl: return "__shfl_sync";
    case warp_op::shfl_up: return "__shfl_up_sync";
    case warp_op::shfl_down: return "__shfl_down_sync";
    case warp_op::shfl_xor: return "__shfl_xor_sync";
    case warp_op::ballot: return "__ballot_sync";
    case warp_op::any: return "__any_sync";
    case warp_op::all: return "__all_sync";
    case warp_op::match_any: return "__match_any_sync";
    case warp_op::reduce_add:
    case warp_op::reduce_add_signed: return "__reduce_add_sync";
    case warp_op::reduce_min:
    case warp_op::reduce_min_signed: return "__reduce_min_sync";
    case warp_op::reduce_max:
    case warp_op::reduce_max_signed: return "__reduce_max_sync";
    case warp_op::reduce_and: return "__reduce_and_sync";
    case warp_op::reduce_or: return "__reduce_or_sync";
    case warp_op::reduce_xor: return "__reduce_xor_sync";
  }
  return "warp collective";
}

const char* barrier_name(int kind) {
  switch (kind) {
    case 1: return "__syncthreads_count";
    case 2: return "__syncthreads_and";
    case 3: return "__syncthreads_or";
    default: return "__syncthreads";
  }
}

std::string hex(unsigned v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

// What a thread is doing, for messages: equal descriptions are grouped into ranges.
std::string describe(const emulated_thread& t) {
  switch (t.state) {
    case thread_state::ready: return "runnable";
    case thread_state::exited: return "exited";
    case thread_state::at_barrier: return std::string("wait at ") + barrier_name(t.barrier_kind) + " (" + site_text(t.site) + ")";
    case thread_state::at_warp_op:
      return std::string("wait at ") + op_name(t.op) + " (" + site_text(t.site) + ", mask " + hex(t.mask) + ")";
  }
  return "?";
}

std::string describe_block(const block_state& b) {
  std::string out;
  unsigned i = 0;
  while (i < b.count) {
    std::string what = describe(b.threads[i]);
    unsigned j = i;
    while (j + 1 < b.count && describe(b.threads[j + 1]) == what) ++j;
    out += j > i ? "\n  threads " : "\n  thread ";
    out += std::to_string(i);
    if (j > i) {
      out += '-';
      out += std::to_string(j);
    }
    out += ": ";
    out += what;
    i = j + 1;
  }
  return out;
}

[[noreturn]] void throw_fault(const std::string& message) { throw kernel_fault{message}; }

// --- running a thread ------------------------------------------------------------------------

// The next thread of the round that is still runnable, or null when the round is over.
emulated_thread* next_in_round(block_state& b) {
  while (b.cursor < b.order.size()) {
    emulated_thread& t = b.threads[b.order[b.cursor++]];
    if (t.state == thread_state::ready) return &t;
  }
  return nullptr;
}

// Switches to `target`, leaving the current context in `*save_to` (done on top of the target's
// context, so the target need not know who resumed it).
void transfer(ctx::fiber& target, ctx::fiber* save_to) {
  std::move(target).resume_with([save_to](ctx::fiber&& from) {
    *save_to = std::move(from);
    return ctx::fiber{};
  });
}

// Called from inside a fiber: run the rest of the round (or the scheduler) until someone
// resumes us.
void suspend(emulated_thread& t) {
  block_state& b = *t_block;
  emulated_thread* next = b.fault.empty() ? next_in_round(b) : nullptr;
  set_current(next);
  transfer(next != nullptr ? next->fiber : b.scheduler, &t.fiber);
  set_current(&t);
}

// --- warp collectives --------------------------------------------------------------------------

bool same_family(warp_op a, warp_op b) { return a == b; }

void complete_warp_op(block_state& b, unsigned warp_base, unsigned mask) {
  if (t_race_check) race::warp_synced(warp_base, mask);
  emulated_thread* lanes[32] = {};
  for (unsigned l = 0; l < 32; ++l) {
    if (mask >> l & 1u) lanes[l] = &b.threads[warp_base + l];
  }
  const emulated_thread& first = *lanes[std::countr_zero(mask)];
  const warp_op op = first.op;
  constexpr std::uint64_t poison = 0xA5A5A5A5A5A5A5A5ull;

  std::uint64_t ballot = 0;
  std::uint32_t sum = 0, and_all = ~0u, or_all = 0, xor_all = 0;
  std::uint32_t umin = ~0u, umax = 0;
  std::int32_t smin = INT32_MAX, smax = INT32_MIN;
  for (unsigned l = 0; l < 32; ++l) {
    if (lanes[l] == nullptr) continue;
    const std::uint64_t v = lanes[l]->value;
    const auto v32 = static_cast<std::uint32_t>(v);
    if (v != 0) ballot |= 1ull << l;
    sum += v32;
    and_all &= v32;
    or_all |= v32;
    xor_all ^= v32;
    umin = std::min(umin, v32);
    umax = std::max(umax, v32);
    smin = std::min(smin, static_cast<std::int32_t>(v32));
    smax = std::max(smax, static_cast<std::int32_t>(v32));
  }

  for (unsigned l = 0; l < 32; ++l) {
    emulated_thread* t = lanes[l];
    if (t == nullptr) continue;
    const unsigned w = static_cast<unsigned>(t->width);
    const unsigned segment = l & ~(w - 1);
    auto value_of = [&](unsigned src) -> std::uint64_t {
      // Reading from a lane outside the mask is undefined in CUDA: hand back poison.
      return (mask >> src & 1u) ? lanes[src]->value : poison;
    };
    std::uint64_t r = 0;
    switch (op) {
      case warp_op::sync: r = 0; break;
      case warp_op::shfl: r = value_of(segment + (static_cast<unsigned>(t->arg) & (w - 1))); break;
      case warp_op::shfl_up: {
        const unsigned d = static_cast<unsigned>(t->arg);
        r = (l - segment >= d) ? value_of(l - d) : t->value;
        break;
      }
      case warp_op::shfl_down: {
        const unsigned d = static_cast<unsigned>(t->arg);
        r = (l - segment + d < w) ? value_of(l + d) : t->value;
        break;
      }
      case warp_op::shfl_xor: {
        const unsigned src = l ^ static_cast<unsigned>(t->arg & 31);
        r = (src < segment + w) ? value_of(src) : t->value;
        break;
      }
      case warp_op::ballot: r = ballot; break;
      case warp_op::any: r = ballot != 0; break;
      case warp_op::all: r = ballot == mask; break;
      case warp_op::match_any: {
        std::uint64_t same = 0;
        for (unsigned k = 0; k < 32; ++k) {
          if (lanes[k] != nullptr && lanes[k]->value == t->value) same |= 1ull << k;
        }
        r = same;
        break;
      }
      case warp_op::reduce_add:
      case warp_op::reduce_add_signed: r = sum; break;
      case warp_op::reduce_min: r = umin; break;
      case warp_op::reduce_max: r = umax; break;
      case warp_op::reduce_min_signed: r = static_cast<std::uint32_t>(smin); break;
      case warp_op::reduce_max_signed: r = static_cast<std::uint32_t>(smax); break;
      case warp_op::reduce_and: r = and_all; break;
      case warp_op::reduce_or: r = or_all; break;
      case warp_op::reduce_xor: r = xor_all; break;
    }
    t->result = r;
    t->state = thread_state::ready;
  }
}

// --- barriers --------------------------------------------------------------------------------

// Called when no thread is runnable. Releases the block barrier if every thread that has not
// exited waits at one barrier; otherwise records why the block cannot go on.
bool release_barrier(block_state& b) {
  const emulated_thread* first_waiter = nullptr;
  bool divergent = false;
  bool stuck_in_warp_op = false;
  for (unsigned i = 0; i < b.count; ++i) {
    const emulated_thread& t = b.threads[i];
    if (t.state == thread_state::at_warp_op) stuck_in_warp_op = true;
    if (t.state != thread_state::at_barrier) continue;
    if (first_waiter == nullptr) {
      first_waiter = &t;
    } else if (t.barrier_kind != first_waiter->barrier_kind || t.site.line() != first_waiter->site.line() ||
               t.site.column() != first_waiter->site.column() ||
               (t.site.file_name() != first_waiter->site.file_name() &&
                std::strcmp(t.site.file_name(), first_waiter->site.file_name()) != 0)) {
      divergent = true;
    }
  }
  if (stuck_in_warp_op) {
    b.fault = "deadlock in " + block_text(b) +
              ": a warp collective waits for lanes that will never arrive (they wait elsewhere or exited)" +
              describe_block(b);
    return false;
  }
  if (first_waiter == nullptr) return false;  // nothing waits: the block is done
  if (divergent) {
    b.fault = "barrier divergence in " + block_text(b) +
              ": threads wait at different barriers (every thread that has not exited must reach the same "
              "__syncthreads)" +
              describe_block(b);
    return false;
  }
  int count = 0, waiting = 0;
  for (unsigned i = 0; i < b.count; ++i) {
    const emulated_thread& t = b.threads[i];
    if (t.state != thread_state::at_barrier) continue;
    ++waiting;
    count += t.predicate != 0;
  }
  int result = 0;
  switch (first_waiter->barrier_kind) {
    case 1: result = count; break;
    case 2: result = count == waiting; break;
    case 3: result = count > 0; break;
    default: result = 0;
  }
  for (unsigned i = 0; i < b.count; ++i) {
    emulated_thread& t = b.threads[i];
    if (t.state != thread_state::at_barrier) continue;
    t.barrier_result = result;
    t.state = thread_state::ready;
  }
  if (t_race_check) race::barrier_released();
  return true;
}

// --- one block ---------------------------------------------------------------------------------

std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void run_block(block_state& b, const std::function<void()>& body, const options& opt, std::uint64_t block_linear) {
  if (!t_stacks || t_stacks->stack_bytes() != opt.stack_bytes) t_stacks = std::make_unique<stack_pool>(opt.stack_bytes);
  b.fault.clear();
  b.threads.resize(b.count);
  if (t_race_check) race::block_begin(b.index, b.count, b.dynamic_shared, b.shared_storage.size());
  for (unsigned i = 0; i < b.count; ++i) {
    emulated_thread& t = b.threads[i];
    t = emulated_thread{};
    t.linear = i;
    t.index = uint3{i % b.dim.x, (i / b.dim.x) % b.dim.y, i / (b.dim.x * b.dim.y)};
    t.fiber = ctx::fiber(std::allocator_arg, pooled_stack{t_stacks.get()}, [&b, &t, &body](ctx::fiber&&) {
      try {
        body();
        throw_if_race();
      } catch (const ctx::detail::forced_unwind&) {
        throw;
      } catch (const kernel_fault& f) {
        if (b.fault.empty()) b.fault = f.message;
      } catch (const std::exception& e) {
        if (b.fault.empty()) b.fault = "exception thrown in a kernel, " + block_text(b) + " thread " + std::to_string(t.linear) + ": " + e.what();
      }
      t.state = thread_state::exited;
      // Straight on to the next thread of the round; back to the scheduler after a fault.
      emulated_thread* next = b.fault.empty() ? next_in_round(b) : nullptr;
      set_current(next);
      return std::move(next != nullptr ? next->fiber : b.scheduler);
    });
    if (t_race_check) {
      race::set_stack(i, static_cast<char*>(t_last_stack.sp) - t_last_stack.size, t_last_stack.sp);
    }
  }

  std::uint64_t rng = opt.shuffle_seed * 0x2545F4914F6CDD1Dull + block_linear;
  t_block = &b;
  for (;;) {
    b.order.clear();
    for (unsigned i = 0; i < b.count; ++i) {
      if (b.threads[i].state == thread_state::ready) b.order.push_back(i);
    }
    if (b.order.empty()) {
      if (!b.fault.empty() || !release_barrier(b)) break;
      continue;
    }
    if (opt.order == schedule_order::reverse) {
      std::reverse(b.order.begin(), b.order.end());
    } else if (opt.order == schedule_order::shuffle) {
      for (std::size_t i = b.order.size(); i > 1; --i) std::swap(b.order[i - 1], b.order[splitmix(rng) % i]);
    }
    b.cursor = 0;
    emulated_thread* first = next_in_round(b);
    set_current(first);
    transfer(first->fiber, &b.scheduler);  // returns when the round is over, or after a fault
    set_current(nullptr);
    if (!b.fault.empty()) break;
  }
  if (b.fault.empty() && t_race_check && race::found()) b.fault = race::take_report();
  t_block = nullptr;
  // Unwind whatever is still suspended (only after a fault): destroying a fiber unwinds its stack.
  for (unsigned i = 0; i < b.count; ++i) b.threads[i].fiber = ctx::fiber{};
}

}  // namespace

// --- public interface ----------------------------------------------------------------------------

options& current_options() {
  static options o = options_from_environment();
  return o;
}

void set_schedule_order(const std::string& spec) {
  std::uint64_t seed = current_options().shuffle_seed;
  current_options().order = parse_order(spec, seed);
  current_options().shuffle_seed = seed;
}

std::string schedule_order_name() {
  switch (current_options().order) {
    case schedule_order::in_order: return "in-order";
    case schedule_order::reverse: return "reverse";
    case schedule_order::shuffle: return "shuffle:" + std::to_string(current_options().shuffle_seed);
  }
  return "?";
}

void set_block_order(const std::string& spec) { current_options().blocks = parse_block_order(spec); }

std::string block_order_name() {
  return current_options().blocks == block_order::reverse ? "reverse" : "in-order";
}

const uint3& thread_index() { return current_thread("threadIdx").index; }
const uint3& block_index() {
  current_thread("blockIdx");
  return t_block->index;
}
const dim3& block_dim() {
  current_thread("blockDim");
  return t_block->dim;
}
const dim3& grid_dim() {
  current_thread("gridDim");
  return t_block->grid;
}
unsigned char* dynamic_shared_base() {
  current_thread("dynamic shared memory");
  return t_block->dynamic_shared;
}

void fault(const std::string& message) {
  if (t_thread == nullptr) throw std::runtime_error(message);
  throw_fault(message);
}

void grid_dependency_wait() {
  if (t_thread != nullptr) t_thread->waited_for_previous_grid = true;
}
bool grid_dependency_waited() { return t_thread != nullptr && t_thread->waited_for_previous_grid; }

namespace {
// The calling thread's cp.async state (outside a kernel, one of the host thread's own).
emulated_thread& async_owner() {
  static thread_local emulated_thread host;
  return t_thread != nullptr ? *t_thread : host;
}
}  // namespace

void async_copy_issue(const async_copy& copy) {
  async_owner().async_copies.push_back({copy, emulated_thread::no_group});
}
void async_copy_commit() {
  emulated_thread& t = async_owner();
  for (auto& p : t.async_copies) {
    if (p.group == emulated_thread::no_group) p.group = t.async_groups;
  }
  ++t.async_groups;
}
bool async_copy_due(int keep, async_copy* out) {
  emulated_thread& t = async_owner();
  if (t.async_copies.empty()) return false;
  const auto& first = t.async_copies.front();
  // Groups g with g + keep < committed are complete after cp.async.wait_group keep.
  if (first.group == emulated_thread::no_group || first.group + static_cast<std::uint64_t>(keep) >= t.async_groups) {
    return false;
  }
  *out = first.copy;
  t.async_copies.pop_front();
  return true;
}

void set_race_check(bool on) { current_options().race_check = on; }
bool race_check() { return current_options().race_check; }

void set_mutation(const mutation& m) { g_mutation = m; }
std::vector<std::string> sync_sites() {
  std::lock_guard lock(g_sites_mutex);
  g_recording_sites = false;
  return g_sites;
}
void clear_sync_sites() {
  std::lock_guard lock(g_sites_mutex);
  g_sites.clear();
  g_recording_sites = true;
}
bool detail::plain_atomics() { return g_mutation.plain_atomics; }

void thread_fence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (t_race_check && t_thread != nullptr && !g_mutation.no_fences) race::fence();
}

namespace {
void throw_if_race() {
  if (t_race_check && race::found()) throw_fault(race::take_report());
}
}  // namespace

int block_barrier(int kind, int predicate, std::source_location site) {
  emulated_thread& t = current_thread(barrier_name(kind));
  throw_if_race();
  if (kind == 0 && skip_sync(site)) return 0;
  t.state = thread_state::at_barrier;
  t.site = site;
  t.barrier_kind = kind;
  t.predicate = predicate;
  suspend(t);
  return t.barrier_result;
}

std::uint64_t warp_collective(warp_op op, unsigned mask, std::uint64_t value, int arg, int width,
                              std::source_location site) {
  emulated_thread& t = current_thread(op_name(op));
  throw_if_race();
  if (op == warp_op::sync && skip_sync(site)) return 0;
  block_state& b = *t_block;
  const unsigned lane = t.linear % 32;
  const unsigned warp_base = t.linear - lane;
  const unsigned lanes_in_warp = std::min(32u, b.count - warp_base);
  const unsigned existing = lanes_in_warp == 32 ? ~0u : (1u << lanes_in_warp) - 1;
  // Built only when there is something to report: collectives are on the hot path.
  auto where = [&] {
    return std::string(op_name(op)) + " at " + site_text(site) + " in " + block_text(b) + ", thread " +
           std::to_string(t.linear);
  };
  if (!(mask >> lane & 1u)) throw_fault(where() + ": the mask " + hex(mask) + " does not include the calling lane " + std::to_string(lane));
  if (mask & ~existing) {
    throw_fault(where() + ": the mask " + hex(mask) + " names lanes that do not exist (this warp has only " +
          std::to_string(lanes_in_warp) + " threads)");
  }
  if (width < 1 || width > 32 || (width & (width - 1)) != 0) {
    throw_fault(where() + ": width " + std::to_string(width) + " is not a power of two from 1 to 32");
  }
  t.op = op;
  t.mask = mask;
  t.value = value;
  t.arg = arg;
  t.width = width;
  t.site = site;
  t.state = thread_state::at_warp_op;

  bool all_arrived = true;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(mask >> l & 1u)) continue;
    const emulated_thread& other = b.threads[warp_base + l];
    if (other.state == thread_state::exited) {
      throw_fault(where() + ": lane " + std::to_string(l) + " named in the mask " + hex(mask) + " has exited");
    }
    if (other.state != thread_state::at_warp_op) {
      all_arrived = false;
      continue;
    }
    if (other.mask != mask || !same_family(other.op, op)) {
      throw_fault(where() + " (mask " + hex(mask) + ") meets lane " + std::to_string(l) + " waiting at " + op_name(other.op) +
            " at " + site_text(other.site) + " with mask " + hex(other.mask) +
            ": every lane named in the mask must call the same collective with the same mask");
    }
  }
  if (all_arrived) {
    complete_warp_op(b, warp_base, mask);
  } else {
    suspend(t);
  }
  return t.result;
}

unsigned active_mask() {
  emulated_thread& t = current_thread("__activemask");
  block_state& b = *t_block;
  const unsigned warp_base = t.linear - t.linear % 32;
  unsigned mask = 0;
  for (unsigned l = 0; l < 32 && warp_base + l < b.count; ++l) {
    if (b.threads[warp_base + l].state != thread_state::exited) mask |= 1u << l;
  }
  return mask;
}

void launch_kernel(dim3 grid, dim3 block, std::size_t dynamic_shared_bytes, const std::function<void()>& body) {
  const options& opt = current_options();
  if (t_thread != nullptr) {
    throw_fault("a kernel launched another kernel: dynamic parallelism is not emulated by the cpu backend");
  }
  const std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
  if (threads == 0 || threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 64) {
    detail::set_last_error(cudaErrorInvalidConfiguration,
                           "invalid configuration argument: block (" + std::to_string(block.x) + "," +
                               std::to_string(block.y) + "," + std::to_string(block.z) + ") has " +
                               std::to_string(threads) + " threads; a block holds 1 to 1024 (z at most 64)");
    return;
  }
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535) {
    detail::set_last_error(cudaErrorInvalidConfiguration,
                           "invalid configuration argument: grid (" + std::to_string(grid.x) + "," +
                               std::to_string(grid.y) + "," + std::to_string(grid.z) +
                               ") is empty or too large (x up to 2^31-1, y and z up to 65535)");
    return;
  }
  if (dynamic_shared_bytes > opt.max_dynamic_shared) {
    detail::set_last_error(cudaErrorInvalidValue,
                           "invalid argument: " + std::to_string(dynamic_shared_bytes) +
                               " bytes of dynamic shared memory requested; the limit per block is " +
                               std::to_string(opt.max_dynamic_shared));
    return;
  }
  const std::uint64_t blocks = std::uint64_t{grid.x} * grid.y * grid.z;

  auto run_range = [&](std::atomic<std::uint64_t>& next, std::atomic<bool>& failed, std::string& failure,
                       std::mutex& failure_mutex) {
    if (!t_block_storage) t_block_storage = std::make_unique<block_state>();
    block_state& b = *t_block_storage;
    b.dim = block;
    b.grid = grid;
    b.count = static_cast<unsigned>(threads);
    // 16-byte aligned dynamic shared memory, poisoned afresh for every block.
    b.shared_storage.resize(dynamic_shared_bytes + 16);
    auto base = reinterpret_cast<std::uintptr_t>(b.shared_storage.data());
    b.dynamic_shared = b.shared_storage.data() + ((16 - base % 16) % 16);
    for (std::uint64_t k = next++; k < blocks && !failed; k = next++) {
      // The k-th block to start: blockIdx order, or the last block first.
      const std::uint64_t id = opt.blocks == block_order::reverse ? blocks - 1 - k : k;
      b.index = uint3{static_cast<unsigned>(id % grid.x), static_cast<unsigned>((id / grid.x) % grid.y),
                      static_cast<unsigned>(id / (std::uint64_t{grid.x} * grid.y))};
      std::memset(b.dynamic_shared, 0xA5, dynamic_shared_bytes);
      run_block(b, body, opt, id);
      if (!b.fault.empty()) {
        std::lock_guard lock(failure_mutex);
        if (!failed) failure = b.fault;
        failed = true;
      }
    }
  };

  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> failed{false};
  std::string failure;
  std::mutex failure_mutex;
  const int workers = static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(opt.host_threads), blocks));
  if (workers <= 1) {
    t_race_check = race::launch_begin(blocks);
    try {
      run_range(next, failed, failure, failure_mutex);
    } catch (...) {
      race::launch_end();
      t_race_check = false;
      throw;
    }
    race::launch_end();
    t_race_check = false;
  } else {
    std::vector<std::thread> pool;
    for (int w = 0; w < workers; ++w) {
      pool.emplace_back([&] { run_range(next, failed, failure, failure_mutex); });
    }
    for (auto& th : pool) th.join();
  }
  if (failed) detail::set_last_error(cudaErrorLaunchFailure, "kernel fault (cpu backend): " + failure);
}

}  // namespace wb::cpu
