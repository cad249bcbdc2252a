// The cpu backend's race check: a happens-before race detector for kernels, written for the
// emulator's model of CUDA.
//
// On the cpu backend the .cu files are compiled with GCC's ThreadSanitizer instrumentation
// (-fsanitize=thread at compile time only): every load and store of kernel code calls
// __tsan_read4(address), __tsan_write8(...), __tsan_volatile_read4(...), every atomic is a
// call __tsan_atomic32_fetch_add(...), and so on. This file defines those entry points (no
// ThreadSanitizer runtime is linked): while a checked launch runs they follow each access of
// each CUDA thread, and otherwise they only do what the instruction would.
//
// What orders two accesses of different threads (happens-before):
//   - a __syncthreads() of their block between them (the block's barrier interval, `epoch`);
//   - a warp collective (__syncwarp, a shuffle, a vote) that both lanes took part in, between
//     them (a 32-entry vector clock per lane, reset at every barrier);
//   - across blocks, a flag: the writer stores it (volatile or atomic) after a __threadfence(),
//     the reader reads that value (volatile or atomic) and then runs a __threadfence(); an
//     atomic read-modify-write continues the writer's release (the last-block-done ticket).
// Two accesses to the same bytes, at least one a write, that nothing orders, are a data race,
// except where both are "marked": atomics anywhere, and volatile accesses of global memory
// (the flags of a domino chain or a look-back); in shared memory a volatile access is an
// ordinary one, as compute-sanitizer's racecheck sees it (the warp-synchronous tail of The
// CUDA Handbook). A plain read of a location an atomic wrote is allowed (a hash table reads a
// slot before it claims it), as is a marked read of a marked write. But the value such a read
// sees is not promised: a read of global memory whose newest (marked) write is not ordered
// before it is served the value an ordered read would see, once, before the newest one. A
// waiting loop goes round once more; code that reads a flag or a carry without waiting for
// it, or without the fences, computes with the old value, as it may on a GPU.
//
// A race is reported once, as a fault of the block at the thread's next barrier, warp
// collective or exit (the entry points may not throw). Shadow memory: one cell per 4 bytes of
// memory a launch touches (the last write and the reads since), cleared at every launch.
#include "race.hpp"

#include <dlfcn.h>
#include <elf.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "internal.hpp"

extern "C" char __executable_start;  // GNU ld: the start of the program's image

