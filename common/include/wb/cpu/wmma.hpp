// WMMA (CUDA's warp matrix multiply-accumulate, <mma.h>) on the cpu backend: the subset of
// nvcuda::wmma the workbook uses, with CUDA's names and signatures (included by wb/wmma.hpp).
//
// A fragment is a warp's tile of a matrix spread over its 32 lanes; CUDA leaves the spread
// unspecified, so code must not depend on it. Here element e of the tile (row-major index
// e = row * cols + col) lives in lane e % 32, slot e / 32: every lane holds rows*cols/32
// elements, the same num_elements as on a GPU. mma_sync is a real warp collective: each lane
// publishes its fragments, the warp meets at __syncwarp, each lane computes its own outputs
// from everyone's inputs (products in float, added in k order), and the warp meets again
// before anyone overwrites an accumulator another lane may still read.
//
// Checked here as CUDA requires (a violation is a kernel fault naming the call's line):
//   - every operation is reached by all 32 lanes of the warp (a full warp, no divergence);
//   - load/store: the pointer is 256-bit (32-byte) aligned, ldm is a multiple of 16 bytes,
//     and every lane passes the same pointer and ldm.
// Shapes: m16n16k16, m32n8k16, m8n32k16 with bfloat16 inputs and float accumulators.
#pragma once

#include <cstdint>
#include <source_location>
#include <string>
#include <type_traits>

#include "wb/cpu/bf16.hpp"
#include "wb/cpu/emulation.hpp"

namespace nvcuda::wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

namespace detail {

template <class Use, int M, int N, int K>
struct tile_shape;
template <int M, int N, int K>
struct tile_shape<matrix_a, M, N, K> {
  static constexpr int rows = M, cols = K;
};
template <int M, int N, int K>
struct tile_shape<matrix_b, M, N, K> {
  static constexpr int rows = K, cols = N;
};
template <int M, int N, int K>
struct tile_shape<accumulator, M, N, K> {
  static constexpr int rows = M, cols = N;
};

template <int M, int N, int K>
inline constexpr bool supported_shape = (M == 16 && N == 16 && K == 16) || (M == 32 && N == 8 && K == 16) ||
                                        (M == 8 && N == 32 && K == 16);

inline float to_float(float v) { return v; }
inline float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

inline unsigned linear_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline unsigned lane() { return linear_thread() % 32; }

// What each lane of each warp of the running block publishes to its warp for one operation.
// One block runs at a time on an OS thread (its threads are fibers of that thread), so a
// thread_local table is the block's own.
struct published {
  const void* a;
  const void* b;
  const void* pointer;
  unsigned ldm;
};
inline published* warp_table() {
  static thread_local published table[32][32];
  return table[linear_thread() / 32];
}

inline std::string where(const char* op, std::source_location site) {
  std::string file = site.file_name();
  const auto slash = file.find_last_of('/');
  if (slash != std::string::npos) file = file.substr(slash + 1);
  return std::string("nvcuda::wmma::") + op + " at " + file + ":" + std::to_string(site.line());
}

// The checks CUDA states for load_matrix_sync / store_matrix_sync, then the warp meets so that
// every lane has seen every other lane's arguments before the table is reused.
template <class T>
inline void check_memory_operand(const char* op, const void* pointer, unsigned ldm, std::source_location site) {
  if (reinterpret_cast<std::uintptr_t>(pointer) % 32 != 0) {
    wb::cpu::fault(where(op, site) + ": the pointer must be 256-bit (32-byte) aligned");
  }
  if ((static_cast<std::size_t>(ldm) * sizeof(T)) % 16 != 0) {
    wb::cpu::fault(where(op, site) + ": ldm = " + std::to_string(ldm) + " elements is not a multiple of 16 bytes");
  }
  published* table = warp_table();
  table[lane()].pointer = pointer;
  table[lane()].ldm = ldm;
  __syncwarp(0xffffffffu, site);  // a lane missing here is reported as a fault
  if (table[0].pointer != pointer || table[0].ldm != ldm) {
    wb::cpu::fault(where(op, site) + ": every lane of the warp must pass the same pointer and ldm");
  }
  __syncwarp(0xffffffffu, site);
}

}  // namespace detail

template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
  static_assert(detail::supported_shape<M, N, K>, "the cpu backend emulates m16n16k16, m32n8k16 and m8n32k16");
  static_assert(std::is_same_v<Use, accumulator> ? std::is_same_v<T, float> : std::is_same_v<T, __nv_bfloat16>,
                "the cpu backend emulates bfloat16 inputs with float accumulators");

 public:
  static constexpr int rows = detail::tile_shape<Use, M, N, K>::rows;
  static constexpr int cols = detail::tile_shape<Use, M, N, K>::cols;
  static constexpr int num_elements = rows * cols / 32;
  using element_type = T;
  T x[num_elements];
};

