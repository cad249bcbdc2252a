// Checks of the shared Hopper layer: wb/device/mbarrier.cuh, tma.cuh, wgmma.cuh (with
// wgmma_layout.hpp) and the host side of tensor maps, wb/tensor_map.hpp.
//
// On every machine (both backends): the tensor map descriptions and the requirements of
// cuTensorMapEncodeTiled they are checked against, the bits of a wgmma descriptor, the swizzle
// patterns and the accumulators' layout, each against the PTX ISA's or the driver's own
// statement written out here, not against the header's code.
// On an sm_90 GPU ("[gpu]" cases, skipped and named without one; the cpu backend emulates none
// of these instructions): mbarrier phases and their parity, expect_tx holding a phase until a
// TMA copy's bytes land, TMA boxes of known tensors element by element (zeros past every edge,
// the swizzles), and wgmma products against a host reference. The inputs are small integers, so
// every product and sum is exact and results are compared exactly. The cuda backend compiles
// this file for sm_90a alone (common/tests/CMakeLists.txt), as the matmul chapter's stage 6.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "wb/bf16.hpp"
#include "wb/device/wgmma_layout.hpp"
#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#include "wb/kernel.hpp"
#include "wb/tensor_map.hpp"
#include "wb/testing.hpp"

#if defined(WB_BACKEND_CUDA)
#include "wb/device/mbarrier.cuh"
#include "wb/device/shared_address.cuh"
#include "wb/device/tma.cuh"
#include "wb/device/wgmma.cuh"
#endif

