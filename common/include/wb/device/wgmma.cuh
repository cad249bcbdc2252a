// wgmma: a warpgroup's (4 warps, 128 threads) matrix multiply-accumulate on the tensor cores,
// with operands in shared memory read through descriptors and f32 accumulators in registers,
// issued asynchronously (PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate
// Instructions", docs.nvidia.com/cuda/parallel-thread-execution/
// #asynchronous-warpgroup-level-matrix-instructions; PTX ISA 8.0, sm_90a only).
//
// Why: one wgmma.m64nNk16 does 64 x N x 16 multiply-adds (up to 64 x 256 x 16) where an
// mma.sync does 16 x 8 x 16, the operands are not loaded into registers first, and the
// instructions run while the warpgroup goes on (issuing the next ones, waiting for data): the
// only way to the Hopper tensor cores' full rate.
//
//   wgmma_fence()             before the first wgmma, and whenever the accumulators (or A in
//                             registers) were touched by other instructions since
//   wgmma_m64n{64,128,256}k16_bf16(d, desc_a, desc_b, accumulate)
//                             d = A * B (+ d when accumulate): A 64 x 16, B 16 x N, bf16
//   wgmma_m64n{176,192}k16_bf16(...)  the same for N = 176, 192
//   wgmma_bf16(d, desc_a, desc_b[, accumulate])  the same, N from the size of d (N / 2 floats)
//   wgmma_rs_m64n{64,128}k16_bf16(d, a, desc_b, accumulate)
//                             the same with A from registers (4 x bf16x2 per thread, the
//                             layout of a 64 x 16 block of accumulators: see below)
//   wgmma_rs_bf16(d, a, desc_b)     the same, N from the size of d, accumulating
//   wgmma_commit()            closes the group of wgmmas issued since the last commit
//   wgmma_wait<N>()           returns when at most N committed groups are still running
//   accumulators_settle(d)    after a wait: the accumulators may have changed (see below)
//
// All four warps of the warpgroup execute every one of them (.sync.aligned), with the same
// descriptors. The descriptors and the accumulators' layout: wb/device/wgmma_layout.hpp. The
// operands' majors are template arguments, by default those of a GEMM of row-major matrices:
// A K-major (imm-trans-a 0), B MN-major (imm-trans-b 1); B K-major (wgmma_major::k) is B^T
// stored row by row, as K in Q K^T.
// cuda backend, sm_90a only (the "a": wgmma exists on that exact architecture; compile with
// -gencode=arch=compute_90a,code=sm_90a). The cpu backend emulates no wgmma (common/CPU-BACKEND.md).
#pragma once

#include <cstdint>

#include "wb/device/wgmma_layout.hpp"
#include "wb/runtime.hpp"

#if !defined(WB_BACKEND_CUDA)
#error "wb/device/wgmma.cuh is for the cuda backend (include it under #if defined(WB_BACKEND_CUDA))"
#endif
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "wb/device/wgmma.cuh: wgmma exists on sm_90a only: compile with -gencode=arch=compute_90a,code=sm_90a"
#endif

namespace wb::device {

// wgmma_fence before the first wgmma and after registers it uses were touched by other code;
// commit closes a group of issued wgmmas; wait<N> returns when at most N groups are pending.
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

// The compiler sees the accumulators change only where a wgmma is issued; this tells it they
// may change here too (after a wait), so it reads them no earlier.
template <int R>
__device__ __forceinline__ void accumulators_settle(float (&d)[R]) {
#pragma unroll
  for (int i = 0; i < R; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// D[64 x 256] = A[64 x 16] * B[16 x 256] + (accumulate ? D : 0): bf16 inputs in shared memory
// (descriptors), f32 accumulators, 128 per thread.
template <wgmma_major A = wgmma_major::k, wgmma_major B = wgmma_major::mn>
__device__ __forceinline__ void wgmma_m64n256k16_bf16(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b,
                                                      int accumulate = 1) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16\n"
      "{"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,"
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
      "},\n"
      " %128, %129, p, 1, 1, %131, %132;\n"  // scale-d p; scale-a, scale-b 1; imm-trans-a, imm-trans-b
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(static_cast<int>(A)), "n"(static_cast<int>(B)));
}

// D[64 x 128] = A[64 x 16] * B[16 x 128] + (accumulate ? D : 0): as above, 64 accumulators per thread.
template <wgmma_major A = wgmma_major::k, wgmma_major B = wgmma_major::mn>
__device__ __forceinline__ void wgmma_m64n128k16_bf16(float (&d)[64], std::uint64_t desc_a, std::uint64_t desc_b,
                                                      int accumulate = 1) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16\n"
      "{"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
      "},\n"
      " %64, %65, p, 1, 1, %67, %68;\n"  // scale-d p; scale-a, scale-b 1; imm-trans-a, imm-trans-b
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(static_cast<int>(A)), "n"(static_cast<int>(B)));
}

