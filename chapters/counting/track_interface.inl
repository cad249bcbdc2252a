// The stage functions of one track. Included by counting.hpp inside namespace
// counting::solution and again inside counting::exercise (no include guard on purpose); the
// types (entry, device_table, workspace, config) come from counting.hpp.
//
// Each stage's comment says where it comes from in the distribution counting article
// ("Implementing a parallel scalable distribution counting algorithm (DCA) using the CUDA 8.0
// runtime API", CodeProject) and which of its defects (D1-D11, and D12-D13 found while writing
// this chapter; the README's defect table) the stage fixes. T is std::int8_t or std::int64_t
// unless the stage says otherwise.

// ---- Stage 0: the article's sequential algorithm: the specification -------------------------
// dist_count ("Distribution counting algorithm overview"): for every item, count its duplicates
// among the items after it, then append (value, count) unless the value is in the table already.
// About N*(N+k)/2 comparisons (D1): above max_quadratic_host_items it throws stage_refused.
// dist_count_first_seen returns the article's order; dist_count the chapter's (ascending).
template <class T>
std::vector<entry<T>> dist_count_first_seen(std::span<const T> data);
template <class T>
std::vector<entry<T>> dist_count(std::span<const T> data);

// ---- Stage 1: the article's OpenMP version, fixed ------------------------------------------
// omp_dist_count ("Code optimized with Intel OpenMP"): the same O(N^2) algorithm over all cores,
// with every item counted (D2), value 0 recorded (D3), 64-bit indices, one parallel loop and
// no lock in it (D4). threads == 0: OpenMP's default. Refused above max_quadratic_host_items.
template <class T>
std::vector<entry<T>> omp_dist_count(std::span<const T> data, int threads = 0);

// ---- Stage 2: what a CPU programmer writes ------------------------------------------------
// int8: a counting array of 256 counters, one pass. int64: sort a copy, then run-length encode.
template <class T>
std::vector<entry<T>> count_cpu(std::span<const T> data);

// ---- Stage 3: the direct GPU port (O(N^2), small N only) ---------------------------------
// One thread per item counts the item's duplicates over the whole input (through shared-memory
// tiles); the thread whose item is the FIRST occurrence of its value reports it. "First" is
// decided from the input alone, which no one writes, so the rule is race-free (D12). A second
// kernel ranks the reported values to write them in ascending order. Refused above
// max_quadratic_device_items.
template <class T>
std::size_t count_direct_port_workspace_bytes(std::int64_t n);
template <class T>
void count_direct_port(const T* in, std::int64_t n, device_table<T> out, workspace ws, const config& cfg = {});

// ---- Stage 4: the article's dynamic parallelism, done right for CUDA 12+ (GPU only) --------
// cdpCountChunkKernel / cdpCountIfKernel / cdpMergeReduction, rebuilt: one parent block per
// chunk finds the first occurrence of each value in its chunk and launches a count-if child grid
// for it (fire-and-forget); the merge of the chunk tables runs as a TAIL LAUNCH, which starts
// only when the parent grid and all its children are done, instead of the device-side
// cudaDeviceSynchronize that CUDA 12 removed (D5). Fixes D5-D9 and D13. On the cpu backend it
// throws stage_refused: the emulator does not run device-side launches.
template <class T>
std::size_t count_dynamic_parallelism_workspace_bytes(std::int64_t n, const config& cfg = {});
template <class T>
void count_dynamic_parallelism(const T* in, std::int64_t n, device_table<T> out, workspace ws,
                               const config& cfg = {});
// Its building blocks, launched from the host (so the checks of D6-D9 run on every backend):
//   count_if_value: *count += #{ i < n : in[i] == value } (the child grid, D6, D7);
//   merge_chunk_tables: slot i holds (slot_value[i], slot_count[i]) when slot_count[i] > 0,
//   the table of the chunk [c*chunk, (c+1)*chunk) that slot i lies in; the merge adds the
//   counts of equal values over all chunks (D8, D9) and writes the ascending table to out
//   (merged[] is scratch, n entries).
template <class T>
void count_if_value(const T* in, std::int64_t n, T value, std::uint64_t* count, const config& cfg = {});
template <class T>
void merge_chunk_tables(const T* slot_value, const std::uint64_t* slot_count, std::int64_t n, std::int64_t chunk,
                        std::uint64_t* merged, device_table<T> out);

// ---- Stage 5: a histogram with global-memory atomics (int8) -------------------------------
// One atomicAdd per item on one of 256 counters in global memory (PMPP ch. 9, Fig. 9.6).
std::size_t histogram_global_atomics_workspace_bytes();
void histogram_global_atomics(const std::int8_t* in, std::int64_t n, device_table<std::int8_t> out, workspace ws,
                              const config& cfg = {});

// ---- Stage 6: a privatized histogram (int8): the one that must beat the library ---------------
// Every thread counts into its own 8- or 16-bit counters in shared memory (PMPP §9.4-9.5:
// privatization; here down to the thread, so no two threads ever touch one counter), reads
// 16 bytes a load, and the blocks add their counts into the 256 global counters at the end.
std::size_t histogram_privatized_workspace_bytes();
void histogram_privatized(const std::int8_t* in, std::int64_t n, device_table<std::int8_t> out, workspace ws,
                          const config& cfg = {});
// The counting part alone: bins[(uint8_t)v] += occurrences of v in in[0, n). Stage 8 calls it
// once per chunk.
void histogram_privatized_accumulate(const std::int8_t* in, std::int64_t n, std::uint64_t* bins,
                                     const config& cfg = {}, cudaStream_t stream = 0);

// ---- Stage 7: wide keys (int64): hash tables where keys repeat, a sort where they do not -----
// Open addressing, one atomicCAS to claim a slot for a new key and one atomicAdd on its count;
// then the occupied slots are compacted and only the distinct keys sorted. A sample of the
// input estimates the distinct keys, and plan_hash_count chooses the path from it (host code:
// a decision table; the configuration may force a path, cfg.hash.path). The exercise has one
// path, one global hash table (and the sort when the table fills); the solution adds shared-
// memory tables per block and a two-level count (buckets, then a shared table per bucket). The
// stage names its choice with set_stage_note. The library path (CUB radix sort + run-length
// encode) is the baseline in chapters/counting.
hash_plan plan_hash_count(std::int64_t n, const sample_summary& sample, const hash_count_config& cfg = {});
std::size_t count_hash_table_workspace_bytes(std::int64_t n, const config& cfg = {});
void count_hash_table(const std::int64_t* in, std::int64_t n, device_table<std::int64_t> out, workspace ws,
                      const config& cfg = {});

// ---- Stage 8: data larger than one transfer: the chunked host pipeline, fixed (int8) ----------
// cdpDistCountLaunch, rebuilt: the input stays in PINNED host memory and moves in chunks of
// cfg.chunk_items, each copied on one of cfg.streams streams while the previous chunks are
// counted, every chunk whole (D10), all of them into ONE table on the device, with no device
// synchronisation and no host merge per chunk (D11). `host_in` must be pinned (cudaMallocHost)
// for the copies to overlap.
std::size_t count_pipelined_workspace_bytes(const config& cfg = {});
void count_pipelined(const std::int8_t* host_in, std::int64_t n, device_table<std::int8_t> out, workspace ws,
                     const config& cfg = {});
