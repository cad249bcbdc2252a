// Configuration, workspace sizes and traces shared by every stage of both tracks (scan.hpp).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "scan.hpp"
#include "trace_kernels.hpp"
#include "wb/check.hpp"

namespace scan {

namespace {
std::int64_t ceil_div(std::int64_t work, std::int64_t per) { return (work + per - 1) / per; }
using wb::piece_bytes;
}  // namespace

int items_for(int stage, const config& cfg, std::size_t item_bytes) {
  if (cfg.items_per_thread > 0) return cfg.items_per_thread;
  // Stage 6: eight 16-byte vectors a thread (128 bytes: 32 int32, 16 int64), at most 64 KiB a
  // tile (two tiles wait in a block's shared memory). Large tiles mean few look-backs; 32 and
  // 64 KiB tiles measured fastest on an H100 (README).
  if (stage == 6) {
    return static_cast<int>(std::min<std::int64_t>(128, max_single_pass_tile_bytes / cfg.block) /
                            static_cast<std::int64_t>(item_bytes));
  }
  return 8;
}

int single_pass_items(std::int64_t n, const config& cfg, std::size_t item_bytes) {
  int items = items_for(6, cfg, item_bytes);
  if (cfg.items_per_thread > 0) return items;
  const int fewest = static_cast<int>(min_single_pass_thread_bytes / item_bytes);
  while (items > fewest && ceil_div(n, static_cast<std::int64_t>(cfg.block) * items) < min_single_pass_tiles) {
    items /= 2;
  }
  return items;
}

bool single_pass_rounds_uneven(std::int64_t tiles, std::int64_t resident_blocks) {
  return tiles > resident_blocks && tiles < 3 * resident_blocks;
}

void validate(const config& cfg, std::size_t item_bytes) {
  const int b = cfg.block;
  if (b < min_block || b > max_block || !std::has_single_bit(static_cast<unsigned>(b))) {
    // Kogge-Stone doubles its stride and Brent-Kung's tree pairs subtrees: a section that is
    // not a power of two leaves a ragged last step. 32 is one warp.
    throw std::invalid_argument("block size " + std::to_string(b) +
                                " is not allowed: use a power of two from 32 to 1024");
  }
  const int items = cfg.items_per_thread;
  const int min_items = static_cast<int>(16 / item_bytes);  // stage 6 loads 16-byte vectors
  if (items != 0 && (items < min_items || items > max_items_per_thread ||
                     !std::has_single_bit(static_cast<unsigned>(items)))) {
    throw std::invalid_argument("items per thread " + std::to_string(items) + " is not allowed: use 0 (the stage's "
                                "default) or a power of two from " + std::to_string(min_items) + " to " +
                                std::to_string(max_items_per_thread));
  }
  // Stage 6 keeps two tiles in a block's shared memory (the tile it scans and the next one).
  const std::int64_t stage6_tile_bytes =
      static_cast<std::int64_t>(b) * items_for(6, cfg, item_bytes) * static_cast<std::int64_t>(item_bytes);
  if (stage6_tile_bytes > max_single_pass_tile_bytes) {
    throw std::invalid_argument("block x items per thread x " + std::to_string(item_bytes) + " bytes = " +
                                std::to_string(stage6_tile_bytes) + " bytes: stage 6 keeps two tiles in shared "
                                "memory, at most " + std::to_string(max_single_pass_tile_bytes) + " bytes each");
  }
  for (const int stage : {3, 4, 5}) {
    if (static_cast<std::int64_t>(b) * items_for(stage, cfg, item_bytes) > max_section_items) {
      throw std::invalid_argument("block x items per thread = " +
                                  std::to_string(static_cast<std::int64_t>(b) * items_for(stage, cfg, item_bytes)) +
                                  " items: a section in shared memory holds at most " +
                                  std::to_string(max_section_items));
    }
  }
}

std::size_t workspace_bytes(std::int64_t n, std::size_t item_bytes, const config& cfg) {
  std::size_t most = 0;
  // Stage 4: the section sums of every level (the carving order of hierarchical.cu).
  {
    const std::int64_t section = static_cast<std::int64_t>(cfg.block) * items_for(4, cfg, item_bytes);
    std::size_t bytes = 0;
    // Every level writes one sum per section; a level of more than one section recurses.
    for (std::int64_t m = n; m > 0;) {
      m = ceil_div(m, section);
      bytes += piece_bytes(static_cast<std::size_t>(m) * item_bytes);
      if (m <= 1) break;
    }
    most = std::max(most, bytes);
  }
  // Stage 5: the tile counter, one flag and one carry per tile.
  {
    const std::int64_t tiles = ceil_div(n, static_cast<std::int64_t>(cfg.block) * items_for(5, cfg, item_bytes));
    most = std::max(most, 16 + piece_bytes(static_cast<std::size_t>(tiles) * 4) +
                              piece_bytes(static_cast<std::size_t>(tiles) * item_bytes));
  }
  // Stage 6: the tile counter, then per tile a status word (value packed in, 32-bit types)
  // or a status and two values (64-bit types).
  {
    // Room for tiles of half the size: the stage halves them where the rounds are uneven.
    const int items = single_pass_items(n, cfg, item_bytes);
    const int smallest =
        cfg.items_per_thread > 0
            ? items
            : std::max(items / 2, static_cast<int>(min_single_pass_thread_bytes / item_bytes));
    const std::int64_t tiles = ceil_div(n, static_cast<std::int64_t>(cfg.block) * smallest);
    const auto t = static_cast<std::size_t>(tiles);
    most = std::max(most, item_bytes == 4 ? 16 + piece_bytes(t * 8)
                                          : 16 + piece_bytes(t * 4) + 2 * piece_bytes(t * item_bytes));
  }
  return most;
}

std::int64_t rounding_depth(std::int64_t n) {
  if (n <= 1) return n;
  const std::int64_t chain = ceil_div(n, 32);
  const std::int64_t inside = max_items_per_thread + 4 * 10 + 32 + 8;
  return std::min(n, chain + inside);
}

// ---------------------------------------------------------------------------------------
// Traces
// ---------------------------------------------------------------------------------------

namespace {
template <class T>
std::string row(const std::string& label, const std::vector<T>& v, const std::vector<bool>* changed = nullptr) {
  std::string s = fmt::format("{:<24}", label);
  for (std::size_t i = 0; i < v.size(); ++i) {
    const bool mark = changed != nullptr && (*changed)[i];
    if constexpr (std::is_floating_point_v<T>) s += fmt::format(" {:>7}", fmt::format("{:g}{}", v[i], mark ? "*" : ""));
    else s += fmt::format(" {:>7}", fmt::format("{}{}", v[i], mark ? "*" : ""));
  }
  return s + "\n";
}
std::string header(std::size_t count, const char* what) {
  std::string s = fmt::format("{:<24}", what);
  for (std::size_t i = 0; i < count; ++i) s += fmt::format(" {:>7}", fmt::format("t{}", i));
  return s + "\n";
}
}  // namespace

// What each track's kernel of `stage` computes on `in` (one block of 32 threads, or more for
// Brent-Kung's pairs): its outputs in a row under the steps, the wrong ones marked "!", or the
// launch's failure (on the cpu backend with WB_CPU_RACECHECK=1, as wb trace runs it, a race is
// named with its lines); the track of each kernel wrong or failed goes into *failing.
template <class T>
std::string kernel_rows(int stage, std::span<const T> in, const std::vector<T>& expected, std::vector<std::string>* failing) {
  std::string s;
  const auto& kernels = trace_kernels<T>(stage);
  if (kernels.empty() || in.empty()) return s;
  config cfg;
  cfg.block = 32;  // one block: every item of the trace fits (at most max_trace_items)
  const auto n = static_cast<std::int64_t>(in.size());
  s += fmt::format("the kernels of stage {} on this input (one block of {} threads), ! marks a wrong item:\n", stage,
                   cfg.block);
  for (const auto& [track, fn] : kernels) {
    std::string line = fmt::format("{:<24}", track + " track");
    try {
      wb::device_buffer<T> d_in(std::vector<T>(in.begin(), in.end()));
      wb::device_buffer<T> d_out(in.size());
      d_out.fill_bytes(0xA5);
      workspace_buffer<T> ws(n, cfg);
      fn(d_in.data(), d_out.data(), n, ws.view(), cfg);
      WB_CHECK(cudaDeviceSynchronize());
      const std::vector<T> got = d_out.to_host();
      int wrong = 0;
      for (std::size_t i = 0; i < got.size(); ++i) {
        const bool bad = std::memcmp(&got[i], &expected[i], sizeof(T)) != 0;
        wrong += bad;
        if constexpr (std::is_floating_point_v<T>) line += fmt::format(" {:>7}", fmt::format("{:g}{}", got[i], bad ? "!" : ""));
        else line += fmt::format(" {:>7}", fmt::format("{}{}", got[i], bad ? "!" : ""));
      }
      line += wrong == 0 ? "   right" : fmt::format("   {} wrong", wrong);
      if (wrong > 0 && failing != nullptr) failing->push_back(track);
    } catch (const std::exception& e) {
      line += std::string(" the launch failed: ") + e.what();
      if (failing != nullptr) failing->push_back(track);
    }
    s += line + "\n";
  }
  return s;
}

template <class T>
std::string trace_kogge_stone(std::span<const T> in, std::vector<std::string>* failing) {
  // PMPP §11.2: thread i owns XY[i]; at stride s every thread i >= s adds XY[i - s], all
  // reading before any writes (the barrier between the read and the write).
  std::vector<T> xy(in.begin(), in.end());
  std::string s = "Kogge-Stone (PMPP §11.2): one thread per item; * marks the values a step changed\n";
  s += header(xy.size(), "step");
  s += row("load", xy);
  int additions = 0;
  for (std::size_t stride = 1; stride < xy.size(); stride *= 2) {
    const std::vector<T> before = xy;
    std::vector<bool> changed(xy.size(), false);
    for (std::size_t i = stride; i < xy.size(); ++i) {
      xy[i] = plus(before[i - stride], before[i]);
      changed[i] = true;
      ++additions;
    }
    s += row(fmt::format("stride {}", stride), xy, &changed);
  }
  s += fmt::format("{} additions for {} items (n log2 n - (n - 1) in general)\n", additions, xy.size());
  s += kernel_rows<T>(1, in, xy, failing);
  return s;
}

template <class T>
std::string trace_brent_kung(std::span<const T> in, std::vector<std::string>* failing) {
  // PMPP §11.4: a section of 2B items, B threads; the up-sweep builds a tree of partial sums
  // at the last index of each subtree, the down-sweep hands them forward.
  const std::size_t n = in.size();
  std::size_t section = 1;
  while (section < n) section *= 2;
  std::vector<T> xy(in.begin(), in.end());
  xy.resize(section, T{});
  std::string s = fmt::format(
      "Brent-Kung (PMPP §11.4): {} items padded to {} with zeros, {} threads; * marks the values a step changed\n", n,
      section, std::max<std::size_t>(section / 2, 1));
  s += header(section, "index");
  s += row("load", xy);
  int additions = 0;
  for (std::size_t stride = 1; stride < section; stride *= 2) {
    std::vector<bool> changed(section, false);
    for (std::size_t t = 0; (t + 1) * 2 * stride - 1 < section; ++t) {
      const std::size_t i = (t + 1) * 2 * stride - 1;
      xy[i] = plus(xy[i - stride], xy[i]);
      changed[i] = true;
      ++additions;
    }
    s += row(fmt::format("up-sweep stride {}", stride), xy, &changed);
  }
  for (std::size_t stride = section / 4; stride >= 1; stride /= 2) {
    std::vector<bool> changed(section, false);
    for (std::size_t t = 0; (t + 1) * 2 * stride - 1 + stride < section; ++t) {
      const std::size_t i = (t + 1) * 2 * stride - 1;
      xy[i + stride] = plus(xy[i], xy[i + stride]);
      changed[i + stride] = true;
      ++additions;
    }
    s += row(fmt::format("down-sweep stride {}", stride), xy, &changed);
  }
  s += fmt::format("{} additions for {} items (at most 2n - 2 - log2 n in general)\n", additions, section);
  s += kernel_rows<T>(2, in, std::vector<T>(xy.begin(), xy.begin() + static_cast<std::ptrdiff_t>(n)), failing);
  return s;
}

template <class T>
std::vector<std::pair<std::string, trace_stage_fn<T>>>& trace_kernels(int stage) {
  static std::vector<std::pair<std::string, trace_stage_fn<T>>> kernels[3];
  return kernels[stage == 2 ? 2 : 1];
}
template std::vector<std::pair<std::string, trace_stage_fn<std::int32_t>>>& trace_kernels<std::int32_t>(int);
template std::vector<std::pair<std::string, trace_stage_fn<std::int64_t>>>& trace_kernels<std::int64_t>(int);
template std::vector<std::pair<std::string, trace_stage_fn<float>>>& trace_kernels<float>(int);

template std::string trace_kogge_stone<std::int32_t>(std::span<const std::int32_t>, std::vector<std::string>*);
template std::string trace_kogge_stone<std::int64_t>(std::span<const std::int64_t>, std::vector<std::string>*);
template std::string trace_kogge_stone<float>(std::span<const float>, std::vector<std::string>*);
template std::string trace_brent_kung<std::int32_t>(std::span<const std::int32_t>, std::vector<std::string>*);
template std::string trace_brent_kung<std::int64_t>(std::span<const std::int64_t>, std::vector<std::string>*);
template std::string trace_brent_kung<float>(std::span<const float>, std::vector<std::string>*);

}  // namespace scan