// D[64 x 64] = A[64 x 16] * B[16 x 64] + (accumulate ? D : 0): as above, 32 accumulators per thread.
template <wgmma_major A = wgmma_major::k, wgmma_major B = wgmma_major::mn>
__device__ __forceinline__ void wgmma_m64n64k16_bf16(float (&d)[32], std::uint64_t desc_a, std::uint64_t desc_b,
                                                     int accumulate = 1) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16\n"
      "{"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
      "},\n"
      " %32, %33, p, 1, 1, %35, %36;\n"  // scale-d p; scale-a, scale-b 1; imm-trans-a, imm-trans-b
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(static_cast<int>(A)), "n"(static_cast<int>(B)));
}
// D[64 x 176] = A[64 x 16] * B[16 x 176] + (accumulate ? D : 0): as above, 88 accumulators per
// thread (N may be any multiple of 8 up to 256 for bf16; 176 is FlashAttention-3's key tile for
// d = 128 without the causal mask, Shah et al. 2024, its released configurations).
template <wgmma_major A = wgmma_major::k, wgmma_major B = wgmma_major::mn>
__device__ __forceinline__ void wgmma_m64n176k16_bf16(float (&d)[88], std::uint64_t desc_a, std::uint64_t desc_b,
                                                      int accumulate = 1) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %90, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n176k16.f32.bf16.bf16\n"
      "{"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
      "%80, %81, %82, %83, %84, %85, %86, %87"
      "},\n"
      " %88, %89, p, 1, 1, %91, %92;\n"  // scale-d p; scale-a, scale-b 1; imm-trans-a, imm-trans-b
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(static_cast<int>(A)), "n"(static_cast<int>(B)));
}
// D[64 x 192] = A[64 x 16] * B[16 x 192] + (accumulate ? D : 0): as above, 96 accumulators per thread.
template <wgmma_major A = wgmma_major::k, wgmma_major B = wgmma_major::mn>
__device__ __forceinline__ void wgmma_m64n192k16_bf16(float (&d)[96], std::uint64_t desc_a, std::uint64_t desc_b,
                                                      int accumulate = 1) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %98, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16\n"
      "{"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
      "},\n"
      " %96, %97, p, 1, 1, %99, %100;\n"  // scale-d p; scale-a, scale-b 1; imm-trans-a, imm-trans-b
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(static_cast<int>(A)), "n"(static_cast<int>(B)));
}
// One wgmma m64nNk16 whose N the accumulator array's size gives (N / 2 floats per thread),
// accumulating unless told otherwise.
template <wgmma_major A = wgmma_major::k, wgmma_major B = wgmma_major::mn>
__device__ __forceinline__ void wgmma_bf16(float (&d)[32], std::uint64_t desc_a, std::uint64_t desc_b,
                                           int accumulate = 1) {
  wgmma_m64n64k16_bf16<A, B>(d, desc_a, desc_b, accumulate);
}
template <wgmma_major A = wgmma_major::k, wgmma_major B = wgmma_major::mn>
__device__ __forceinline__ void wgmma_bf16(float (&d)[64], std::uint64_t desc_a, std::uint64_t desc_b,
                                           int accumulate = 1) {
  wgmma_m64n128k16_bf16<A, B>(d, desc_a, desc_b, accumulate);
}
template <wgmma_major A = wgmma_major::k, wgmma_major B = wgmma_major::mn>
__device__ __forceinline__ void wgmma_bf16(float (&d)[88], std::uint64_t desc_a, std::uint64_t desc_b,
                                           int accumulate = 1) {
  wgmma_m64n176k16_bf16<A, B>(d, desc_a, desc_b, accumulate);
}
template <wgmma_major A = wgmma_major::k, wgmma_major B = wgmma_major::mn>
__device__ __forceinline__ void wgmma_bf16(float (&d)[96], std::uint64_t desc_a, std::uint64_t desc_b,
                                           int accumulate = 1) {
  wgmma_m64n192k16_bf16<A, B>(d, desc_a, desc_b, accumulate);
}
template <wgmma_major A = wgmma_major::k, wgmma_major B = wgmma_major::mn>
__device__ __forceinline__ void wgmma_bf16(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b,
                                           int accumulate = 1) {
  wgmma_m64n256k16_bf16<A, B>(d, desc_a, desc_b, accumulate);
}

