// The stage functions of one track. Included by attention.hpp inside namespace
// attention::solution and again inside attention::exercise (no include guard, on purpose):
// both tracks have this interface, and the executable calls either (--track, --compare).

// ---- Stage 0: the specification, on the host -------------------------------------------
// O = softmax(Q K^T / sqrt(d) + mask) V, every score, max, sum and product in double, O
// rounded once to fp32. HOST pointers.
void attention_sequential(const problem<float>& host);

// ---- Stage 1: three kernels, S materialised ----------------------------------------------
// S = Q K^T / sqrt(d) (masked), P = softmax(S) row by row, O = P V. `scores` holds S:
// scores_workspace_bytes(d) bytes (launch_shapes.hpp) of device memory.
void attention_three_kernels(const problem<float>& device, wb::workspace scores);

// ---- Stage 2: one fused kernel, the online softmax (Milakov & Gimelshein 2018) ------------
void attention_online(const problem<float>& device);

// ---- Stage 3: FlashAttention-2 tiling in shared memory, fp32 on CUDA cores ----------------
void attention_tiled(const problem<float>& device);

// ---- Stage 4: tensor cores (mma.sync m16n8k16), bf16 K and V, FlashAttention-2 ------------
// Q is rounded to bf16 as it is loaded; S and O accumulate in fp32; P is rounded to bf16 for
// P V. d of 16, 32, 64 or 128, K and V 16-byte aligned (std::invalid_argument otherwise).
void attention_tensor_core(const problem<bf16>& device);

// ---- Stage 5: FlashAttention-3 on Hopper: TMA, mbarrier rings, wgmma, warp specialisation --
// The same arithmetic as stage 4 (bf16 Q, K, V and P; fp32 S, softmax and O). d of 64 or 128,
// K and V 16-byte aligned (std::invalid_argument otherwise); an sm_90 GPU and code built for
// sm_90a (wb::stage_refused otherwise, and always on the cpu backend). One launch at a time
// per device: its persistent blocks share one work counter.
void attention_hopper(const problem<bf16>& device);

// ---- Stage 6: decoding (Flash-Decoding): seq <= 16 queries against a long KV cache --------
// The keys are split over warps; each writes a partial (max, sum, unnormalised output) into
// `partials` (decode_workspace_bytes(d, cfg) bytes, launch_shapes.hpp), a second kernel
// combines them.
void attention_decode(const problem<float>& device, wb::workspace partials, const decode_config& cfg = {});
void attention_decode(const problem<bf16>& device, wb::workspace partials, const decode_config& cfg = {});