namespace {

namespace dev = wb::device;

// --- Host side: tensor map descriptions ------------------------------------------------------

// A 16-byte aligned address that is never read (the checks do not dereference it).
const void* const aligned_address = reinterpret_cast<const void*>(std::uintptr_t{1} << 20);

TEST_CASE("tensor_map_2d: dimensions, strides and box innermost first, the box's bytes") {
  // A row-major 100 x 72 bf16 matrix, row pitch 160 bytes (80 elements: padded), boxes of 32 x 16.
  const wb::tensor_map_spec s =
      wb::tensor_map_2d(aligned_address, wb::tensor_element::bf16, 100, 72, 160, 32, 16, wb::tensor_swizzle::b128,
                        wb::tensor_l2_promotion::b256);
  CHECK(s.base == aligned_address);
  CHECK(s.rank == 2);
  CHECK(s.dims[0] == 72);  // the column: innermost
  CHECK(s.dims[1] == 100);
  CHECK(s.strides[0] == 160);  // from one row to the next
  CHECK(s.box[0] == 16);
  CHECK(s.box[1] == 32);
  CHECK(s.swizzle == wb::tensor_swizzle::b128);
  CHECK(s.l2_promotion == wb::tensor_l2_promotion::b256);
  CHECK(wb::tensor_box_bytes(s) == 32 * 16 * 2);
  CHECK(wb::tensor_map_problem(s).empty());
  CHECK(wb::describe(s) == "bf16 tensor of 100 x 72 (strides 160 bytes), box 32 x 16, 128-byte swizzle");
}

TEST_CASE("tensor_map_3d: the plane is the outermost dimension") {
  const wb::tensor_map_spec s =
      wb::tensor_map_3d(aligned_address, wb::tensor_element::f32, 3, 20, 24, 96, 1920, 2, 8, 8);
  CHECK(s.rank == 3);
  CHECK(s.dims[0] == 24);
  CHECK(s.dims[1] == 20);
  CHECK(s.dims[2] == 3);
  CHECK(s.strides[0] == 96);
  CHECK(s.strides[1] == 1920);
  CHECK(s.box[0] == 8);
  CHECK(s.box[1] == 8);
  CHECK(s.box[2] == 2);
  CHECK(wb::tensor_box_bytes(s) == 2 * 8 * 8 * 4);
  CHECK(wb::tensor_map_problem(s).empty());
  CHECK(wb::describe(s) == "f32 tensor of 3 x 20 x 24 (strides 1920, 96 bytes), box 2 x 8 x 8");
}

TEST_CASE("element sizes and swizzle spans") {
  CHECK(wb::element_bytes(wb::tensor_element::u8) == 1);
  CHECK(wb::element_bytes(wb::tensor_element::u16) == 2);
  CHECK(wb::element_bytes(wb::tensor_element::f16) == 2);
  CHECK(wb::element_bytes(wb::tensor_element::bf16) == 2);
  CHECK(wb::element_bytes(wb::tensor_element::u32) == 4);
  CHECK(wb::element_bytes(wb::tensor_element::i32) == 4);
  CHECK(wb::element_bytes(wb::tensor_element::f32) == 4);
  CHECK(wb::swizzle_span_bytes(wb::tensor_swizzle::none) == 0);
  CHECK(wb::swizzle_span_bytes(wb::tensor_swizzle::b32) == 32);
  CHECK(wb::swizzle_span_bytes(wb::tensor_swizzle::b64) == 64);
  CHECK(wb::swizzle_span_bytes(wb::tensor_swizzle::b128) == 128);
}

// The requirements cuTensorMapEncodeTiled documents (CUDA Driver API, "Tensor Map Object
// Management"), one broken at a time; and the limits themselves, which are allowed.
TEST_CASE("tensor_map_problem: each documented requirement of cuTensorMapEncodeTiled, and its limit") {
  using wb::tensor_element;
  using wb::tensor_swizzle;
  const auto good = [] {
    return wb::tensor_map_2d(aligned_address, tensor_element::bf16, 64, 64, 128, 64, 64, tensor_swizzle::b128);
  };
  struct refused {
    const char* what;
    wb::tensor_map_spec spec;
    const char* names;  // in the message
  };
  std::vector<refused> cases;
  auto add = [&](const char* what, auto change, const char* names) {
    wb::tensor_map_spec s = good();
    change(s);
    cases.push_back({what, s, names});
  };
  add("rank 0", [](auto& s) { s.rank = 0; }, "rank 0");
  add("rank 6", [](auto& s) { s.rank = 6; }, "rank 6");
  add("address not 16-byte aligned", [](auto& s) { s.base = static_cast<const char*>(aligned_address) + 8; },
      "not 16-byte aligned");
  add("no columns", [](auto& s) { s.dims[0] = 0; }, "size 0 of dimension 0");
  add("more than 2^32 rows", [](auto& s) { s.dims[1] = (std::uint64_t{1} << 32) + 1; }, "of dimension 1");
  add("empty box", [](auto& s) { s.box[1] = 0; }, "box size 0 in dimension 1");
  add("box of 257 rows", [](auto& s) { s.box[1] = 257; }, "box size 257");
  add("row pitch no multiple of 16", [](auto& s) { s.strides[0] = 136; }, "stride 136 bytes");
  add("row pitch of 2^40", [](auto& s) { s.strides[0] = std::uint64_t{1} << 40; }, "below 2^40");
  add("box rows of 8 bytes", [](auto& s) { s.box[0] = 4; }, "box rows of 8 bytes");
  add("box rows wider than the swizzle", [](auto& s) { s.box[0] = 128; }, "wider than the 128-byte swizzle");
  add("64-byte swizzle, 128-byte rows", [](auto& s) { s.swizzle = tensor_swizzle::b64; }, "64-byte swizzle");
  for (const refused& c : cases) {
    CAPTURE(c.what);
    const std::string problem = wb::tensor_map_problem(c.spec);
    CHECK_MESSAGE(problem.find(c.names) != std::string::npos, "got \"" << problem << "\"");
  }

  // The limits themselves are allowed.
  wb::tensor_map_spec s = good();
  s.dims[0] = std::uint64_t{1} << 32;
  s.box[1] = 256;
  s.strides[0] = (std::uint64_t{1} << 40) - 16;
  CHECK(wb::tensor_map_problem(s).empty());
  // A box larger than the tensor (a 1 x 1 matrix, row pitch 16, in boxes of 128 x 64): the
  // copy fills the rest with zeros; no swizzle and 16-byte box rows.
  CHECK(wb::tensor_map_problem(
            wb::tensor_map_2d(aligned_address, tensor_element::bf16, 1, 1, 16, 128, 64, tensor_swizzle::b128))
            .empty());
  CHECK(wb::tensor_map_problem(wb::tensor_map_2d(aligned_address, tensor_element::f32, 5, 3, 16, 8, 4)).empty());
  CHECK(wb::tensor_map_problem(
            wb::tensor_map_2d(aligned_address, tensor_element::bf16, 64, 16, 32, 8, 16, tensor_swizzle::b32))
            .empty());
}

// --- Host side: wgmma descriptors and layouts --------------------------------------------------

// PTX ISA, "Matrix Descriptor Format": start address >> 4 in bits 0-13, leading dimension byte
// offset >> 4 in 16-29, stride dimension byte offset >> 4 in 32-45, base offset in 49-51, swizzle
// mode in 62-63 (0 none, 1 128-byte, 2 64-byte, 3 32-byte).
TEST_CASE("wgmma_descriptor: each field in the bits the PTX ISA's matrix descriptor format gives it") {
  CHECK(dev::wgmma_descriptor(0, 0, 0, dev::wgmma_swizzle::none) == 0);
  CHECK(dev::wgmma_descriptor(0x1230, 0, 0, dev::wgmma_swizzle::none) == 0x123);
  CHECK(dev::wgmma_descriptor(0, 16, 0, dev::wgmma_swizzle::none) == std::uint64_t{1} << 16);
  CHECK(dev::wgmma_descriptor(0, 0, 1024, dev::wgmma_swizzle::none) == std::uint64_t{64} << 32);
  CHECK(dev::wgmma_descriptor(0, 0, 0, dev::wgmma_swizzle::b128) == std::uint64_t{1} << 62);
  CHECK(dev::wgmma_descriptor(0, 0, 0, dev::wgmma_swizzle::b64) == std::uint64_t{2} << 62);
  CHECK(dev::wgmma_descriptor(0, 0, 0, dev::wgmma_swizzle::b32) == std::uint64_t{3} << 62);
  // The matmul chapter's operands (128-byte swizzle): A K-major at 0x400 + 32 (a k16 step),
  // leading 16, stride 1024; B N-major, leading 8192 (the next 64 columns), stride 1024.
  CHECK(dev::wgmma_descriptor(0x420, 16, 1024) ==
        ((std::uint64_t{0x420} >> 4) | (std::uint64_t{1} << 16) | (std::uint64_t{64} << 32) | (std::uint64_t{1} << 62)));
  CHECK(dev::wgmma_descriptor(0x2000 + 2048, 8192, 1024) ==
        ((std::uint64_t{0x2800} >> 4) | (std::uint64_t{512} << 16) | (std::uint64_t{64} << 32) | (std::uint64_t{1} << 62)));
  // 18 bits of each byte quantity in 14-bit fields: the low 4 bits and everything from bit 18 on
  // are dropped, and no field spills into the next.
  CHECK(dev::wgmma_descriptor(0x3FFFF, 0, 0, dev::wgmma_swizzle::none) == 0x3FFF);
  CHECK(dev::wgmma_descriptor(0x40010, 0, 0, dev::wgmma_swizzle::none) == 1);
  CHECK(dev::wgmma_descriptor(0, 0x3FFFF, 0x3FFFF, dev::wgmma_swizzle::none) ==
        ((std::uint64_t{0x3FFF} << 16) | (std::uint64_t{0x3FFF} << 32)));

  // decode gives the fields back, in bytes.
  const auto f = dev::wgmma_descriptor_decode(dev::wgmma_descriptor(0x1A40, 8192, 1024, dev::wgmma_swizzle::b64));
  CHECK(f.address == 0x1A40);
  CHECK(f.leading_bytes == 8192);
  CHECK(f.stride_bytes == 1024);
  CHECK(f.base_offset == 0);
  CHECK(f.swizzle == dev::wgmma_swizzle::b64);
  CHECK(dev::wgmma_descriptor_decode(std::uint64_t{5} << 49).base_offset == 5);
}

// The swizzles as the CUDA driver describes them for the TMA ("Swizzle 16B chunks within 32B /
// 64B / 128B span"), and CUTLASS's Swizzle<1,4,3>, <2,4,3>, <3,4,3>, written out for a box whose
// rows are the span wide: the 16-byte chunk c of row r goes to chunk c ^ (r % 8) with 128-byte
// rows, c ^ ((r / 2) % 4) with 64-byte rows, c ^ ((r / 4) % 2) with 32-byte rows.
TEST_CASE("swizzled_byte_offset: 128-, 64- and 32-byte swizzles, and none") {
  for (const std::uint32_t span : {128u, 64u, 32u}) {
    CAPTURE(span);
    std::set<std::uint32_t> seen;
    const std::uint32_t rows = 1024 / span * 2;  // two repeats of the pattern
    for (std::uint32_t r = 0; r < rows; ++r) {
      for (std::uint32_t b = 0; b < span; ++b) {
        const std::uint32_t chunk = b / 16;
        std::uint32_t moved = chunk;
        if (span == 128) moved = chunk ^ (r % 8);
        if (span == 64) moved = chunk ^ ((r / 2) % 4);
        if (span == 32) moved = chunk ^ ((r / 4) % 2);
        const std::uint32_t expected = r * span + moved * 16 + b % 16;
        REQUIRE(dev::swizzled_byte_offset(r * span + b, span) == expected);
        seen.insert(expected);
      }
    }
    CHECK(seen.size() == rows * span);  // a permutation: every byte somewhere, none twice
  }
  for (std::uint32_t o = 0; o < 4096; o += 7) CHECK(dev::swizzled_byte_offset(o, 0) == o);
}

// PTX ISA, "Register Fragments", the accumulator D of wgmma .m64nNk16 (f32): warp w of the
// warpgroup owns rows 16 w .. 16 w + 15; lane l holds rows l / 4 and l / 4 + 8, columns
// 8 g + 2 (l % 4) and + 1 of every group g of 8 columns, registers {4g, 4g+1} in the upper row,
// {4g+2, 4g+3} in the lower.
TEST_CASE("wgmma accumulators: the PTX ISA's figure, and every cell of 64 x N exactly once") {
  struct cell {
    int thread, reg, row, col;
  };
  for (const cell& c : {cell{0, 0, 0, 0}, cell{0, 1, 0, 1}, cell{0, 2, 8, 0}, cell{0, 3, 8, 1}, cell{0, 4, 0, 8},
                        cell{1, 0, 0, 2}, cell{3, 1, 0, 7}, cell{4, 0, 1, 0}, cell{31, 3, 15, 7},
                        cell{32, 0, 16, 0}, cell{37, 6, 25, 10}, cell{37, 7, 25, 11}, cell{127, 127, 63, 255}}) {
    CAPTURE(c.thread);
    CAPTURE(c.reg);
    CHECK(dev::wgmma_accumulator_row(c.thread, c.reg) == c.row);
    CHECK(dev::wgmma_accumulator_col(c.thread, c.reg) == c.col);
  }
  for (const int n : {64, 128, 256}) {
    CAPTURE(n);
    std::vector<int> hits(static_cast<std::size_t>(64 * n), 0);
    for (int t = 0; t < 128; ++t) {
      for (int i = 0; i < n / 2; ++i) {
        const int row = dev::wgmma_accumulator_row(t, i), col = dev::wgmma_accumulator_col(t, i);
        REQUIRE(row >= 0);
        REQUIRE(row < 64);
        REQUIRE(col >= 0);
        REQUIRE(col < n);
        ++hits[static_cast<std::size_t>(row * n + col)];
      }
    }
    CHECK(std::count(hits.begin(), hits.end(), 1) == 64 * n);
  }
}

// --- GPU: mbarrier, TMA, wgmma (sm_90) -------------------------------------------------------

#if defined(WB_BACKEND_CUDA)

// True on an sm_90 GPU (the binary holds sm_90a code only); otherwise says why the case checks
// nothing.
bool on_sm90() {
  int device = 0, major = 0, minor = 0;
  WB_CHECK(cudaGetDevice(&device));
  WB_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  WB_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  if (major == 9 && minor == 0) return true;
  MESSAGE("not checked: the Hopper layer needs an sm_90 GPU, this one is sm_" << major << minor);
  return false;
}

// The dynamic shared memory from its first 1024-byte boundary (the 128-byte swizzle's repeat).
__device__ unsigned char* shared_1024() {
  unsigned char* base = wb::dynamic_shared<unsigned char>();
  return base + (1024 - dev::shared_address(base) % 1024) % 1024;
}
constexpr std::size_t shared_slack = 1024;  // what shared_1024 may skip

// One thread walks a barrier of count 2 through its phases; out[i] is try_wait's answer at step i.
__global__ void mbarrier_steps(unsigned* out) {
  __shared__ std::uint64_t bar;
  dev::mbarrier_init(&bar, 2);
  dev::fence_barrier_init();
  int i = 0;
  out[i++] = dev::mbarrier_try_wait(&bar, 1);  // 1: the phase "before" a fresh barrier counts as complete
  out[i++] = dev::mbarrier_try_wait(&bar, 0);  // 0: phase 0 has no arrival yet
  dev::mbarrier_arrive(&bar);
  out[i++] = dev::mbarrier_try_wait(&bar, 0);  // 0: 1 arrival of 2
  dev::mbarrier_arrive(&bar);
  out[i++] = dev::mbarrier_try_wait(&bar, 0);  // 1: phase 0 complete
  out[i++] = dev::mbarrier_try_wait(&bar, 1);  // 0: phase 1 has begun, nothing arrived
  dev::mbarrier_arrive_expect_tx(&bar, 0);     // an arrival that expects no bytes
  out[i++] = dev::mbarrier_try_wait(&bar, 1);  // 0: 1 arrival of 2
  dev::mbarrier_arrive(&bar);
  out[i++] = dev::mbarrier_try_wait(&bar, 1);  // 1: phase 1 complete
  out[i++] = dev::mbarrier_try_wait(&bar, 0);  // 0: phase 2 (parity 0 again) has begun
  dev::mbarrier_wait(&bar, 1);                 // returns at once
  out[i++] = 1;
}

// 128 threads, `rounds` phases of a barrier of count 128: in round r each thread writes its slot
// of buffer r % 2, arrives, waits for parity r % 2, and reads its neighbour's slot, which the
// arrivals' release and the wait's acquire make visible. errors[t] counts wrong reads of thread t.
__global__ void mbarrier_rounds(int rounds, unsigned* errors) {
  __shared__ std::uint64_t bar;
  __shared__ int slots[2][128];
  const int t = static_cast<int>(threadIdx.x);
  if (t == 0) {
    dev::mbarrier_init(&bar, 128);
    dev::fence_barrier_init();
  }
  __syncthreads();
  unsigned wrong = 0;
  for (int r = 0; r < rounds; ++r) {
    slots[r % 2][t] = 1000 * r + t;
    dev::mbarrier_arrive(&bar);
    dev::mbarrier_wait(&bar, static_cast<std::uint32_t>(r) & 1u);
    const int next = (t + 1) % 128;
    if (slots[r % 2][next] != 1000 * r + next) ++wrong;
  }
  errors[t] = wrong;
}

// The TMA's bytes hold each phase: round after round thread 0 announces a box's bytes
// (arrive_expect_tx) and starts its copy, from another place of the matrix each round; the
// block waits for the phase's parity, copies the box out, and passes a second barrier (all 128
// arrive) before the next round's copy overwrites the box.
__global__ void tma_rounds(const __grid_constant__ CUtensorMap map, int rounds, const int* columns, const int* rows,
                           std::uint32_t box_bytes, float* out) {
  float* box = reinterpret_cast<float*>(shared_1024());
  __shared__ std::uint64_t full, done;
  const int t = static_cast<int>(threadIdx.x);
  if (t == 0) {
    dev::mbarrier_init(&full, 1);
    dev::mbarrier_init(&done, 128);
    dev::fence_barrier_init();
  }
  __syncthreads();
  const int elements = static_cast<int>(box_bytes / 4);
  for (int r = 0; r < rounds; ++r) {
    const std::uint32_t parity = static_cast<std::uint32_t>(r) & 1u;
    if (t == 0) {
      dev::mbarrier_arrive_expect_tx(&full, box_bytes);
      dev::tma_load_2d(box, &map, &full, columns[r], rows[r]);
    }
    dev::mbarrier_wait(&full, parity);
    for (int e = t; e < elements; e += 128) out[r * elements + e] = box[e];
    dev::mbarrier_arrive(&done);
    dev::mbarrier_wait(&done, parity);
  }
}

// Block b copies box b (first element at columns[b], rows[b], planes[b]) of a 2D (planes ==
// nullptr) or 3D tensor map into shared memory and writes its raw bytes to out + b * box_bytes.
__global__ void tma_boxes(const __grid_constant__ CUtensorMap map, const int* columns, const int* rows,
                          const int* planes, std::uint32_t box_bytes, unsigned char* out) {
  unsigned char* box = shared_1024();
  __shared__ std::uint64_t full;
  const int b = static_cast<int>(blockIdx.x);
  if (threadIdx.x == 0) {
    dev::mbarrier_init(&full, 1);
    dev::fence_barrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    dev::mbarrier_arrive_expect_tx(&full, box_bytes);
    if (planes == nullptr) {
      dev::tma_load_2d(box, &map, &full, columns[b], rows[b]);
    } else {
      dev::tma_load_3d(box, &map, &full, columns[b], rows[b], planes[b]);
    }
  }
  dev::mbarrier_wait(&full, 0);
  for (std::uint32_t i = threadIdx.x; i < box_bytes; i += blockDim.x) out[b * box_bytes + i] = box[i];
}

// One warpgroup: A (64 x 64, K-major) and B (N-major: 64 x N in boxes of 64 columns; K-major:
// N x 64) arrive by TMA with the 128-byte swizzle; four wgmma m64nNk16 (k = 0-15, ..., 48-63)
// give D = A B. The first does not accumulate: the accumulators start as garbage (1e30).
template <int N, dev::wgmma_major B_MAJOR>
__global__ void __launch_bounds__(128) wgmma_product(const __grid_constant__ CUtensorMap map_A,
                                                     const __grid_constant__ CUtensorMap map_B, float* D) {
  unsigned char* A = shared_1024();
  unsigned char* B = A + 64 * 128;
  auto* full = reinterpret_cast<std::uint64_t*>(B + N * 128);
  const int t = static_cast<int>(threadIdx.x);
  if (t == 0) {
    dev::mbarrier_init(full, 1);
    dev::fence_barrier_init();
  }
  __syncthreads();
  if (t == 0) {
    dev::mbarrier_arrive_expect_tx(full, 64 * 128 + N * 128);
    dev::tma_load_2d(A, &map_A, full, 0, 0);
    if constexpr (B_MAJOR == dev::wgmma_major::mn) {
      for (int b = 0; b < N / 64; ++b) dev::tma_load_2d(B + b * 8192, &map_B, full, 64 * b, 0);
    } else {
      dev::tma_load_2d(B, &map_B, full, 0, 0);
    }
  }
  dev::mbarrier_wait(full, 0);

  float d[N / 2];
#pragma unroll
  for (int i = 0; i < N / 2; ++i) d[i] = 1e30f;
  const std::uint32_t a0 = dev::shared_address(A), b0 = dev::shared_address(B);
  dev::wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < 4; ++kk) {
    // A: atoms of 8 rows x 128 bytes, 1024 bytes apart along M; a k16 step is 32 bytes on.
    const std::uint64_t da = dev::wgmma_descriptor(a0 + kk * 32, 16, 1024);
    // B N-major: 64-column boxes 8192 bytes apart (leading), 8 k-rows 1024 apart (stride), a k16
    // step 16 rows on. B K-major: as A, N rows.
    const std::uint64_t db = B_MAJOR == dev::wgmma_major::mn ? dev::wgmma_descriptor(b0 + kk * 2048, 8192, 1024)
                                                              : dev::wgmma_descriptor(b0 + kk * 32, 16, 1024);
    if constexpr (N == 64) {
      dev::wgmma_m64n64k16_bf16<dev::wgmma_major::k, B_MAJOR>(d, da, db, kk > 0);
    } else if constexpr (N == 128) {
      dev::wgmma_m64n128k16_bf16<dev::wgmma_major::k, B_MAJOR>(d, da, db, kk > 0);
    } else {
      dev::wgmma_m64n256k16_bf16<dev::wgmma_major::k, B_MAJOR>(d, da, db, kk > 0);
    }
  }
  dev::wgmma_commit();
  dev::wgmma_wait<0>();
  dev::accumulators_settle(d);
#pragma unroll
  for (int i = 0; i < N / 2; ++i) D[dev::wgmma_accumulator_row(t, i) * N + dev::wgmma_accumulator_col(t, i)] = d[i];
}

