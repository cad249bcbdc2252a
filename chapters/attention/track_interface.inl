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

// ---- Stage 6: decoding (Flash-Decoding): seq <= 16 queries against a long KV cache --------
// The keys are split over warps; each writes a partial (max, sum, unnormalised output) into
// `partials` (decode_workspace_bytes(d, cfg) bytes, launch_shapes.hpp), a second kernel
// combines them.
void attention_decode(const problem<float>& device, wb::workspace partials, const decode_config& cfg = {});
void attention_decode(const problem<bf16>& device, wb::workspace partials, const decode_config& cfg = {});