template <class Use, int M, int N, int K, class T, class Layout>
inline void fill_fragment(fragment<Use, M, N, K, T, Layout>& f, const T& value) {
  for (auto& v : f.x) v = value;
}

// matrix_a / matrix_b: the layout is part of the fragment's type.
template <class Use, int M, int N, int K, class T, class Layout>
inline void load_matrix_sync(fragment<Use, M, N, K, T, Layout>& f, const T* pointer, unsigned ldm,
                             std::source_location site = std::source_location::current()) {
  static_assert(std::is_same_v<Layout, row_major> || std::is_same_v<Layout, col_major>,
                "matrix_a and matrix_b fragments name their layout");
  using frag = fragment<Use, M, N, K, T, Layout>;
  detail::check_memory_operand<T>("load_matrix_sync", pointer, ldm, site);
  const unsigned lane = detail::lane();
  for (int slot = 0; slot < frag::num_elements; ++slot) {
    const int e = slot * 32 + static_cast<int>(lane);
    const int r = e / frag::cols, c = e % frag::cols;
    f.x[slot] = std::is_same_v<Layout, row_major> ? pointer[static_cast<std::size_t>(r) * ldm + c]
                                                   : pointer[static_cast<std::size_t>(c) * ldm + r];
  }
}

// accumulator: the layout is an argument.
template <int M, int N, int K>
inline void load_matrix_sync(fragment<accumulator, M, N, K, float>& f, const float* pointer, unsigned ldm,
                             layout_t layout, std::source_location site = std::source_location::current()) {
  using frag = fragment<accumulator, M, N, K, float>;
  detail::check_memory_operand<float>("load_matrix_sync", pointer, ldm, site);
  const unsigned lane = detail::lane();
  for (int slot = 0; slot < frag::num_elements; ++slot) {
    const int e = slot * 32 + static_cast<int>(lane);
    const int r = e / frag::cols, c = e % frag::cols;
    f.x[slot] = layout == mem_row_major ? pointer[static_cast<std::size_t>(r) * ldm + c]
                                        : pointer[static_cast<std::size_t>(c) * ldm + r];
  }
}

template <int M, int N, int K>
inline void store_matrix_sync(float* pointer, const fragment<accumulator, M, N, K, float>& f, unsigned ldm,
                              layout_t layout, std::source_location site = std::source_location::current()) {
  using frag = fragment<accumulator, M, N, K, float>;
  detail::check_memory_operand<float>("store_matrix_sync", pointer, ldm, site);
  const unsigned lane = detail::lane();
  for (int slot = 0; slot < frag::num_elements; ++slot) {
    const int e = slot * 32 + static_cast<int>(lane);
    const int r = e / frag::cols, c = e % frag::cols;
    (layout == mem_row_major ? pointer[static_cast<std::size_t>(r) * ldm + c]
                             : pointer[static_cast<std::size_t>(c) * ldm + r]) = f.x[slot];
  }
}

// d = a * b + c for the warp's tiles; d may be c.
template <int M, int N, int K, class TA, class LA, class TB, class LB>
inline void mma_sync(fragment<accumulator, M, N, K, float>& d, const fragment<matrix_a, M, N, K, TA, LA>& a,
                     const fragment<matrix_b, M, N, K, TB, LB>& b, const fragment<accumulator, M, N, K, float>& c,
                     std::source_location site = std::source_location::current()) {
  using frag_a = fragment<matrix_a, M, N, K, TA, LA>;
  using frag_b = fragment<matrix_b, M, N, K, TB, LB>;
  using frag_c = fragment<accumulator, M, N, K, float>;
  detail::published* table = detail::warp_table();
  const unsigned lane = detail::lane();
  table[lane].a = &a;
  table[lane].b = &b;
  __syncwarp(0xffffffffu, site);  // every lane's fragments are published
  // Element e of a tile is slot e / 32 of lane e % 32 (see above).
  const auto a_at = [&](int r, int k) {
    const int e = r * frag_a::cols + k;
    return detail::to_float(static_cast<const frag_a*>(table[e % 32].a)->x[e / 32]);
  };
  const auto b_at = [&](int k, int col) {
    const int e = k * frag_b::cols + col;
    return detail::to_float(static_cast<const frag_b*>(table[e % 32].b)->x[e / 32]);
  };
  float out[frag_c::num_elements];
  for (int slot = 0; slot < frag_c::num_elements; ++slot) {
    const int e = slot * 32 + static_cast<int>(lane);
    const int r = e / frag_c::cols, col = e % frag_c::cols;
    float sum = c.x[slot];
    for (int k = 0; k < K; ++k) sum += a_at(r, k) * b_at(k, col);
    out[slot] = sum;
  }
  __syncwarp(0xffffffffu, site);  // every lane has read what it needs before d is written
  for (int slot = 0; slot < frag_c::num_elements; ++slot) d.x[slot] = out[slot];
}

}  // namespace nvcuda::wmma
