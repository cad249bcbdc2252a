// The stage functions of one track. Included by merge.hpp inside namespace merge::solution
// and again inside namespace merge::exercise (no include guard, on purpose): both tracks
// have this interface, and the executable calls either (--track, --compare).
// Each track defines these in its own namespace, merge::WB_TRACK.

// ---- Stage 0: the specification (PMPP §12.2, Fig. 12.2) --------------------------------
// Sequential, stable merge on the HOST. Every other stage is checked against it.
template <class K>
void merge_sequential_host(const problem<K>& host);

// ---- Stage 1: co_rank (§12.4, Fig. 12.5) ------------------------------------------------
// The i of C[k]: C[0, k) is the merge of A[0, i) and B[0, k-i), with the stable tie rule.
// The same function the kernels use, called on the host (host pointers)...
template <class K>
std::int64_t co_rank_host(std::int64_t k, const K* A, std::int64_t m, const K* B, std::int64_t n);
// ...and on the device for every k in [0, m+n]: i_of_k[k] = co_rank(k, ...) (m+n+1 entries).
template <class K>
void co_rank_device(const K* A, std::int64_t m, const K* B, std::int64_t n, std::int64_t* i_of_k);

// Where part p of `parts` equal contiguous parts of [0, total) begins (the threads' output
// ranges in stage 2, the blocks' in stages 3-4). Host-callable for the M4/M5/M12 checks.
std::int64_t part_begin_host(std::int64_t p, std::int64_t parts, std::int64_t total);

// ---- Stage 2: basic kernel (§12.5, Fig. 12.9) -------------------------------------------
template <class K>
void merge_basic(const problem<K>& device, const config& cfg = {});

// ---- Stage 3: tiled kernel (§12.6, Figs. 12.11-12.13) -----------------------------------
template <class K>
void merge_tiled(const problem<K>& device, const config& cfg = {});

// ---- Stage 4: circular-buffer kernel (§12.7, Figs. 12.16-12.20) -------------------------
template <class K>
void merge_circular(const problem<K>& device, const config& cfg = {});
// The circular-buffer co-rank, on the host, for the M10 check: A_S and B_S are circular
// buffers of tile_size slots whose tiles start at A_S_start and B_S_start (§12.7, Fig. 12.17B).
template <class K>
int co_rank_circular_host(int k, const K* A_S, int m, const K* B_S, int n, int A_S_start, int B_S_start,
                          int tile_size);

// ---- Stage 5: thread coarsening (§12.8) -------------------------------------------------
// One exact tile of blockDim.x * items_per_thread outputs per block.
template <class K>
void merge_coarsened(const problem<K>& device, const config& cfg = {});

// Stage 5's block-level searches alone (co_rank of every tile boundary, one thread each),
// timed by the coarsening sweep: ceil((m+n) / tile_items) + 1 values.
template <class K>
void merge_coarsened_searches(const K* A, std::int64_t m, const K* B, std::int64_t n, std::int64_t tile_items,
                              std::int64_t* out);

// ---- Stage 6: at bandwidth (after the book) ---------------------------------------------
// A partition pass (co-rank of every tile boundary, once), then one block per tile:
// coalesced loads into shared memory, register-blocked merges, coalesced stores.
// `temp` is device memory of at least merge_at_bandwidth_temp_bytes(m, n, cfg) bytes.
template <class K>
std::size_t merge_at_bandwidth_temp_bytes(std::int64_t m, std::int64_t n, const config& cfg = {},
                                          bool with_values = false);
template <class K>
void merge_at_bandwidth(const problem<K>& device, void* temp, std::size_t temp_bytes, const config& cfg = {});
// The co-rank as stage 6 searches it (a lower bound, co_rank_lower_bound.cuh), on the host:
// the same answer as co_rank_host.
template <class K>
std::int64_t co_rank_lower_bound_host(std::int64_t k, const K* A, std::int64_t m, const K* B, std::int64_t n);
// Only the partition pass of stage 6: co_rank of every tile boundary (num_tiles + 1 values).
// Timed alone by the coarsening sweep to show what the searches cost.
template <class K>
void merge_path_partitions(const K* A, std::int64_t m, const K* B, std::int64_t n, std::int64_t tile_items,
                           std::int64_t* partitions);
