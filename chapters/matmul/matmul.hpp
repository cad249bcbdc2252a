// The matmul chapter's interface: one function per stage, the same for both tracks.
//
//   C[M][N] = A[M][K] · B[K][N]      every matrix row-major, leading dimensions K, N, N
//
// Both tracks (solutions/matmul/ and exercises/matmul/) implement track_interface.inl with
// the same file names; each is compiled with WB_TRACK=solution or WB_TRACK=exercise, so their
// code lives in matmul::solution and matmul::exercise and both link into one program.
//
// Conventions (common/README.md):
//   - stages 1-6 take DEVICE pointers and 64-bit sizes, enqueue on the default stream and copy
//     nothing between host and device themselves (so they can be timed);
//   - stage 0 (the specification) takes HOST pointers;
//   - stages 0-4 multiply fp32 matrices (fp32 products and sums); stages 5-6 multiply bfloat16
//     matrices on the tensor cores, adding in fp32 and rounding C to bfloat16 once at the end;
//   - any M, N, K >= 0: a zero M or N is an empty C, a zero K an all-zero C;
//   - a variant a stage does not have, or a problem a stage cannot take, throws
//     std::invalid_argument saying what is allowed; a stage that cannot run on this machine
//     (stage 6 without an sm_90 GPU) throws matmul::stage_unavailable.
#pragma once

#include <cstddef>
#include <cstdint>

#include "wb/bf16.hpp"
#include "wb/stage.hpp"
#include "wb/workspace.hpp"

namespace matmul {

using bf16 = wb::bf16;

template <class T>
struct problem {
  const T* A = nullptr;  // M x K
  const T* B = nullptr;  // K x N
  T* C = nullptr;  // M x N
  std::int64_t M = 0;
  std::int64_t N = 0;
  std::int64_t K = 0;
};
using fp32_problem = problem<float>;
using bf16_problem = problem<bf16>;

// Which compiled variant of a stage runs: an index into the stage's list in variants.hpp
// (0 is the stage's default). Each variant is one template instantiation, chosen at run time.
struct config {
  int variant = 0;
};

// A stage that cannot run here (the machine lacks what it needs), with the reason: the
// executable notes "refused: <why>" in the stage's row.
using stage_unavailable = wb::stage_refused;

// Both tracks' stage functions (track_interface.inl): tests call this build's track as
// matmul::WB_TRACK::..., the executable calls either.
namespace solution {
#include "track_interface.inl"
}  // namespace solution
namespace exercise {
#include "track_interface.inl"
}  // namespace exercise

}  // namespace matmul
