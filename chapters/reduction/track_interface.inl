// The stage functions of one track. Included by reduction.hpp inside namespace
// reduction::solution and again inside reduction::exercise (no include guard, on purpose): both
// tracks implement them (solutions/reduction/, exercises/reduction/), and the executable calls
// either (--track, --compare). Each is instantiated for T = int32_t, int64_t, float, double.

// 0: the specification, on the host (CUDA Handbook §12.2: what every kernel must match).
// Integer sums in 64 bits; float sums in double, double sums compensated (Neumaier).
template <class T>
sum_t<T> sum_sequential(std::span<const T> in);
// 1: two-pass, log-step tree in shared memory (Handbook listing 12-1).
template <class T>
void sum_two_pass(const T* in, std::int64_t n, sum_t<T>* out, const workspace<T>& ws,
                  const config& cfg);
// 2: the same, the last warp without __syncthreads (listing 12-2, fixed: R3, R4).
template <class T>
void sum_warp_synchronous(const T* in, std::int64_t n, sum_t<T>* out, const workspace<T>& ws,
                          const config& cfg);
// 3: block size as a template parameter, the tree fully unrolled (listings 12-3, 12-4).
template <class T>
void sum_unrolled(const T* in, std::int64_t n, sum_t<T>* out, const workspace<T>& ws,
                  const config& cfg);
// 4: warp shuffles instead of shared memory for the in-warp steps (past the book).
template <class T>
void sum_shuffle(const T* in, std::int64_t n, sum_t<T>* out, const workspace<T>& ws,
                 const config& cfg);
// 5: 16-byte loads, several in flight, one pass with a last-block-done ticket.
template <class T>
void sum_at_bandwidth(const T* in, std::int64_t n, sum_t<T>* out, const workspace<T>& ws,
                      const config& cfg);
