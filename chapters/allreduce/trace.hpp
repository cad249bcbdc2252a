// --trace: the ring's schedule (stage 3), step by step: which segment moves from which rank to
// which, as text, and with --svg as a picture (ranks down, steps across, one arrow per
// transfer, coloured by segment). Both read the schedule of the track that runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "allreduce.hpp"

namespace allreduce {

// The most ranks and steps --svg draws legibly.
inline constexpr int max_svg_ranks = 8;

std::string ring_trace_text(const std::vector<ring_transfer>& plan, int ranks, std::int64_t n, std::int64_t chunk);
void ring_trace_svg(const std::vector<ring_transfer>& plan, int ranks, std::int64_t n, const std::string& path);

}  // namespace allreduce