// A row-major f32 matrix whose element (r, c) is 1000 r + c + 1: no element is 0, each tells
// where it came from.
std::vector<float> numbered_matrix(int rows, int cols) {
  std::vector<float> m(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) m[static_cast<std::size_t>(r * cols + c)] = static_cast<float>(1000 * r + c + 1);
  return m;
}

// What the box at (column, row) of a rows x cols numbered matrix holds, box_rows x box_cols,
// zeros outside the matrix.
std::vector<float> expected_box(int rows, int cols, int column, int row, int box_rows, int box_cols) {
  std::vector<float> box;
  for (int r = row; r < row + box_rows; ++r)
    for (int c = column; c < column + box_cols; ++c)
      box.push_back(r >= 0 && r < rows && c >= 0 && c < cols ? static_cast<float>(1000 * r + c + 1) : 0.0f);
  return box;
}

#endif  // WB_BACKEND_CUDA

WB_GPU_TEST_CASE("mbarrier: arrivals complete a phase, parities alternate, try_wait says which phase is complete") {
#if defined(WB_BACKEND_CUDA)
  if (!on_sm90()) return;
  wb::device_buffer<unsigned> steps(9);
  steps.fill_bytes(0xFF);
  wb::launch({dim3(1), dim3(1)}, mbarrier_steps, steps.data());
  WB_CHECK(cudaDeviceSynchronize());
  const std::vector<unsigned> expected = {1, 0, 0, 1, 0, 0, 1, 0, 1};
  WB_CHECK_EQUAL_SEQ(expected, steps.to_host());

  for (const int rounds : {1, 2, 7, 64}) {
    CAPTURE(rounds);
    wb::device_buffer<unsigned> errors(128);
    errors.fill_bytes(0xFF);
    wb::launch({dim3(1), dim3(128)}, mbarrier_rounds, rounds, errors.data());
    WB_CHECK(cudaDeviceSynchronize());
    WB_CHECK_EQUAL_SEQ(std::vector<unsigned>(128, 0), errors.to_host());
  }
#endif
}

