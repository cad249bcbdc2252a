// Scratch device memory that a stage carves into pieces (block sums, flags, tile states,
// counters): the workspace, the carver that hands out its pieces, and a buffer that owns one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "wb/device_buffer.hpp"

namespace wb {

struct workspace {
  unsigned char* bytes = nullptr;
  std::size_t size = 0;
};

// The bytes a piece of `bytes` takes in a workspace: rounded up to 16, as carver::take
// rounds. A stage's workspace size is the sum of its pieces' piece_bytes.
constexpr std::size_t piece_bytes(std::size_t bytes) { return (bytes + 15) / 16 * 16; }

// Hands out 16-byte aligned pieces of a workspace, in order; throws std::invalid_argument
// naming the stage when the workspace is too small.
class carver {
 public:
  carver(const workspace& ws, const char* stage) : ws_(ws), stage_(stage) {}
  template <class U>
  U* take(std::int64_t count) {
    const std::size_t bytes = piece_bytes(static_cast<std::size_t>(count) * sizeof(U));
    if (offset_ + bytes > ws_.size) {
      throw std::invalid_argument(std::string(stage_) + ": the workspace holds " + std::to_string(ws_.size) +
                                  " bytes, the stage needs more (allocate it with workspace_buffer for this n "
                                  "and config)");
    }
    U* p = reinterpret_cast<U*>(ws_.bytes + offset_);
    offset_ += bytes;
    return p;
  }
  std::size_t used() const { return offset_; }
  workspace rest() const { return {ws_.bytes + offset_, ws_.size - offset_}; }

 private:
  workspace ws_;
  const char* stage_;
  std::size_t offset_ = 0;
};

// Owns a workspace of at least `bytes` (16 at the least), poisoned with 0xA5 so that a
// flag, count or sum nobody wrote is visible.
class workspace_buffer {
 public:
  explicit workspace_buffer(std::size_t bytes) : bytes_(std::max<std::size_t>(bytes, 16)) { bytes_.fill_bytes(0xA5); }
  workspace view() { return {bytes_.data(), bytes_.size()}; }

 private:
  device_buffer<unsigned char> bytes_;
};

}  // namespace wb
