// The host loop every radix stage (1-4) shares: one pass per digit, least significant
// first (PMPP §13.2), each pass three steps:
//   1. count: every block counts the keys of its tile per digit value (bucket);
//   2. scan:  an exclusive scan of the counts, laid out digit-major (all blocks' counts of
//             digit 0, then of digit 1, ...), gives every (digit, block) pair the place where
//             its keys start in the output: the scan chapter's single-pass scan (stage 6);
//   3. scatter: every block writes its keys there, in input order within a bucket (stable).
// Passes ping-pong between the output and a buffer of the workspace, ending in the output.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "scan.hpp"
#include "sort.hpp"

namespace sort {

// The configuration of the scan of the bucket counts: exclusive.
inline scan::config count_scan_config() { return scan::config{256, 0, true}; }

// count(src_keys, counts, n, shift, blocks) launches step 1 for the digit at `shift`;
// scatter(src_keys, src_values, dst_keys, dst_values, offsets, n, shift, blocks) step 3
// (values pointers are nullptr when sorting keys only).
template <class K, class Count, class Scatter>
void radix_passes(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                  std::int64_t n, const workspace& ws, std::int64_t tile, int bits, const char* stage, Count count,
                  Scatter scatter) {
  if (n == 0) return;
  const int passes = static_cast<int>(sizeof(bits_of<K>) * 8) / bits;
  const std::int64_t blocks = (n + tile - 1) / tile;
  if (blocks > 2147483647) throw std::invalid_argument(std::string(stage) + ": more than 2^31 - 1 blocks");
  const std::int64_t buckets = blocks << bits;
  carver pieces(ws, stage);
  K* other_keys = pieces.take<K>(n);
  std::uint32_t* other_values = pieces.take<std::uint32_t>(n);
  auto* counts = pieces.take<std::int64_t>(buckets);
  auto* offsets = pieces.take<std::int64_t>(buckets);
  const workspace scan_ws = pieces.rest();  // the scan chapter carves the same kind of workspace
  const bool with_values = values_in != nullptr;
  const K* src_keys = keys_in;
  const std::uint32_t* src_values = values_in;
  for (int pass = 0; pass < passes; ++pass) {
    const bool last_lands_in_output = (passes - 1 - pass) % 2 == 0;
    K* dst_keys = last_lands_in_output ? keys_out : other_keys;
    std::uint32_t* dst_values = with_values ? (last_lands_in_output ? values_out : other_values) : nullptr;
    count(src_keys, counts, n, pass * bits, blocks);
    scan::solution::scan_single_pass<std::int64_t>(counts, offsets, buckets, scan_ws, count_scan_config());
    scatter(src_keys, src_values, dst_keys, dst_values, offsets, n, pass * bits, blocks);
    src_keys = dst_keys;
    src_values = dst_values;
  }
}

}  // namespace sort
