// The stage functions of one track. Included by sort.hpp inside namespace sort::solution and
// again inside sort::exercise (no include guard, on purpose): both tracks implement them
// (solutions/sort/, exercises/sort/), and the executable calls either (--track, --compare).
// Each device stage reads n keys at keys_in (and values at values_in, or nullptr: keys only) and
// writes keys_out (values_out); each is instantiated for K = uint32_t, int32_t, float, int64_t.

// 0: the specification, on the host: stable, in place (values empty: keys only).
template <class K>
void sort_sequential(std::span<K> keys, std::span<std::uint32_t> values);
// 1: radix sort, one bit per pass (PMPP §13.3).
template <class K>
void sort_one_bit(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                  std::int64_t n, const workspace& ws, const config& cfg);
// 2: memory-coalesced: each block sorts its keys locally first (PMPP §13.4).
template <class K>
void sort_coalesced(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                    std::int64_t n, const workspace& ws, const config& cfg);
// 3: larger radix: 2, 4 or 8 bits per pass (PMPP §13.5).
template <class K>
void sort_larger_radix(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                       std::int64_t n, const workspace& ws, const config& cfg);
// 4: thread coarsening: several keys per thread (PMPP §13.6).
template <class K>
void sort_coarsened(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                    std::int64_t n, const workspace& ws, const config& cfg);
// 5: onesweep: one histogram pass, one kernel per digit with decoupled look-back.
template <class K>
void sort_onesweep(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                   std::int64_t n, const workspace& ws, const config& cfg);
// 6: merge sort: sort tiles in a block, then merge pass after pass (PMPP §13.7).
template <class K>
void sort_merge(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                std::int64_t n, const workspace& ws, const config& cfg);
