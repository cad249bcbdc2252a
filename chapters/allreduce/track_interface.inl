// The stage functions of one track. Included by allreduce.hpp inside namespace
// allreduce::solution and again inside allreduce::exercise (no include guard, on purpose).

// ---- Stage 0: the specification -------------------------------------------------------------
// The element-wise sum of the G vectors, on the host, adding in rank order: out[i] =
// ((in[0][i] + in[1][i]) + in[2][i]) + ... Every other stage is checked against it.
template <class T>
std::vector<T> allreduce_sequential(std::span<const std::vector<T>> inputs);

// ---- Stage 1: through the host ----------------------------------------------------------------
// Each GPU copies its vector to pinned host memory, the host adds them (in rank order), and
// each GPU copies the sum back. Returns once every rank's result is in place.
template <class T>
void allreduce_through_host(team& t, const buffers<T>& b);

// ---- Stage 2: reduce to one GPU with peer copies, then broadcast ------------------------------
// Every rank copies its vector into rank 0's scratch memory (cudaMemcpyPeerAsync on its own
// stream), rank 0 adds the G vectors in rank order once all have arrived (events across
// devices), and every rank copies the sum back from rank 0.
template <class T>
void allreduce_reduce_broadcast(team& t, const buffers<T>& b);
// Stage 2's kernel alone, on the current device: out[i] = terms[0][i] + ... + terms[k-1][i].
// (The stages after it add with it too.)
template <class T>
void sum_vectors(const T* const* terms, int k, T* out, std::int64_t n, cudaStream_t stream);

// ---- Stage 3: the ring ------------------------------------------------------------------------
// Every transfer of a ring all-reduce of n elements over G ranks, in the order they are issued:
// reduce-scatter (G-1 steps: at step s rank r sends segment (r - s) mod G to rank r + 1, which
// adds its own), then all-gather (G-1 steps: rank r sends segment (r + 1 - s) mod G, summed),
// each segment cut into pieces of at most `chunk` elements. Segment k is
// [part_begin(k, G, n, segment_align), part_begin(k + 1, G, n, segment_align)).
std::vector<ring_transfer> ring_schedule(int ranks, std::int64_t n, std::int64_t chunk);
// The ring on the team: peer copies on a copy stream and additions on a compute stream per
// rank, pipelined piece by piece, ordered by events.
template <class T>
void allreduce_ring(team& t, const buffers<T>& b, const config& cfg = {});

// ---- Stage 4: direct peer access from a kernel ----------------------------------------------
// One kernel per rank reads its peers' memory. Both start and end with a barrier across the
// ranks, through flags in each rank's memory (system-scope release/acquire).
//   one-shot: every rank reads all G vectors and adds them (G - 1 remote reads per element);
//   two-shot: rank r adds segment r only and writes the sum into every rank's output.
template <class T>
void allreduce_one_shot(team& t, const buffers<T>& b, const config& cfg = {});
template <class T>
void allreduce_two_shot(team& t, const buffers<T>& b, const config& cfg = {});

// ---- Stage 5: NCCL ----------------------------------------------------------------------------
// ncclAllReduce for every rank, in one group (one thread drives every GPU). Throws
// std::runtime_error where the build has no NCCL or the team puts two ranks on one GPU.
template <class T>
void allreduce_nccl(team& t, const buffers<T>& b);

// ---- Stage 6: an application: the counting chapter on data split across GPUs ---------------------
// The int8 histogram: rank r counts its items (the counting chapter's stage 6) into its 256
// bins, then the bins are all-reduced (stage 4, one-shot: 2 KiB is latency-bound). Afterwards
// bins[r] holds the histogram of ALL items, on every rank.
void histogram_across_gpus(team& t, app_workspace& ws, std::span<const std::int8_t* const> items,
                           std::span<const std::int64_t> counts, std::span<std::uint64_t* const> bins);
// The int64 distinct counts: rank r counts its keys (the counting chapter's stage 7) into a
// table of (key, count); the table's rows are sent to the rank that owns each key
// (owner_of_key), by NCCL or by peer copies, and each owner adds up the counts of its keys.
// Afterwards rank q's owned table (ws) holds every key q owns with its count over ALL ranks.
void distinct_across_gpus(team& t, app_workspace& ws, std::span<const std::int64_t* const> keys,
                          std::span<const std::int64_t> counts, exchange_method how);