// D[64 x 64] = A[64 x 16] * B[16 x 64] + (accumulate ? D : 0) with A in REGISTERS: thread t
// holds a[0..3], each two bf16 (the lower half the lower column), at the places of accumulator
// registers 0-7 of a 64 x 16 block (wgmma_accumulator_row/col): a[j] = rows/columns of
// accumulators 2j, 2j + 1. So the bf16 of a wgmma's f32 result, 8 accumulators at a time, is
// the A of the next one with no data movement (FlashAttention-3's P = softmax(S), Shah et al.
// 2024, §3.1). PTX ISA, "Register Fragments", the figure for the A matrix of wgmma .m64nNk16.
// No imm-trans-a in this form: A in registers is always K-major.
template <wgmma_major B = wgmma_major::mn>
__device__ __forceinline__ void wgmma_rs_m64n64k16_bf16(float (&d)[32], const std::uint32_t (&a)[4],
                                                      std::uint64_t desc_b, int accumulate = 1) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %37, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16\n"
      "{"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
      "},\n"
      " {%32, %33, %34, %35}, %36, p, 1, 1, %38;\n"  // A regs; B desc; scale-d p; scale-a, scale-b 1; imm-trans-b
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(accumulate), "n"(static_cast<int>(B)));
}

// D[64 x 128] = A[64 x 16] * B[16 x 128] + (accumulate ? D : 0) with A in REGISTERS: thread t
// holds a[0..3], each two bf16 (the lower half the lower column), at the places of accumulator
// registers 0-7 of a 64 x 16 block (wgmma_accumulator_row/col): a[j] = rows/columns of
// accumulators 2j, 2j + 1. So the bf16 of a wgmma's f32 result, 8 accumulators at a time, is
// the A of the next one with no data movement (FlashAttention-3's P = softmax(S), Shah et al.
// 2024, §3.1). PTX ISA, "Register Fragments", the figure for the A matrix of wgmma .m64nNk16.
// No imm-trans-a in this form: A in registers is always K-major.
template <wgmma_major B = wgmma_major::mn>
__device__ __forceinline__ void wgmma_rs_m64n128k16_bf16(float (&d)[64], const std::uint32_t (&a)[4],
                                                      std::uint64_t desc_b, int accumulate = 1) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %69, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16\n"
      "{"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
      "},\n"
      " {%64, %65, %66, %67}, %68, p, 1, 1, %70;\n"  // A regs; B desc; scale-d p; scale-a, scale-b 1; imm-trans-b
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(accumulate), "n"(static_cast<int>(B)));
}
// One register-A wgmma m64nNk16 whose N the accumulator array's size gives, accumulating.
template <wgmma_major B = wgmma_major::mn>
__device__ __forceinline__ void wgmma_rs_bf16(float (&d)[32], const std::uint32_t (&a)[4], std::uint64_t desc_b) {
  wgmma_rs_m64n64k16_bf16<B>(d, a, desc_b);
}
template <wgmma_major B = wgmma_major::mn>
__device__ __forceinline__ void wgmma_rs_bf16(float (&d)[64], const std::uint32_t (&a)[4], std::uint64_t desc_b) {
  wgmma_rs_m64n128k16_bf16<B>(d, a, desc_b);
}

}  // namespace wb::device