namespace wb::cpu::race {
namespace {

// ---------------------------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------------------------
enum kind_t : std::uint8_t { plain = 0, volatile_access = 1, atomic_access = 2 };
enum op_t : std::uint8_t { read_op, write_op, rmw_op };

// The last write to 4 bytes. epoch 0: none.
struct write_record {
  std::uint32_t epoch = 0;  // barrier interval (numbered per launch, blocks one after another)
  std::uint32_t pc = 0;     // where (offset from the program's start; 0: unknown)
  std::uint16_t tid = 0;    // thread of the block
  std::uint16_t clock = 0;  // the thread's warp clock at the access
  std::uint16_t fseq = 0;   // the thread's fences before it in its interval
  std::uint8_t kind = plain;
  std::uint8_t bytes = 0;   // which of the 4 bytes
};

// The reads of 4 bytes since the last write: one thread, several lanes of one warp, or more.
struct read_record {
  std::uint32_t epoch = 0;
  std::uint32_t pc = 0;     // the first reader's
  std::uint32_t lanes = 0;  // several lanes of one warp read: their lanes
  std::uint16_t tid = 0;    // the first reader
  std::uint16_t other = 0;  // another reader (for the report)
  std::uint16_t clock = 0;  // largest warp clock of the readers
  std::uint8_t kind = plain;  // the least marked of the reads
  std::uint8_t bytes = 0;
  bool many_warps = false;  // readers in several warps (or blocks)
};

struct cell {
  write_record w;
  read_record r;
};

constexpr unsigned page_shift = 12;
constexpr std::size_t cells_per_page = std::size_t{1} << (page_shift - 2);
struct page {
  bool global = false;  // an allocation's pages, guard pages included (else per block: shared memory)
  const unsigned char* begin = nullptr;  // global: the allocation's bytes; outside them, out of bounds
  const unsigned char* end = nullptr;
  cell cells[cells_per_page];
};
constexpr std::size_t shadow_budget_pages = (std::size_t{1} << 30) / sizeof(page);  // 1 GiB of shadow

// A release: a flag written by thread `tid` of the block that started at epoch `block`, in
// interval `epoch`, after a __threadfence(). It covers every access of that block in an
// earlier interval, and the writer's own accesses before its fence (fseq below `fseq`).
struct release {
  std::uint32_t block = 0;
  std::uint32_t epoch = 0;
  std::uint16_t tid = 0;
  std::uint16_t fseq = 0;
};
using release_list = std::vector<release>;
// What a read of a flag saw: the first `count` releases of a release sequence.
struct snapshot {
  std::shared_ptr<release_list> list;
  std::size_t count = 0;
};

// Releases acquired, the furthest one per releasing block, sorted by block.
struct knowledge {
  std::vector<release> items;
  void add(const release& r) {
    auto it = std::lower_bound(items.begin(), items.end(), r.block,
                               [](const release& a, std::uint32_t b) { return a.block < b; });
    if (it != items.end() && it->block == r.block) {
      if (r.epoch > it->epoch || (r.epoch == it->epoch && r.fseq > it->fseq)) *it = r;
    } else {
      items.insert(it, r);
    }
  }
  void add(const snapshot& s) {
    for (std::size_t i = 0; i < s.count; ++i) add((*s.list)[i]);
  }
  void add(const knowledge& k) {
    for (const auto& r : k.items) add(r);
  }
  // Does an access (epoch, tid, fseq) of an earlier block happen before what this knows?
  bool covers(std::uint32_t epoch, std::uint16_t tid, std::uint16_t fseq) const {
    auto it = std::upper_bound(items.begin(), items.end(), epoch,
                               [](std::uint32_t e, const release& a) { return e < a.block; });
    if (it == items.begin()) return false;
    --it;  // the known block that started last before the access: the access's block, if any
    return epoch < it->epoch || (epoch == it->epoch && tid == it->tid && fseq < it->fseq);
  }
};

// A marked write of global memory, kept so that an unordered read can be served an older value.
struct version {
  std::uint64_t index = 0;
  bool initial = true;  // the value before the launch's first marked write here
  std::uint32_t epoch = 0;
  std::uint16_t tid = 0;
  std::uint16_t clock = 0;
  std::uint16_t fseq = 0;
  std::array<unsigned char, 16> value{};
  snapshot sync;  // the releases a read of this value acquires (with a fence after it)
};
struct location {
  unsigned size = 0;
  std::shared_ptr<release_list> sequence;  // the release sequence headed by the last store
  std::vector<version> versions;            // the initial value and the last few writes, oldest first
  std::uint64_t next_index = 1;
};
constexpr std::size_t versions_kept = 5;

// ---------------------------------------------------------------------------------------------
// Threads, the block, the launch
// ---------------------------------------------------------------------------------------------
struct seen_entry {
  std::uintptr_t address;
  std::uint64_t seen;         // the newest version this thread has read
  std::uint64_t stale_for;    // it was served an older value while this version was the newest
};

struct thread_state {
  std::uint16_t tid = 0;
  std::uint16_t clock = 0;   // warp clock: collectives this lane took part in, this interval
  std::uint16_t fseq = 0;    // fences this interval
  bool fenced = false;       // a __threadfence() so far (its writes of flags are releases)
  std::uint32_t fence_epoch = 0;
  std::uint16_t fence_fseq = 0;
  std::array<std::uint16_t, 32> vc{};  // the clocks of the warp's lanes this lane knows
  std::uintptr_t stack_low = 0, stack_size = 0;
  std::vector<snapshot> pending;  // flags read, not yet followed by a fence
  knowledge acquired;
  std::vector<seen_entry> seen;
};

struct race_report {
  bool out_of_bounds = false;  // an access outside its allocation (no earlier access involved)
  bool global = false;
  std::uintptr_t address = 0;
  unsigned size = 0;
  // the earlier access
  std::uint32_t e_epoch = 0, e_pc = 0;
  std::uint16_t e_tid = 0;
  int e_other = -1;  // another reader
  op_t e_op = read_op;
  kind_t e_kind = plain;
  // the access that found it
  std::uint16_t c_tid = 0;
  std::uint32_t c_pc = 0;
  op_t c_op = read_op;
  kind_t c_kind = plain;
  uint3 c_block{};
};

struct detector {
  std::uint32_t next_epoch = 1;
  // blocks
  uint3 block_index{};
  std::uint32_t block_start = 0;  // the block's first interval
  std::uint32_t epoch = 0;        // its current interval
  knowledge block_acquired;
  std::vector<snapshot> block_pending;
  std::vector<thread_state> threads;
  unsigned thread_count = 0;
  std::vector<std::pair<std::uint32_t, uint3>> block_starts;  // for reports
  thread_state* current = nullptr;
  // shadow memory
  std::unordered_map<std::uintptr_t, page*> pages;
  std::vector<std::unique_ptr<page>> page_store;
  std::size_t pages_used = 0;
  bool over_budget = false;
  std::array<std::pair<std::uintptr_t, page*>, 16> page_cache{};
  std::unordered_map<std::uintptr_t, location> locations;
  // a value served stale, to put back at the next step of the program
  std::uintptr_t restore_address = 0;
  unsigned restore_size = 0;
  std::array<unsigned char, 16> restore_bytes{};
  // a volatile store whose value is known only after it (read at the next step)
  location* capture = nullptr;
  std::uintptr_t capture_address = 0;
  // a plain write racing with an earlier plain write: a race only if it changes the value
  std::uintptr_t pending_address = 0;
  unsigned pending_size = 0;
  std::array<unsigned char, 16> pending_before{};
  // the first race of the block
  bool found = false;
  race_report report;
};

thread_local detector* t_detector = nullptr;  // while a checked launch runs on this OS thread
thread_local std::unique_ptr<detector> t_storage;

std::uint32_t pc_offset(const void* pc) {
  const auto p = reinterpret_cast<std::uintptr_t>(pc);
  const auto base = reinterpret_cast<std::uintptr_t>(&__executable_start);
  if (p <= base || p - base >= 0xFFFFFFFFu) return 0;
  return static_cast<std::uint32_t>(p - base);
}

unsigned lane_of(unsigned tid) { return tid & 31u; }
unsigned warp_of(unsigned tid) { return tid >> 5; }

// The two marked kinds do not race with each other; in shared memory only atomics are marked.
bool marked(std::uint8_t kind, bool global) { return kind == atomic_access || (global && kind == volatile_access); }

// ---------------------------------------------------------------------------------------------
// Happens-before
// ---------------------------------------------------------------------------------------------
bool knows(const detector& d, const thread_state& t, std::uint32_t epoch, std::uint16_t tid, std::uint16_t fseq) {
  return t.acquired.covers(epoch, tid, fseq) || d.block_acquired.covers(epoch, tid, fseq);
}

// Does an access (epoch, tid, clock, fseq) happen before the running thread's next access?
bool ordered(const detector& d, const thread_state& t, std::uint32_t epoch, std::uint16_t tid, std::uint16_t clock,
             std::uint16_t fseq) {
  if (epoch >= d.block_start) {  // this block
    if (tid == t.tid || epoch < d.epoch) return true;
    return warp_of(tid) == warp_of(t.tid) && t.vc[lane_of(tid)] > clock;
  }
  return knows(d, t, epoch, tid, fseq);
}

bool ordered(const detector& d, const thread_state& t, const write_record& w) {
  return ordered(d, t, w.epoch, w.tid, w.clock, w.fseq);
}

bool ordered(const detector& d, const thread_state& t, const version& v) {
  return v.initial || ordered(d, t, v.epoch, v.tid, v.clock, v.fseq);
}

// Do all the reads of the record happen before the running thread's next access?
bool ordered(const detector& d, const thread_state& t, const read_record& r) {
  if (r.epoch < d.block_start) return knows(d, t, r.epoch, r.many_warps ? 0xFFFF : r.tid, 0);
  if (r.epoch < d.epoch) return true;
  if (r.many_warps) return false;
  if (r.lanes == 0) return ordered(d, t, r.epoch, r.tid, r.clock, 0);
  if (warp_of(r.tid) != warp_of(t.tid)) return false;
  for (unsigned lanes = r.lanes & ~(1u << lane_of(t.tid)); lanes != 0; lanes &= lanes - 1) {
    if (t.vc[static_cast<unsigned>(__builtin_ctz(lanes))] <= r.clock) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Shadow memory
// ---------------------------------------------------------------------------------------------
page* page_for(detector& d, std::uintptr_t address) {
  const std::uintptr_t key = address >> page_shift;
  auto& slot = d.page_cache[key & 15];
  if (slot.second != nullptr && slot.first == key) return slot.second;
  page* p = nullptr;
  if (auto it = d.pages.find(key); it != d.pages.end()) {
    p = it->second;
  } else {
    if (d.pages_used >= shadow_budget_pages) {
      if (!d.over_budget) {
        std::fprintf(stderr, "race check (cpu backend): this launch touched more memory than the check follows "
                             "(%zu MiB); the rest of it is not checked\n",
                     (shadow_budget_pages << page_shift) >> 20);
        d.over_budget = true;
      }
      return nullptr;
    }
    if (d.pages_used == d.page_store.size()) d.page_store.push_back(std::make_unique<page>());
    p = d.page_store[d.pages_used++].get();
    std::memset(static_cast<void*>(p->cells), 0, sizeof p->cells);
    detail::region r;
    p->global = detail::find_region(reinterpret_cast<const void*>(key << page_shift), &r);
    p->begin = p->global ? r.start : nullptr;
    p->end = p->global ? r.start + r.bytes : nullptr;
    d.pages.emplace(key, p);
  }
  slot = {key, p};
  return p;
}

// ---------------------------------------------------------------------------------------------
// Serving stale values, and the value of a volatile store
// ---------------------------------------------------------------------------------------------
void settle(detector& d) {
  if (d.restore_size != 0) {
    std::memcpy(reinterpret_cast<void*>(d.restore_address), d.restore_bytes.data(), d.restore_size);
    d.restore_size = 0;
  }
  if (d.capture != nullptr) {
    version& v = d.capture->versions.back();
    std::memcpy(v.value.data(), reinterpret_cast<const void*>(d.capture_address), d.capture->size);
    d.capture = nullptr;
  }
  if (d.pending_size != 0) {
    if (!d.found &&
        std::memcmp(d.pending_before.data(), reinterpret_cast<const void*>(d.pending_address), d.pending_size) != 0) {
      d.found = true;  // the report was filled in when the write was seen
    }
    d.pending_size = 0;
  }
}

seen_entry& seen_of(thread_state& t, std::uintptr_t address) {
  for (auto& s : t.seen) {
    if (s.address == address) return s;
  }
  t.seen.push_back({address, 0, 0});
  return t.seen.back();
}

void observe(thread_state& t, const snapshot& s) {
  if (s.list && s.count > 0) t.pending.push_back(s);
}

// A read of global memory at a location with marked writes: which value it sees.
void read_value(detector& d, thread_state& t, std::uintptr_t address, unsigned size, bool marked_read) {
  auto it = d.locations.find(address);
  if (it == d.locations.end() || it->second.size != size) return;
  location& loc = it->second;
  const version& newest = loc.versions.back();
  seen_entry& seen = seen_of(t, address);
  const version* chosen = &newest;
  if (!ordered(d, t, newest) && seen.stale_for != newest.index) {
    // The newest value this thread may be sure of: the last write ordered before it, but never
    // older than what it has read already.
    const version* candidate = nullptr;
    for (auto v = loc.versions.rbegin(); v != loc.versions.rend(); ++v) {
      if (v->index < seen.seen) break;
      if (ordered(d, t, *v)) {
        candidate = &*v;
        break;
      }
    }
    if (candidate != nullptr && candidate != &newest &&
        std::memcmp(candidate->value.data(), reinterpret_cast<const void*>(address), size) != 0) {
      chosen = candidate;
      seen.stale_for = newest.index;
      std::memcpy(d.restore_bytes.data(), reinterpret_cast<const void*>(address), size);
      d.restore_address = address;
      d.restore_size = size;
      std::memcpy(reinterpret_cast<void*>(address), candidate->value.data(), size);
    }
  }
  seen.seen = std::max(seen.seen, chosen->index);
  if (marked_read) observe(t, chosen->sync);
}

// A marked write of global memory: a new version, a release when the thread has fenced.
void write_value(detector& d, thread_state& t, std::uintptr_t address, unsigned size, op_t op,
                 const void* value_before, const void* value_after) {
  location& loc = d.locations[address];
  if (loc.size != size) {
    loc = location{};
    loc.size = size;
    version initial;
    initial.index = 0;
    std::memcpy(initial.value.data(), value_before != nullptr ? value_before : reinterpret_cast<const void*>(address),
                size);
    loc.versions.push_back(initial);
  }
  const bool releases = t.fenced;
  const release r{d.block_start, d.epoch, t.tid, t.fence_epoch == d.epoch ? t.fence_fseq : std::uint16_t{0}};
  if (op == rmw_op) {
    if (!loc.sequence) loc.sequence = std::make_shared<release_list>();
    if (releases) loc.sequence->push_back(r);
  } else {
    loc.sequence = std::make_shared<release_list>();
    if (releases) loc.sequence->push_back(r);
  }
  version v;
  v.index = loc.next_index++;
  v.initial = false;
  v.epoch = d.epoch;
  v.tid = t.tid;
  v.clock = t.clock;
  v.fseq = t.fseq;
  v.sync = {loc.sequence, loc.sequence->size()};
  if (loc.versions.size() == versions_kept) loc.versions.erase(loc.versions.begin() + 1);  // keep the initial
  loc.versions.push_back(v);
  if (value_after != nullptr) {
    std::memcpy(loc.versions.back().value.data(), value_after, size);
  } else {  // a volatile store: its value is in memory after the store, read at the next step
    d.capture = &loc;
    d.capture_address = address;
  }
}

// ---------------------------------------------------------------------------------------------
// One access
// ---------------------------------------------------------------------------------------------
void found_race(detector& d, const thread_state& t, bool global, std::uintptr_t address, unsigned size, op_t e_op,
                kind_t e_kind, std::uint32_t e_epoch, std::uint16_t e_tid, int e_other, std::uint32_t e_pc, op_t c_op,
                kind_t c_kind, std::uint32_t c_pc) {
  if (d.found) return;
  d.found = true;
  race_report& r = d.report;
  r.out_of_bounds = false;  // an out-of-bounds access sets it after this call; a race found later is not one
  r.global = global;
  r.address = address;
  r.size = size;
  r.e_epoch = e_epoch;
  r.e_pc = e_pc;
  r.e_tid = e_tid;
  r.e_other = e_other;
  r.e_op = e_op;
  r.e_kind = e_kind;
  r.c_tid = t.tid;
  r.c_pc = c_pc;
  r.c_op = c_op;
  r.c_kind = c_kind;
  r.c_block = d.block_index;
}

// An atomic read-modify-write reads the newest value: it continues the release sequence there.
void observe_newest(detector& d, thread_state& t, std::uintptr_t address, unsigned size) {
  auto it = d.locations.find(address);
  if (it == d.locations.end() || it->second.size != size) return;
  seen_entry& seen = seen_of(t, address);
  seen.seen = std::max(seen.seen, it->second.versions.back().index);
  if (it->second.sequence) observe(t, {it->second.sequence, it->second.sequence->size()});
}

// Atomics pass the value before and after the operation (they run it before the check); a
// volatile store's value is read after it.
void access(std::uintptr_t address, unsigned size, op_t op, kind_t kind, const void* pc,
            const void* value_before = nullptr, const void* value_after = nullptr) {
  detector& d = *t_detector;
  thread_state& t = *d.current;
  if (address - t.stack_low < t.stack_size || size == 0) return;  // the thread's own stack
  if (!d.found) {
    // Out of bounds: the access reaches outside the allocation its first byte's page belongs to.
    page* p = page_for(d, address);
    if (p != nullptr && p->global &&
        (address < reinterpret_cast<std::uintptr_t>(p->begin) || address + size > reinterpret_cast<std::uintptr_t>(p->end))) {
      found_race(d, t, true, address, size, op, kind, 0, 0, -1, 0, op, kind, pc_offset(pc));
      d.report.out_of_bounds = true;
      return;
    }
  }
  const std::uintptr_t first = address & ~std::uintptr_t{3};
  const std::uintptr_t last = (address + size - 1) & ~std::uintptr_t{3};
  bool global = false;
  for (std::uintptr_t g = first; g <= last; g += 4) {
    page* p = page_for(d, g);
    if (p == nullptr) return;
    global = p->global;
    cell& c = p->cells[(g >> 2) & (cells_per_page - 1)];
    std::uint8_t bytes = 0x0F;
    if (g < address) bytes &= static_cast<std::uint8_t>(0x0F << (address - g));
    if (g + 4 > address + size) bytes &= static_cast<std::uint8_t>(0x0F >> (g + 4 - address - size));
    if (!global) {  // shared memory: what an earlier block did there is not this block's
      if (c.w.epoch != 0 && c.w.epoch < d.block_start) c.w = {};
      if (c.r.epoch != 0 && c.r.epoch < d.block_start) c.r = {};
    }
    if (!d.found) {
      // Against the last write: a read now races with an unordered plain write (a marked
      // write may be read by anyone: the value seen is decided below); a write races with it
      // unless both are marked. Two plain writes of the same value are not reported: the
      // second write's value is compared after it (a flag that several threads set to 1).
      if (c.w.epoch != 0 && (c.w.bytes & bytes) != 0 && !ordered(d, t, c.w)) {
        const bool earlier_marked = marked(c.w.kind, global);
        const bool now_marked = marked(kind, global);
        const bool races = op == read_op ? !earlier_marked : !(earlier_marked && now_marked);
        if (races && op == write_op && !earlier_marked && !now_marked && size <= 16 &&
            (d.pending_size == 0 || d.pending_address == address)) {
          if (d.pending_size == 0) {  // (the access's other 4-byte pieces: the same decision)
            found_race(d, t, global, address, size, write_op, static_cast<kind_t>(c.w.kind), c.w.epoch, c.w.tid, -1,
                       c.w.pc, op, kind, pc_offset(pc));
            d.found = false;  // decided at the next step, once the value written is known
            d.pending_address = address;
            d.pending_size = size;
            std::memcpy(d.pending_before.data(), reinterpret_cast<const void*>(address), size);
          }
        } else if (races) {
          found_race(d, t, global, address, size, write_op, static_cast<kind_t>(c.w.kind), c.w.epoch, c.w.tid, -1,
                     c.w.pc, op, kind, pc_offset(pc));
        }
      }
      // Against the reads since: an unmarked write races with an unordered read.
      if (op != read_op && !marked(kind, global) && c.r.epoch != 0 && (c.r.bytes & bytes) != 0 &&
          !ordered(d, t, c.r)) {
        int other = -1;
        std::uint16_t first_reader = c.r.tid;
        if (first_reader == t.tid) {
          if (c.r.lanes != 0) {
            const unsigned others = c.r.lanes & ~(1u << lane_of(t.tid));
            if (others != 0) first_reader = static_cast<std::uint16_t>((t.tid & ~31u) + __builtin_ctz(others));
          } else {
            first_reader = c.r.other;
          }
        } else if (c.r.lanes != 0 || c.r.many_warps) {
          other = c.r.other;
        }
        found_race(d, t, global, address, size, read_op, static_cast<kind_t>(c.r.kind), c.r.epoch, first_reader,
                   other, first_reader == c.r.tid ? c.r.pc : 0, op, kind, pc_offset(pc));
      }
    }
    // The new state of the 4 bytes.
    if (op == read_op) {
      read_record& r = c.r;
      if (r.epoch == 0 || ordered(d, t, r)) {
        r = {};
        r.epoch = d.epoch;
        r.pc = pc_offset(pc);
        r.tid = t.tid;
        r.other = t.tid;
        r.clock = t.clock;
        r.kind = kind;
        r.bytes = bytes;
      } else {
        if (!r.many_warps && r.epoch == d.epoch && warp_of(r.tid) == warp_of(t.tid)) {
          if (r.lanes == 0) r.lanes = 1u << lane_of(r.tid);
          r.lanes |= 1u << lane_of(t.tid);
          r.clock = std::max(r.clock, t.clock);
        } else {
          r.many_warps = true;
          r.lanes = 0;
          r.epoch = d.epoch;
        }
        if (t.tid != r.tid) r.other = t.tid;
        r.kind = std::min<std::uint8_t>(r.kind, kind);
        r.bytes |= bytes;
      }
    } else if (c.w.epoch == d.epoch && c.w.tid == t.tid && c.w.kind < kind) {
      // The same thread wrote these bytes unmarked before (zeroed a counter, then added to it):
      // to the others that write still stands.
      c.w.bytes |= bytes;
      c.r = {};
    } else {
      c.w.epoch = d.epoch;
      c.w.pc = pc_offset(pc);
      c.w.tid = t.tid;
      c.w.clock = t.clock;
      c.w.fseq = t.fseq;
      c.w.kind = kind;
      c.w.bytes = bytes;
      c.r = {};
    }
  }
  // Values: a read may be served an older value; a marked write is a new version.
  if (!global || size > 16) return;
  if (op == read_op) {
    if (d.locations.empty()) return;
    if (kind == atomic_access) observe_newest(d, t, address, size);
    else read_value(d, t, address, size, kind != plain);
  } else if (marked(kind, true)) {
    if (op == rmw_op) observe_newest(d, t, address, size);
    write_value(d, t, address, size, op, value_before, value_after);
  } else if (!d.locations.empty()) {
    d.locations.erase(address);  // a plain write: the versions of marked writes are gone
  }
}

// The entry points' common start: put back a value served stale, capture a volatile store.
inline detector* active() {
  detector* d = t_detector;
  if (d == nullptr) return nullptr;
  settle(d[0]);
  return d->current != nullptr ? d : nullptr;
}

// ---------------------------------------------------------------------------------------------
// Reports
// ---------------------------------------------------------------------------------------------
std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// "count_bytes<false>" of "void (anonymous namespace)::count_bytes<false>(unsigned char const*, long)".
std::string short_function(std::string name) {
  for (std::size_t at; (at = name.find("(anonymous namespace)::")) != std::string::npos;) name.erase(at, 23);
  // The name ends where its parameter list starts: the first '(' outside template arguments.
  int depth = 0;
  std::size_t end = name.size();
  std::size_t begin = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (depth == 0 && c == ' ') begin = i + 1;  // after the return type
    if (depth == 0 && c == '(') {
      end = i;
      break;
    }
    if (depth == 0 && c == ':' && i + 1 < name.size() && name[i + 1] == ':') begin = i + 2;  // after a namespace
  }
  return begin < end ? name.substr(begin, end - begin) : name;
}

// "exercises/scan/kogge_stone.cu:31 in kogge_stone_kernel<int>" from a program offset, by
// asking addr2line (the .cu files carry line tables on the cpu backend).
std::string source_of(std::uint32_t offset) {
  if (offset == 0) return "";
  const void* pc = &__executable_start + offset - 1;  // inside the call instruction
  Dl_info info{};
  if (dladdr(pc, &info) == 0 || info.dli_fname == nullptr) return "";
  auto address = reinterpret_cast<std::uintptr_t>(pc);
  const auto* header = static_cast<const Elf64_Ehdr*>(info.dli_fbase);
  if (header != nullptr && header->e_type == ET_DYN) address -= reinterpret_cast<std::uintptr_t>(info.dli_fbase);
  char command[4096];
  std::snprintf(command, sizeof command, "addr2line -C -f -i -e '%s' 0x%llx 2>/dev/null", info.dli_fname,
                static_cast<unsigned long long>(address));
  FILE* pipe = popen(command, "r");
  if (pipe == nullptr) return "";
  std::vector<std::string> lines;
  char line[4096];
  while (std::fgets(line, sizeof line, pipe) != nullptr) lines.push_back(trim(line));
  pclose(pipe);
  if (lines.size() < 2 || lines[1].rfind("??", 0) == 0) return "";
  // The innermost frame's line; the function it is inlined into, or its own.
  std::string file = lines[1];
  if (const auto paren = file.find(" (discriminator"); paren != std::string::npos) file = file.substr(0, paren);
  std::size_t best = std::string::npos;
  for (const char* root : {"/chapters/", "/solutions/", "/exercises/", "/common/"}) {
    const auto at = file.rfind(root);
    if (at != std::string::npos && (best == std::string::npos || at > best)) best = at;
  }
  if (best != std::string::npos) file = file.substr(best + 1);
  const std::string function = short_function(lines.size() >= 4 ? lines[lines.size() - 2] : lines[0]);
  return function.empty() ? file : file + " in " + function;
}

std::string block_text(uint3 b) {
  return "block (" + std::to_string(b.x) + "," + std::to_string(b.y) + "," + std::to_string(b.z) + ")";
}

const char* verb(op_t op, kind_t kind, bool past) {
  if (kind == atomic_access) {
    if (op == read_op) return past ? "read atomically" : "reads atomically";
    return past ? "updated atomically" : "updates atomically";
  }
  const bool is_volatile = kind == volatile_access;
  switch (op) {
    case read_op: return past ? (is_volatile ? "read (volatile)" : "read") : (is_volatile ? "reads (volatile)" : "reads");
    case write_op: return past ? (is_volatile ? "wrote (volatile)" : "wrote") : (is_volatile ? "writes (volatile)" : "writes");
    case rmw_op: return past ? "updated" : "updates";
  }
  return "?";
}

std::string where_text(const detector& d, const race_report& r) {
  if (r.global) {
    std::size_t offset = 0, bytes = 0;
    if (detail::find_allocation(reinterpret_cast<const void*>(r.address), &offset, &bytes)) {
      return "byte " + std::to_string(offset) + " of a " + std::to_string(bytes) + "-byte device allocation";
    }
    return "global memory";
  }
  (void)d;
  return "shared memory";
}

// "byte 40 of a 40-byte device allocation, past its end (element 10 of 10)" for an access outside one.
std::string bounds_text(const race_report& r) {
  detail::region region;
  if (!detail::find_region(reinterpret_cast<const void*>(r.address), &region)) return "outside every device allocation";
  const auto start = reinterpret_cast<std::intptr_t>(region.start);
  const auto at = static_cast<std::intptr_t>(r.address);
  const auto bytes = static_cast<std::intptr_t>(region.bytes);
  const auto size = static_cast<std::intptr_t>(r.size);
  const std::string allocation = "a " + std::to_string(region.bytes) + "-byte device allocation";
  if (at < start) return std::to_string(start - at) + " byte" + (start - at == 1 ? "" : "s") + " before the start of " + allocation;
  std::string text = "byte " + std::to_string(at - start) + " of " + allocation + ", past its end";
  if (size > 0 && (at - start) % size == 0 && bytes % size == 0) {
    text += " (element " + std::to_string((at - start) / size) + "; it has " + std::to_string(bytes / size) + ")";
  }
  return text;
}

std::string describe(const detector& d) {
  const race_report& r = d.report;
  if (r.out_of_bounds) {
    const std::string here = source_of(r.c_pc);
    std::string text = std::string("out-of-bounds access: thread ") + std::to_string(r.c_tid) + " of " +
                       block_text(r.c_block) + " " + verb(r.c_op, r.c_kind, false) + " " + std::to_string(r.size) +
                       " byte" + (r.size == 1 ? "" : "s") + " at " + bounds_text(r);
    if (!here.empty()) text += ", at " + here;
    return text;
  }
  const bool same_block = r.e_epoch >= d.block_start;
  uint3 e_block = r.c_block;
  if (!same_block) {
    auto it = std::upper_bound(d.block_starts.begin(), d.block_starts.end(), r.e_epoch,
                               [](std::uint32_t e, const std::pair<std::uint32_t, uint3>& b) { return e < b.first; });
    if (it != d.block_starts.begin()) e_block = std::prev(it)->second;
  }
  const std::string here = source_of(r.c_pc);
  const std::string there = source_of(r.e_pc);
  std::string text = "data race on " + std::string(r.global ? "global" : "shared") + " memory: thread " +
                     std::to_string(r.c_tid) + " of " + block_text(r.c_block) + " " + verb(r.c_op, r.c_kind, false) +
                     " " + std::to_string(r.size) + " byte" + (r.size == 1 ? "" : "s") + " (" + where_text(d, r) + ")";
  if (!here.empty()) text += " at " + here;
  text += ", which thread " + std::to_string(r.e_tid) + (same_block ? "" : " of " + block_text(e_block)) + " " +
          verb(r.e_op, r.e_kind, true);
  if (r.e_other >= 0 && r.e_other != r.e_tid && r.e_other != r.c_tid) {
    text += " (thread " + std::to_string(r.e_other) + " too)";
  }
  if (!there.empty() && there != here) text += " at " + there;
  else if (!there.empty()) text += " on the same line";
  if (!same_block) {
    text += ", and nothing orders the two: they are in different blocks, and no flag passes between them (set "
            "after the writer's __threadfence(), seen before the reader's)";
  } else if (warp_of(r.e_tid) == warp_of(r.c_tid)) {
    text += ", and nothing orders the two: no __syncthreads() between them, and no __syncwarp() in their warp";
  } else {
    text += ", and nothing orders the two: no __syncthreads() between them";
  }
  if (!there.empty() && there == here && r.c_kind == plain && r.e_kind == plain && r.c_op != r.e_op) {
    // The same line in both threads: either all of them update one value (a counter, a bin),
    // or each updates its own while reading a neighbour's (an in-place scan step). The race
    // is found at the read, before the reader's own write, so both remedies are named.
    text += ". If the threads all update one value (a counter, a histogram bin), that read-modify-write needs an "
            "atomic (atomicAdd); if a thread reads a neighbour's value that the neighbour updates in place in the "
            "same step, read it into a register, __syncthreads(), then write";
  }
  return text;
}

// ---------------------------------------------------------------------------------------------
// Atomics: the operation itself, then the access
// ---------------------------------------------------------------------------------------------
template <class T>
T do_atomic(volatile T* a, T v, int what) {
  T* p = const_cast<T*>(a);
  switch (what) {
    case 0: return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
    case 1: return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
    case 2: return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST);
    case 3: return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);
    case 4: return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);
    case 5: return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);
    default: return __atomic_fetch_nand(p, v, __ATOMIC_SEQ_CST);
  }
}