WB_GPU_TEST_CASE("mbarrier + TMA: expect_tx holds each phase until the copy's bytes land, round after round") {
#if defined(WB_BACKEND_CUDA)
  if (!on_sm90()) return;
  constexpr int rows = 100, cols = 72, box_rows = 32, box_cols = 16;
  const wb::device_buffer<float> matrix(numbered_matrix(rows, cols));
  const wb::tensor_map_spec spec = wb::tensor_map_2d(matrix.data(), wb::tensor_element::f32, rows, cols, cols * 4,
                                                     box_rows, box_cols);
  const CUtensorMap map = wb::encode_tensor_map(spec);
  const std::uint32_t box_bytes = wb::tensor_box_bytes(spec);
  const std::vector<int> columns = {0, 16, 32, 48, 56, 0, 8, 64};
  const std::vector<int> rows_at = {0, 0, 32, 64, 68, 96, 40, 80};
  const int rounds = static_cast<int>(columns.size());
  const wb::device_buffer<int> d_columns(columns), d_rows(rows_at);
  wb::device_buffer<float> out(static_cast<std::size_t>(rounds) * box_bytes / 4);
  out.fill_bytes(0xFF);
  wb::launch({dim3(1), dim3(128), box_bytes + shared_slack}, tma_rounds, map, rounds, d_columns.data(), d_rows.data(),
             box_bytes, out.data());
  WB_CHECK(cudaDeviceSynchronize());
  const std::vector<float> got = out.to_host();
  for (int r = 0; r < rounds; ++r) {
    CAPTURE(r);
    CAPTURE(columns[static_cast<std::size_t>(r)]);
    CAPTURE(rows_at[static_cast<std::size_t>(r)]);
    const auto first = got.begin() + r * static_cast<std::ptrdiff_t>(box_bytes / 4);
    WB_CHECK_EQUAL_SEQ(expected_box(rows, cols, columns[static_cast<std::size_t>(r)], rows_at[static_cast<std::size_t>(r)],
                                    box_rows, box_cols),
                       std::vector<float>(first, first + box_bytes / 4));
  }
#endif
}

