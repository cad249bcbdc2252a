// The stage functions of one track. Included by scan.hpp inside namespace scan::solution and
// again inside scan::exercise (no include guard, on purpose): both tracks implement them
// (solutions/scan/, exercises/scan/), and the executable calls either (--track, --compare).
// Each is instantiated for T = int32_t, int64_t, float.

// 0: the specification, on the host.
template <class T>
void scan_sequential(std::span<const T> in, std::span<T> out, bool exclusive);
// 1: Kogge-Stone, one block sweeping the input section by section (PMPP §11.2).
template <class T>
void scan_kogge_stone(const T* in, T* out, std::int64_t n, const workspace& ws, const config& cfg);
// 2: Brent-Kung, one block, two items a thread (PMPP §11.4).
template <class T>
void scan_brent_kung(const T* in, T* out, std::int64_t n, const workspace& ws, const config& cfg);
// 3: thread coarsening, three phases, one block (PMPP §11.5).
template <class T>
void scan_coarsened(const T* in, T* out, std::int64_t n, const workspace& ws, const config& cfg);
// 4: hierarchical: scan sections, scan the section sums, add them back (PMPP §11.6).
template <class T>
void scan_hierarchical(const T* in, T* out, std::int64_t n, const workspace& ws, const config& cfg);
// 5: single pass, each tile waits for its neighbour's carry ("domino", PMPP §11.7).
template <class T>
void scan_domino(const T* in, T* out, std::int64_t n, const workspace& ws, const config& cfg);
// 6: single pass at bandwidth: decoupled look-back, persistent blocks (Merrill & Garland).
template <class T>
void scan_single_pass(const T* in, T* out, std::int64_t n, const workspace& ws, const config& cfg);
