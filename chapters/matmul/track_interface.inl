// The stage functions of one track. Included by matmul.hpp inside namespace matmul::solution
// and again inside namespace matmul::exercise (no include guard, on purpose): both tracks have
// this interface, and the executable calls either (--track, --compare).

// ---- Stage 0: the specification (PMPP §3.4, Fig. 3.11, on the host) ---------------------
// C = A · B in fp32, each C[i][j] summed in k order. HOST pointers.
void matmul_sequential_host(const fp32_problem& host);

// ---- Stage 1: one thread per output (PMPP §3.4, Fig. 3.11) ------------------------------
// Variants: x-column (threadIdx.x walks the columns of C: coalesced), x-row (the pitfall).
void matmul_naive(const fp32_problem& device, const config& cfg = {});

// ---- Stage 2: tiles in shared memory (PMPP §5.4-5.5, Figs. 5.9 and 5.13) ----------------
void matmul_tiled(const fp32_problem& device, const config& cfg = {});

// ---- Stage 3: thread coarsening (PMPP §6.3, Fig. 6.13), then a 2-D register tile ----------
void matmul_coarsened(const fp32_problem& device, const config& cfg = {});

// ---- Stage 4: the fp32 ceiling without tensor cores --------------------------------------
void matmul_fp32_ceiling(const fp32_problem& device, const config& cfg = {});

// ---- Stage 5: tensor cores through WMMA, bf16 in, fp32 accumulate; cp.async stages -------
void matmul_wmma(const bf16_problem& device, const config& cfg = {});

// ---- Stage 6: Hopper: TMA, an mbarrier ring, wgmma, warp specialisation, persistent -------
// Needs an sm_90 GPU (throws stage_unavailable elsewhere, the cpu backend included).
// `workspace` is device memory of hopper_workspace_bytes(...) bytes (0 for most shapes: only
// when K or N is no multiple of 8 are A or B first copied with padded rows, which the tensor
// memory accelerator needs).
std::size_t hopper_workspace_bytes(std::int64_t M, std::int64_t N, std::int64_t K, const config& cfg = {});
void matmul_hopper(const bf16_problem& device, wb::workspace workspace, const config& cfg = {});
