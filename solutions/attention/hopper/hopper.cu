// Stage 5: FlashAttention-3 on Hopper (Shah et al. 2024): the TMA streams K and V tiles into
// rings of shared memory (a producer warp), wgmma computes S = Q K^T and O += P V on the tensor
// cores in bf16 with fp32 accumulators, the online softmax runs on the accumulators while the
// tensor cores work on the previous tile's P V, and persistent blocks draw their work.
//
//   producer.cuh   the TMA producer (3D tensor maps: rows past kv_seq read as zeros)
//   softmax.cuh    the online softmax on wgmma's accumulators; P as a register operand
//   consumer.cuh   Q into shared memory, the GEMMs one tile apart, ping-pong, O's store
// and, the same for both tracks, in chapters/attention/hopper/:
//   shape.cuh      the tiles, the shared-memory plan, the ring bookkeeping, block order
//   scheduler.cuh  which work item a block takes next (persistent blocks)
//   kernel.cuh     warp specialisation and setmaxnreg
//   launch.cuh     the host side: the tensor maps, the launch, attention_hopper()
//
// K and V are bf16, Q is fp32 and rounded to bf16 by the consumers (the tensor cores multiply
// bf16), P is rounded to bf16 before P V; the scores, the softmax and O are fp32. d = 64 or 128.
// The kernels exist for sm_90a only (wgmma, setmaxnreg); compiled for any other target this
// file holds kernels that trap, and the host refuses to launch them (require_sm90). One launch
// at a time per device: persistent blocks share one counter (scheduler.cuh).
#include "hopper/shape.cuh"

namespace attention::WB_TRACK::hopper {

// The shapes the stage launches: two consumers, persistent blocks, key tiles of 176 (d = 128,
// two stages fill 212 KiB) and 192 (d = 64, three stages), the consumers taking turns for
// d = 64 only (the measurements behind these: bench/attention/NOTES.md, stage 5).
using d64 = shape<64, 2, 3, true, true, 192>;
using d128 = shape<128, 2, 2, false, true, 176>;

}  // namespace attention::WB_TRACK::hopper

#include "hopper/launch.cuh"  // the kernels, the tensor maps, the launch, attention_hopper()
