// The merge chapter's interface: one function per stage, the same for both tracks.
//
// Both tracks (solutions/merge/ and exercises/merge/) implement the declarations of
// track_interface.inl with the same file names; the build compiles each with
// WB_TRACK=solution or WB_TRACK=exercise, so their code lives in merge::solution and
// merge::exercise and both link into one program.
//
// Conventions (common/README.md):
//   - stages 2-6 take DEVICE pointers and 64-bit sizes, enqueue on the default stream and copy
//     nothing between host and device themselves (so they can be timed);
//   - stage 0 (the specification) takes HOST pointers;
//   - a bad configuration (block, tile, items per thread) throws std::invalid_argument with a
//     message that says what is allowed (M11): see merge::resolve() in config.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "config.hpp"

namespace merge {

// The payload of a key-value merge: 32-bit, carried with its key, stable (on equal keys the
// element of A comes first, and within A or B the input order is kept).
using value_t = std::int32_t;

// One merge: C[0, m+n) = merge of sorted A[0, m) and sorted B[0, n).
// Keys only when the three value pointers are null; key-value when all three are set.
template <class K>
struct problem {
  const K* A = nullptr;
  std::int64_t m = 0;
  const K* B = nullptr;
  std::int64_t n = 0;
  K* C = nullptr;
  const value_t* A_val = nullptr;
  const value_t* B_val = nullptr;
  value_t* C_val = nullptr;

  bool has_values() const { return C_val != nullptr; }
};

// The key types every stage is built for. Floating-point keys must be NaN-free (NaN breaks
// the order every merge relies on); -0.0 and +0.0 are equal keys.
#define MERGE_FOR_EACH_KEY(X) X(std::int32_t) X(std::int64_t) X(float)

// Both tracks' stage functions (track_interface.inl): tests call this build's track as
// merge::WB_TRACK::..., the executable calls either.
namespace solution {
#include "track_interface.inl"
}  // namespace solution
namespace exercise {
#include "track_interface.inl"
}  // namespace exercise

}  // namespace merge
