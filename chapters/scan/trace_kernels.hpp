// --trace runs the tracks' own kernels too: each track's stages 1 (Kogge-Stone) and 2 (Brent-
// Kung) register here when their host files are linked (kogge_stone_host.inl,
// brent_kung_host.inl), and the trace prints what each computes on the traced input beside the
// book's steps, with the items it gets wrong marked (and a race or a crash named).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "scan.hpp"

namespace scan {

template <class T>
using trace_stage_fn = void (*)(const T*, T*, std::int64_t, const workspace&, const config&);

// The registered kernels of one stage: (track name, stage function), solution first.
template <class T>
std::vector<std::pair<std::string, trace_stage_fn<T>>>& trace_kernels(int stage);

template <class T>
bool register_trace_kernel(const char* track, int stage, trace_stage_fn<T> fn) {
  auto& list = trace_kernels<T>(stage);
  if (std::string(track) == "solution") list.insert(list.begin(), {track, fn});
  else list.emplace_back(track, fn);
  return true;
}

}  // namespace scan

// In a track's host file: registers the track's stage function for --trace.
#define SCAN_TRACE_STRING2(x) #x
#define SCAN_TRACE_STRING(x) SCAN_TRACE_STRING2(x)
#define SCAN_REGISTER_TRACE_KERNEL(stage, fn)                                                                      \
  namespace {                                                                                                     \
  [[maybe_unused]] const bool scan_trace_registered_##fn =                                                        \
      ::scan::register_trace_kernel<std::int32_t>(SCAN_TRACE_STRING(WB_TRACK), stage, &fn<std::int32_t>) &&       \
      ::scan::register_trace_kernel<std::int64_t>(SCAN_TRACE_STRING(WB_TRACK), stage, &fn<std::int64_t>) &&       \
      ::scan::register_trace_kernel<float>(SCAN_TRACE_STRING(WB_TRACK), stage, &fn<float>);                       \
  }
