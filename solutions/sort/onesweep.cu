// Stage 5: onesweep radix sort (Adinets & Merrill 2022, "Onesweep: A Faster Least
// Significant Digit Radix Sort for GPUs"; the design of CUB's DeviceRadixSort), 8-bit digits.
//
// Stages 1-4 read the keys twice per pass (count, then scatter) and scan a count per block
// and bucket in between. Onesweep reads and writes them once per pass:
//   1. one histogram kernel counts every pass's digits in a single read of the input, so
//      every pass knows where its buckets start before the first pass runs; a pass in which
//      every key has the same digit changes nothing and is skipped (the plan kernel);
//   2. each pass is one kernel. A tile (its number from an atomic counter, so earlier tiles
//      are running) holds its keys in registers, counts its digits and publishes the counts;
//      ranks its keys within each warp (which lanes hold the same digit: 8 ballots, masks
//      or-ed together in shared memory, or __match_any_sync); looks back over earlier
//      tiles' published counts, one thread per digit (the decoupled look-back the scan
//      chapter teaches, here the workbook's wb/device/decoupled_lookback.cuh); then writes
//      its keys through shared memory in digit order, so each bucket's run is stored by
//      neighbouring threads to neighbouring addresses.
// The chapter README (stage 5) walks through it; onesweep.hpp holds the tile shapes and the
// choices they make (which the stage runs for which keys: stage_shape there).
//
//   onesweep_histogram.cuh   the histogram kernel and the plan kernel (kernels 1 and 2)
//   onesweep_pass.cuh        the pass kernel (kernel 3)
//   onesweep_few_digits.cuh  (keys without values, past the exercise) kernel 3b: a pass whose digit
//                            takes few values, ranked by __match_any_sync
//   onesweep_host.inl        the launches (shared by both tracks)
#include "onesweep_histogram.cuh"
#include "onesweep_pass.cuh"
#include "onesweep_few_digits.cuh"

#include "onesweep_host.inl"  // the host side of stage 5, shared by both tracks
