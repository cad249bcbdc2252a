// scan --trace [--svg FILE]: Kogge-Stone's and Brent-Kung's steps on a tiny input, thread by
// thread, as the book's figures draw them (PMPP Figs. 11.1 and 11.4), and their picture.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wb/arguments.hpp"
#include "wb/svg_pictures.hpp"

#include "scan.hpp"

namespace scan {

// --trace draws every thread: refused (before any work) for more than max_trace_items items.
inline void require_traceable(bool trace, std::int64_t items) {
  if (trace && items > static_cast<std::int64_t>(max_trace_items)) {
    throw wb::usage_error(fmt::format("--trace draws every thread: give at most {} items", max_trace_items));
  }
}

// The exit status: 1 when the kernel of `track` (the one the run asked for) got an item wrong
// or failed, as wb trace merge does for a wrong co_rank, so that wb and scripts see it.
template <class T>
int trace(const std::vector<T>& data, const std::string& type, const std::string& svg, const std::string& track) {
  std::vector<std::string> failing;
  fmt::print("{}\n{}", trace_kogge_stone<T>(std::span<const T>(data), &failing),
             trace_brent_kung<T>(std::span<const T>(data), &failing));
  const auto mine = std::count(failing.begin(), failing.end(), track);
  if (mine > 0) fmt::print("the {} track's kernels: {} of 2 got this input wrong\n", track, mine);
  if (!svg.empty()) {
    wb::svg::scan_steps_input<T> picture;
    picture.items = data;
    picture.caption = fmt::format("scan: Kogge-Stone and Brent-Kung, step by step, on {} {} items", data.size(), type);
    std::ofstream file(svg);
    file << wb::svg::scan_steps_svg(picture);
    file.close();
    if (!file) throw wb::usage_error("--svg: cannot write " + svg);
    fmt::print("the picture: {}\n", svg);
  }
  return mine > 0 ? 1 : 0;
}

}  // namespace scan
