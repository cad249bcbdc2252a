// counting::validate and the comparison count of the article's algorithm (counting.hpp).
#include <stdexcept>
#include <string>
#include <utility>

#include "counting.hpp"
#include "wb/check.hpp"
#include "wb/runtime.hpp"

namespace counting {

void validate(const config& cfg) {
  auto fail = [](const std::string& what) { throw std::invalid_argument("counting config: " + what); };
  if (cfg.block < 32 || cfg.block > 1024 || cfg.block % 32 != 0)
    fail("block must be a multiple of 32 from 32 to 1024 (got " + std::to_string(cfg.block) + ")");
  if (cfg.blocks_per_sm < 0 || cfg.blocks_per_sm > 32)
    fail("blocks_per_sm must be 0 (as many as fit) to 32 (got " + std::to_string(cfg.blocks_per_sm) + ")");
  if (cfg.blocks < 0) fail("blocks must be >= 0 (0: one wave), got " + std::to_string(cfg.blocks));
  if (cfg.variant < 0 || cfg.variant > 3)
    fail("variant (stage 6's counter layout) must be 0 to 3 (got " + std::to_string(cfg.variant) + ")");
  const hash_count_config& h = cfg.hash;
  if (h.path < hash_path::automatic || h.path > hash_path::global_table)
    fail("hash.path must be one of stage 7's paths (got " + std::to_string(static_cast<int>(h.path)) + ")");
  if (h.expected_distinct < 0)
    fail("hash.expected_distinct must be >= 0 (0: estimate), got " + std::to_string(h.expected_distinct));
  if (h.aggregate < -1 || h.aggregate > 2)
    fail("hash.aggregate must be -1 (the path's own), 0, 1 or 2 (got " + std::to_string(h.aggregate) + ")");
  if (h.partition_bits < -1 || h.partition_bits > 3)
    fail("hash.partition_bits must be -1 (planned) or 0 to 3 (got " + std::to_string(h.partition_bits) + ")");
  if (h.bucket_bits < -1 || h.bucket_bits > 12)
    fail("hash.bucket_bits must be -1 (planned) or 0 to 12 (got " + std::to_string(h.bucket_bits) + ")");
  if (!(h.aside_share == -1 || (h.aside_share >= 0 && h.aside_share <= 1)))
    fail("hash.aside_share must be -1 (the plan's) or 0 to 1 (got " + std::to_string(h.aside_share) + ")");
  if (cfg.dp_chunk < 1 || cfg.dp_chunk > (std::int64_t{1} << 20))
    fail("dp_chunk must be 1 to 2^20 items (got " + std::to_string(cfg.dp_chunk) + ")");
  if (cfg.chunk_items < 1 || cfg.chunk_items > (std::int64_t{1} << 31))
    fail("chunk_items must be 1 to 2^31 items (got " + std::to_string(cfg.chunk_items) + ")");
  if (cfg.streams < 1 || cfg.streams > 16)
    fail("streams must be 1 to 16 (got " + std::to_string(cfg.streams) + ")");
}

namespace {
// One per host thread: the executables and checks run one stage at a time on each, and the
// allreduce chapter runs stage 7 on several GPUs at once, one host thread each.
thread_local std::string last_stage_note;
}

void set_stage_note(std::string note) { last_stage_note = std::move(note); }
std::string take_stage_note() {
  std::string note = std::move(last_stage_note);
  last_stage_note.clear();
  return note;
}

double quadratic_comparisons(double n, double k) {
  // Loop { 2 } compares every item with the items after it: n(n-1)/2. Loop { 3 } searches the
  // table, which grows to k entries: about k/2 comparisons for each of n items.
  return n * (n - 1) / 2 + n * k / 2;
}

}  // namespace counting