// Atomics are marked accesses, unless a test's mutation makes them race like plain ones.
kind_t atomic_kind() { return detail::plain_atomics() ? plain : atomic_access; }

template <class T>
T atomic_rmw(volatile T* a, T v, int what, const void* pc) {
  detector* d = active();
  if (d == nullptr) return do_atomic(a, v, what);
  const T old = do_atomic(a, v, what);
  const T now = *const_cast<T*>(a);
  access(reinterpret_cast<std::uintptr_t>(a), sizeof(T), rmw_op, atomic_kind(), pc, &old, &now);
  return old;
}

template <class T>
T atomic_load(const volatile T* a, const void* pc) {
  detector* d = active();
  if (d != nullptr) access(reinterpret_cast<std::uintptr_t>(a), sizeof(T), read_op, atomic_kind(), pc);
  return __atomic_load_n(const_cast<const T*>(a), __ATOMIC_SEQ_CST);
}

template <class T>
void atomic_store(volatile T* a, T v, const void* pc) {
  detector* d = active();
  const T old = *const_cast<T*>(a);
  __atomic_store_n(const_cast<T*>(a), v, __ATOMIC_SEQ_CST);
  if (d != nullptr) access(reinterpret_cast<std::uintptr_t>(a), sizeof(T), write_op, atomic_kind(), pc, &old, &v);
}