WB_GPU_TEST_CASE("TMA 2D: boxes of a known matrix element by element, zeros past every edge") {
#if defined(WB_BACKEND_CUDA)
  if (!on_sm90()) return;
  // 100 x 72 f32, row pitch 80 elements (320 bytes: padded), boxes of 32 x 16 (64-byte rows).
  constexpr int rows = 100, cols = 72, pitch = 80, box_rows = 32, box_cols = 16;
  std::vector<float> padded(static_cast<std::size_t>(rows * pitch), -1.0f);  // the padding must not show
  const std::vector<float> numbered = numbered_matrix(rows, cols);
  for (int r = 0; r < rows; ++r)
    std::memcpy(&padded[static_cast<std::size_t>(r * pitch)], &numbered[static_cast<std::size_t>(r * cols)], cols * 4);
  const wb::device_buffer<float> matrix(padded);
  const wb::tensor_map_spec spec = wb::tensor_map_2d(matrix.data(), wb::tensor_element::f32, rows, cols, pitch * 4,
                                                     box_rows, box_cols);
  const CUtensorMap map = wb::encode_tensor_map(spec);
  const std::uint32_t box_bytes = wb::tensor_box_bytes(spec);
  // Inside; the last columns (64-79: 72-79 past the edge); the last rows (96-127: 100-127
  // past); the corner; starting before the matrix (negative coordinates); wholly outside.
  const std::vector<std::pair<int, int>> at = {{0, 0}, {16, 32}, {64, 0}, {0, 96}, {64, 96}, {-8, -4}, {72, 100}};
  std::vector<int> columns, rows_at;
  for (const auto& [c, r] : at) {
    columns.push_back(c);
    rows_at.push_back(r);
  }
  const wb::device_buffer<int> d_columns(columns), d_rows(rows_at);
  const auto boxes = static_cast<unsigned>(at.size());
  wb::device_buffer<unsigned char> out(boxes * box_bytes);
  out.fill_bytes(0xFF);
  wb::launch({dim3(boxes), dim3(128), box_bytes + shared_slack}, tma_boxes, map, d_columns.data(), d_rows.data(),
             static_cast<const int*>(nullptr), box_bytes, out.data());
  WB_CHECK(cudaDeviceSynchronize());
  const std::vector<unsigned char> bytes = out.to_host();
  for (std::size_t b = 0; b < at.size(); ++b) {
    CAPTURE(at[b].first);
    CAPTURE(at[b].second);
    std::vector<float> got(box_bytes / 4);
    std::memcpy(got.data(), &bytes[b * box_bytes], box_bytes);
    WB_CHECK_EQUAL_SEQ(expected_box(rows, cols, at[b].first, at[b].second, box_rows, box_cols), got);
  }
#endif
}

