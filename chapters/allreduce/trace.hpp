// --trace: the ring's schedule (stage 3), step by step: which segment moves from which rank to
// which, as text, and with --svg as a picture (ranks down, steps across, one arrow per
// transfer, coloured by segment). Both read the schedule of the track that runs, and the text
// says whether that schedule leaves the sum on every rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "allreduce.hpp"

namespace allreduce {

// The most ranks and steps --svg draws legibly.
inline constexpr int max_svg_ranks = 8;

// The schedule as text, then what it computes: the plan is played as allreduce_ring issues it
// (each element of each rank's output followed as the ranks' inputs it holds), and the last line
// says "correct" only when every rank ends with in[0] + ... + in[G-1] at every element, once
// each; else it starts with "!!" and names the first wrong element (by rank, then index), what
// it holds and how many are wrong. A transfer the ring cannot issue (a rank out of range, not to
// the next rank, elements outside [0, n)) is named instead. *correct (when given) says which.
std::string ring_trace_text(const std::vector<ring_transfer>& plan, int ranks, std::int64_t n, std::int64_t chunk,
                            bool* correct = nullptr);
void ring_trace_svg(const std::vector<ring_transfer>& plan, int ranks, std::int64_t n, const std::string& path);
// --trace: prints ring_trace_text, draws the SVG when `svg` is not empty, and returns the exit
// status: 0 when the schedule computes the sum, 1 when it does not (as the other chapters'
// traces do for a wrong result).
int ring_trace(const std::vector<ring_transfer>& plan, int ranks, std::int64_t n, std::int64_t chunk, const std::string& svg);

}  // namespace allreduce