template <class T>
bool atomic_cas(volatile T* a, T* expected, T desired, const void* pc) {
  detector* d = active();
  const T want = *expected;
  const bool swapped =
      __atomic_compare_exchange_n(const_cast<T*>(a), expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  if (d != nullptr) {
    // A failed compare-and-swap only read: the newest value, like every atomic.
    if (swapped) {
      access(reinterpret_cast<std::uintptr_t>(a), sizeof(T), rmw_op, atomic_kind(), pc, &want, &desired);
    } else {
      access(reinterpret_cast<std::uintptr_t>(a), sizeof(T), read_op, atomic_kind(), pc);
    }
  }
  return swapped;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The scheduler's side
// ---------------------------------------------------------------------------------------------
bool launch_begin(std::size_t blocks) {
  const options& o = current_options();
  if (!o.race_check || o.host_threads > 1) return false;
  if (!t_storage) t_storage = std::make_unique<detector>();
  detector& d = *t_storage;
  d.next_epoch = 1;
  d.pages.clear();
  d.pages_used = 0;
  d.over_budget = false;
  d.page_cache.fill({0, nullptr});
  d.locations.clear();
  d.block_starts.clear();
  d.block_starts.reserve(std::min<std::size_t>(blocks, 1u << 20));
  d.found = false;
  d.current = nullptr;
  d.restore_size = 0;
  d.capture = nullptr;
  t_detector = &d;
  return true;
}

void launch_end() {
  detector* d = t_detector;
  if (d == nullptr) return;
  settle(*d);
  d->current = nullptr;
  d->locations.clear();
  // Keep the shadow pages for the next launch, but give back what a large one took.
  if (d->page_store.size() > 4096) d->page_store.resize(4096);
  d->pages.clear();
  d->pages_used = 0;
  t_detector = nullptr;
}

void block_begin(uint3 index, unsigned threads, const unsigned char*, std::size_t) {
  detector* d = t_detector;
  if (d == nullptr) return;
  d->block_index = index;
  d->block_start = d->next_epoch++;
  d->epoch = d->block_start;
  d->block_starts.emplace_back(d->block_start, index);
  d->block_acquired.items.clear();
  d->block_pending.clear();
  d->found = false;
  d->thread_count = threads;
  if (d->threads.size() < threads) d->threads.resize(threads);
  for (unsigned i = 0; i < threads; ++i) {
    thread_state& t = d->threads[i];
    t.tid = static_cast<std::uint16_t>(i);
    t.clock = 0;
    t.fseq = 0;
    t.fenced = false;
    t.fence_epoch = 0;
    t.fence_fseq = 0;
    t.vc.fill(0);
    t.pending.clear();
    t.acquired.items.clear();
    t.seen.clear();
  }
}

void set_stack(unsigned thread, const void* low, const void* high) {
  detector* d = t_detector;
  if (d == nullptr || thread >= d->threads.size()) return;
  d->threads[thread].stack_low = reinterpret_cast<std::uintptr_t>(low);
  d->threads[thread].stack_size = static_cast<std::uintptr_t>(static_cast<const char*>(high) - static_cast<const char*>(low));
}

void switch_to(int thread) {
  detector* d = t_detector;
  if (d == nullptr) return;
  settle(*d);
  d->current = thread >= 0 ? &d->threads[static_cast<unsigned>(thread)] : nullptr;
}

void barrier_released() {
  detector* d = t_detector;
  if (d == nullptr) return;
  settle(*d);
  d->epoch = d->next_epoch++;
  for (unsigned i = 0; i < d->thread_count; ++i) {
    thread_state& t = d->threads[i];
    t.clock = 0;
    t.fseq = 0;
    t.vc.fill(0);
    if (!t.acquired.items.empty()) {
      d->block_acquired.add(t.acquired);
      t.acquired.items.clear();
    }
    if (!t.pending.empty()) {
      d->block_pending.insert(d->block_pending.end(), t.pending.begin(), t.pending.end());
      t.pending.clear();
    }
  }
}

void warp_synced(unsigned warp_base, unsigned mask) {
  detector* d = t_detector;
  if (d == nullptr) return;
  settle(*d);
  std::array<std::uint16_t, 32> joined{};
  bool overflow = false;
  for (unsigned lanes = mask; lanes != 0; lanes &= lanes - 1) {
    thread_state& t = d->threads[warp_base + static_cast<unsigned>(__builtin_ctz(lanes))];
    if (t.clock == 0xFFFF) overflow = true;
    ++t.clock;
  }
  if (overflow) {
    // A warp went through 65535 collectives without a barrier: start a new interval (the
    // accesses before it count as ordered from now on).
    barrier_released();
    return;
  }
  for (unsigned lanes = mask; lanes != 0; lanes &= lanes - 1) {
    const unsigned lane = static_cast<unsigned>(__builtin_ctz(lanes));
    const thread_state& t = d->threads[warp_base + lane];
    for (unsigned k = 0; k < 32; ++k) joined[k] = std::max(joined[k], t.vc[k]);
    joined[lane] = std::max(joined[lane], t.clock);
  }
  for (unsigned lanes = mask; lanes != 0; lanes &= lanes - 1) {
    d->threads[warp_base + static_cast<unsigned>(__builtin_ctz(lanes))].vc = joined;
  }
}

void fence() {
  detector* d = t_detector;
  if (d == nullptr || d->current == nullptr) return;
  settle(*d);
  thread_state& t = *d->current;
  ++t.fseq;
  t.fenced = true;
  t.fence_epoch = d->epoch;
  t.fence_fseq = t.fseq;
  // Flags read before the fence: their writers' releases are acquired.
  for (const auto& s : t.pending) t.acquired.add(s);
  t.pending.clear();
  for (const auto& s : d->block_pending) d->block_acquired.add(s);
  d->block_pending.clear();
}

bool found() {
  detector* d = t_detector;
  if (d == nullptr) return false;
  settle(*d);  // a write that raced: decided once its value is known
  return d->found;
}

std::string take_report() {
  detector* d = t_detector;
  if (d == nullptr || !d->found) return "";
  settle(*d);
  std::string text = describe(*d);
  return text;
}

}  // namespace wb::cpu::race

// ---------------------------------------------------------------------------------------------
// The entry points GCC's -fsanitize=thread instrumentation calls
// ---------------------------------------------------------------------------------------------
using wb::cpu::race::atomic_access;
using wb::cpu::race::plain;
using wb::cpu::race::read_op;
using wb::cpu::race::volatile_access;
using wb::cpu::race::write_op;

#define WB_RACE_ACCESS(name, size, op, kind)                                                         \
  extern "C" void name(void* address) {                                                            \
    if (wb::cpu::race::active() != nullptr) {                                                      \
      wb::cpu::race::access(reinterpret_cast<std::uintptr_t>(address), size, op, kind,            \
                            __builtin_return_address(0));                                          \
    }                                                                                              \
  }
#define WB_RACE_SIZES(prefix, op, kind)            \
  WB_RACE_ACCESS(prefix##1, 1, op, kind)           \
  WB_RACE_ACCESS(prefix##2, 2, op, kind)           \
  WB_RACE_ACCESS(prefix##4, 4, op, kind)           \
  WB_RACE_ACCESS(prefix##8, 8, op, kind)           \
  WB_RACE_ACCESS(prefix##16, 16, op, kind)
WB_RACE_SIZES(__tsan_read, read_op, plain)
WB_RACE_SIZES(__tsan_write, write_op, plain)
WB_RACE_SIZES(__tsan_unaligned_read, read_op, plain)
WB_RACE_SIZES(__tsan_unaligned_write, write_op, plain)
WB_RACE_SIZES(__tsan_volatile_read, read_op, volatile_access)
WB_RACE_SIZES(__tsan_volatile_write, write_op, volatile_access)
#undef WB_RACE_SIZES
#undef WB_RACE_ACCESS

extern "C" void __tsan_read_range(void* address, unsigned long size) {
  if (wb::cpu::race::active() != nullptr) {
    wb::cpu::race::access(reinterpret_cast<std::uintptr_t>(address), static_cast<unsigned>(size), read_op, plain,
                          __builtin_return_address(0));
  }
}
extern "C" void __tsan_write_range(void* address, unsigned long size) {
  if (wb::cpu::race::active() != nullptr) {
    wb::cpu::race::access(reinterpret_cast<std::uintptr_t>(address), static_cast<unsigned>(size), write_op, plain,
                          __builtin_return_address(0));
  }
}

extern "C" void __tsan_init() {}
extern "C" void __tsan_func_entry(void*) {}
extern "C" void __tsan_func_exit() {}
extern "C" void __tsan_vptr_update(void**, void*) {}
extern "C" void __tsan_vptr_read(void**) {}

extern "C" void __tsan_atomic_thread_fence(int) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  wb::cpu::race::fence();
}
extern "C" void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

#define WB_RACE_ATOMICS(bits, T)                                                                             \
  extern "C" T __tsan_atomic##bits##_load(const volatile T* a, int) {                                      \
    return wb::cpu::race::atomic_load(a, __builtin_return_address(0));                                     \
  }                                                                                                        \
  extern "C" void __tsan_atomic##bits##_store(volatile T* a, T v, int) {                                   \
    wb::cpu::race::atomic_store(a, v, __builtin_return_address(0));                                        \
  }                                                                                                        \
  extern "C" T __tsan_atomic##bits##_exchange(volatile T* a, T v, int) {                                   \
    return wb::cpu::race::atomic_rmw(a, v, 0, __builtin_return_address(0));                                \
  }                                                                                                        \
  extern "C" T __tsan_atomic##bits##_fetch_add(volatile T* a, T v, int) {                                  \
    return wb::cpu::race::atomic_rmw(a, v, 1, __builtin_return_address(0));                                \
  }                                                                                                        \
  extern "C" T __tsan_atomic##bits##_fetch_sub(volatile T* a, T v, int) {                                  \
    return wb::cpu::race::atomic_rmw(a, v, 2, __builtin_return_address(0));                                \
  }                                                                                                        \
  extern "C" T __tsan_atomic##bits##_fetch_and(volatile T* a, T v, int) {                                  \
    return wb::cpu::race::atomic_rmw(a, v, 3, __builtin_return_address(0));                                \
  }                                                                                                        \
  extern "C" T __tsan_atomic##bits##_fetch_or(volatile T* a, T v, int) {                                   \
    return wb::cpu::race::atomic_rmw(a, v, 4, __builtin_return_address(0));                                \
  }                                                                                                        \
  extern "C" T __tsan_atomic##bits##_fetch_xor(volatile T* a, T v, int) {                                  \
    return wb::cpu::race::atomic_rmw(a, v, 5, __builtin_return_address(0));                                \
  }                                                                                                        \
  extern "C" T __tsan_atomic##bits##_fetch_nand(volatile T* a, T v, int) {                                 \
    return wb::cpu::race::atomic_rmw(a, v, 6, __builtin_return_address(0));                                \
  }                                                                                                        \
  extern "C" int __tsan_atomic##bits##_compare_exchange_strong(volatile T* a, T* c, T v, int, int) {       \
    return wb::cpu::race::atomic_cas(a, c, v, __builtin_return_address(0));                                \
  }                                                                                                        \
  extern "C" int __tsan_atomic##bits##_compare_exchange_weak(volatile T* a, T* c, T v, int, int) {         \
    return wb::cpu::race::atomic_cas(a, c, v, __builtin_return_address(0));                                \
  }                                                                                                        \
  extern "C" T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T c, T v, int, int) {             \
    wb::cpu::race::atomic_cas(a, &c, v, __builtin_return_address(0));                                      \
    return c;                                                                                              \
  }
WB_RACE_ATOMICS(8, char)
WB_RACE_ATOMICS(16, short)
WB_RACE_ATOMICS(32, int)
WB_RACE_ATOMICS(64, long)
#undef WB_RACE_ATOMICS