WB_GPU_TEST_CASE("TMA 2D swizzled: each element lands where swizzled_byte_offset says (128, 64, 32 bytes)") {
#if defined(WB_BACKEND_CUDA)
  if (!on_sm90()) return;
  // A 40 x 64 u16 matrix holding 64 r + c; boxes of 16 rows, each row the swizzle's span wide.
  constexpr int rows = 40, cols = 64, box_rows = 16;
  std::vector<std::uint16_t> host(rows * cols);
  for (int i = 0; i < rows * cols; ++i) host[static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(i);
  const wb::device_buffer<std::uint16_t> matrix(host);
  for (const auto swizzle : {wb::tensor_swizzle::b128, wb::tensor_swizzle::b64, wb::tensor_swizzle::b32}) {
    const std::uint32_t span = wb::swizzle_span_bytes(swizzle);
    CAPTURE(span);
    const int box_cols = static_cast<int>(span / 2);
    const wb::tensor_map_spec spec = wb::tensor_map_2d(matrix.data(), wb::tensor_element::u16, rows, cols, cols * 2,
                                                       box_rows, static_cast<std::uint32_t>(box_cols), swizzle);
    const CUtensorMap map = wb::encode_tensor_map(spec);
    const std::uint32_t box_bytes = wb::tensor_box_bytes(spec);
    const std::vector<int> columns = {0, box_cols, 0}, rows_at = {0, 8, 32};  // the last: 8 rows past the edge; with the
    // 128-byte swizzle the second box lies wholly right of the 64 columns (zeros)
    const wb::device_buffer<int> d_columns(columns), d_rows(rows_at);
    wb::device_buffer<unsigned char> out(columns.size() * box_bytes);
    out.fill_bytes(0xFF);
    wb::launch({dim3(static_cast<unsigned>(columns.size())), dim3(128), box_bytes + shared_slack}, tma_boxes, map,
               d_columns.data(), d_rows.data(), static_cast<const int*>(nullptr), box_bytes, out.data());
    WB_CHECK(cudaDeviceSynchronize());
    const std::vector<unsigned char> bytes = out.to_host();
    for (std::size_t b = 0; b < columns.size(); ++b) {
      CAPTURE(b);
      int wrong = 0;
      std::string first;
      for (int r = 0; r < box_rows; ++r) {
        for (int c = 0; c < box_cols; ++c) {
          const int mr = rows_at[b] + r, mc = columns[b] + c;
          const std::uint16_t expected = mr < rows && mc < cols ? static_cast<std::uint16_t>(mr * cols + mc) : 0;
          const std::uint32_t offset = dev::swizzled_byte_offset(static_cast<std::uint32_t>(r * box_cols * 2 + c * 2), span);
          std::uint16_t got;
          std::memcpy(&got, &bytes[b * box_bytes + offset], 2);
          if (got != expected && wrong++ == 0) {
            first = "box row " + std::to_string(r) + ", column " + std::to_string(c) + ": expected " +
                    std::to_string(expected) + " at byte " + std::to_string(offset) + ", got " + std::to_string(got);
          }
        }
      }
      CHECK_MESSAGE(wrong == 0, wrong << " elements misplaced; first: " << first);
    }
  }
#endif
}

WB_GPU_TEST_CASE("TMA 3D: boxes of a 3 x 20 x 24 tensor, zeros past its edges in every dimension") {
#if defined(WB_BACKEND_CUDA)
  if (!on_sm90()) return;
  constexpr int planes = 3, rows = 20, cols = 24, box_planes = 2, box_rows = 8, box_cols = 8;
  std::vector<float> host(planes * rows * cols);
  const auto value = [](int p, int r, int c) { return static_cast<float>(10000 * p + 100 * r + c + 1); };
  for (int p = 0; p < planes; ++p)
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) host[static_cast<std::size_t>((p * rows + r) * cols + c)] = value(p, r, c);
  const wb::device_buffer<float> tensor(host);
  const wb::tensor_map_spec spec = wb::tensor_map_3d(tensor.data(), wb::tensor_element::f32, planes, rows, cols,
                                                     cols * 4, rows * cols * 4, box_planes, box_rows, box_cols);
  const CUtensorMap map = wb::encode_tensor_map(spec);
  const std::uint32_t box_bytes = wb::tensor_box_bytes(spec);
  const std::vector<int> columns = {0, 8, 20, -4}, rows_at = {0, 4, 16, 0}, planes_at = {0, 1, 2, -1};
  const wb::device_buffer<int> d_columns(columns), d_rows(rows_at), d_planes(planes_at);
  wb::device_buffer<unsigned char> out(columns.size() * box_bytes);
  out.fill_bytes(0xFF);
  wb::launch({dim3(static_cast<unsigned>(columns.size())), dim3(128), box_bytes + shared_slack}, tma_boxes, map,
             d_columns.data(), d_rows.data(), static_cast<const int*>(d_planes.data()), box_bytes, out.data());
  WB_CHECK(cudaDeviceSynchronize());
  const std::vector<unsigned char> bytes = out.to_host();
  for (std::size_t b = 0; b < columns.size(); ++b) {
    CAPTURE(columns[b]);
    CAPTURE(rows_at[b]);
    CAPTURE(planes_at[b]);
    std::vector<float> expected, got(box_bytes / 4);
    for (int p = planes_at[b]; p < planes_at[b] + box_planes; ++p)
      for (int r = rows_at[b]; r < rows_at[b] + box_rows; ++r)
        for (int c = columns[b]; c < columns[b] + box_cols; ++c)
          expected.push_back(p >= 0 && p < planes && r >= 0 && r < rows && c >= 0 && c < cols ? value(p, r, c) : 0.0f);
    std::memcpy(got.data(), &bytes[b * box_bytes], box_bytes);
    WB_CHECK_EQUAL_SEQ(expected, got);
  }
#endif
}

#if defined(WB_BACKEND_CUDA)
// D = A B for A 64 x 64 and B 64 x N (B_MAJOR mn: stored row-major 64 x N; k: stored as B^T,
// N x 64), small integers in bf16, on the GPU through wgmma_product, against the host.
template <int N, dev::wgmma_major B_MAJOR>
void check_wgmma_product(std::uint64_t seed) {
  wb::gen::rng rng(seed);
  const auto small = [&] { return static_cast<float>(static_cast<int>(rng.below(7)) - 3); };  // -3 .. 3
  std::vector<float> a(64 * 64), b(64 * N);  // b[k * N + n]
  for (float& x : a) x = small();
  for (float& x : b) x = small();
  std::vector<wb::bf16> a16, b16;
  for (const float x : a) a16.push_back(wb::to_bf16(x));
  if constexpr (B_MAJOR == dev::wgmma_major::mn) {
    for (const float x : b) b16.push_back(wb::to_bf16(x));
  } else {
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < 64; ++k) b16.push_back(wb::to_bf16(b[static_cast<std::size_t>(k * N + n)]));
  }
  const wb::device_buffer<wb::bf16> d_a(a16), d_b(b16);
  const CUtensorMap map_A = wb::encode_tensor_map(
      wb::tensor_map_2d(d_a.data(), wb::tensor_element::bf16, 64, 64, 128, 64, 64, wb::tensor_swizzle::b128));
  const CUtensorMap map_B =
      B_MAJOR == dev::wgmma_major::mn
          ? wb::encode_tensor_map(wb::tensor_map_2d(d_b.data(), wb::tensor_element::bf16, 64, N, N * 2, 64, 64,
                                                    wb::tensor_swizzle::b128))
          : wb::encode_tensor_map(wb::tensor_map_2d(d_b.data(), wb::tensor_element::bf16, N, 64, 128, N, 64,
                                                    wb::tensor_swizzle::b128));
  wb::device_buffer<float> d(64 * N);
  d.fill_bytes(0xFF);
  const std::size_t shared = shared_slack + 64 * 128 + N * 128 + 8;
  wb::launch({dim3(1), dim3(128), shared}, wgmma_product<N, B_MAJOR>, map_A, map_B, d.data());
  WB_CHECK(cudaDeviceSynchronize());
  std::vector<float> expected(64 * N, 0.0f);
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < N; ++n) {
      double sum = 0;
      for (int k = 0; k < 64; ++k) sum += double{a[static_cast<std::size_t>(m * 64 + k)]} * b[static_cast<std::size_t>(k * N + n)];
      expected[static_cast<std::size_t>(m * N + n)] = static_cast<float>(sum);
    }
  WB_CHECK_EQUAL_SEQ(expected, d.to_host());
}
#endif

WB_GPU_TEST_CASE("wgmma m64nNk16 bf16: four k16 steps of A (K-major) times B (N-major), N = 64, 128, 256, exact") {
#if defined(WB_BACKEND_CUDA)
  if (!on_sm90()) return;
  SUBCASE("N = 64") { check_wgmma_product<64, dev::wgmma_major::mn>(wb::testing::seed(64)); }
  SUBCASE("N = 128") { check_wgmma_product<128, dev::wgmma_major::mn>(wb::testing::seed(128)); }
  SUBCASE("N = 256") { check_wgmma_product<256, dev::wgmma_major::mn>(wb::testing::seed(256)); }
#endif
}

WB_GPU_TEST_CASE("wgmma m64n64k16 bf16 with B K-major (B^T stored row by row, as K in Q K^T), exact") {
#if defined(WB_BACKEND_CUDA)
  if (!on_sm90()) return;
  check_wgmma_product<64, dev::wgmma_major::k>(wb::testing::seed(6464));
#endif
}

}  // namespace
