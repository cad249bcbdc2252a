// Stage 6's Hopper instructions, one small function each, named after the PTX they issue
// (PTX ISA: "Parallel synchronization: mbarrier", "Data movement: cp.async.bulk.tensor",
// "Asynchronous warpgroup level matrix multiply-accumulate: wgmma", "setmaxnreg"). Shared by
// both tracks (like the shapes of stages 4 and 5): the stage is about how they fit together.
// Device code for sm_90a only (the a: wgmma and setmaxnreg exist on that exact architecture);
// the CMake build compiles stage 6's translation unit for it alone.
#pragma once

#include <cstdint>

#include <cuda.h>  // CUtensorMap (a type only: the driver library is not linked)

#include "wb/kernel.hpp"

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "stage 6 uses wgmma and setmaxnreg: compile it for sm_90a (-gencode=arch=compute_90a,code=sm_90a)"
#endif

namespace matmul::hopper_ptx {

// The 32-bit shared-memory address PTX instructions take for a generic pointer to shared memory.
__device__ __forceinline__ std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// ---- mbarrier: a barrier in shared memory that counts arrivals and transferred bytes --------
// A phase completes when `count` threads have arrived and every byte announced with
// expect_tx has landed; then the next phase begins. Waiters name the phase by its parity.

// One thread, before any use; then fence_barrier_init and a __syncthreads().
__device__ __forceinline__ void mbarrier_init(std::uint64_t* bar, std::uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(count) : "memory");
}
// Makes initialised barriers visible to the other threads and to the TMA unit (async proxy).
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
// Arrives (one of the phase's `count`) and announces `bytes` more to wait for in this phase.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(std::uint64_t* bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbarrier_arrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(bar)) : "memory");
}
// Waits until the phase with parity `parity` has completed. A wrong count, parity or byte
// total would wait forever: after about 10 seconds (2^34 cycles) the kernel stops with a trap
// instead (a launch error, not a hang). No printf here: a function call inside the consumers'
// loop would make the compiler serialize the wgmmas around it.
__device__ __forceinline__ void mbarrier_wait(std::uint64_t* bar, std::uint32_t parity) {
  const std::uint32_t address = shared_address(bar);
  std::uint32_t done = 0;
  long long start = 0;
  for (;;) {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(address), "r"(parity)
        : "memory");
    if (done) return;
    if (start == 0) {
      start = clock64();
    } else if (clock64() - start > (1ll << 34)) {
      __trap();
    }
  }
}

// ---- TMA: the tensor memory accelerator copies a box of a tensor map into shared memory ----
// One thread issues it; the bytes complete_tx on `bar`. Coordinates are in elements,
// innermost (the column) first; parts of the box outside the tensor are filled with zeros
// (and still count as bytes). The destination is 1024-byte aligned for the 128-byte swizzle.
__device__ __forceinline__ void tma_load_2d(void* shared_dst, const CUtensorMap* map, std::uint64_t* bar, int column,
                                            int row) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
          shared_address(shared_dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(column), "r"(row), "r"(shared_address(bar))
      : "memory");
}

// ---- wgmma: a warpgroup's matrix multiply-accumulate, operands in shared memory --------------
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

// ---- setmaxnreg: move registers between the warpgroups of a block ---------------------------
// The producer needs few registers, the consumers many (128 accumulators each): the producer
// gives some back and the consumers take them. All warps of a warpgroup execute it.
template <int REGISTERS>
__device__ __forceinline__ void setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(REGISTERS));
}
template <int REGISTERS>
__device__ __forceinline__ void setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(REGISTERS));
}

// D[64 x 256] = A[64 x 16] * B[16 x 256] + (accumulate ? D : 0): A K-major and B N-major in shared
// memory (descriptors), bf16 inputs, f32 accumulators, 128 per thread (accumulator_row/_col).
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
      " %128, %129, p, 1, 1, 0, 1;\n"  // scale-d p; scale-a, scale-b 1; trans-a 0 (K-major), trans-b 1 (N-major)
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
      : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}

// D[64 x 128] = A[64 x 16] * B[16 x 128] + (accumulate ? D : 0): A K-major and B N-major in shared
// memory (descriptors), bf16 inputs, f32 accumulators, 64 per thread (accumulator_row/_col).
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
      " %64, %65, p, 1, 1, 0, 1;\n"  // scale-d p; scale-a, scale-b 1; trans-a 0 (K-major), trans-b 1 (N-major)
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}

// D[64 x 64] = A[64 x 16] * B[16 x 64] + (accumulate ? D : 0): as above, 32 accumulators per thread.
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
      " %32, %33, p, 1, 1, 0, 1;\n"  // scale-d p; scale-a, scale-b 1; trans-a 0 (K-major), trans-b 1 (N-major)
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}

// One wgmma m64nNk16 whose N the accumulator array's size gives (N / 2 floats per thread).
__device__ __forceinline__ void wgmma_bf16(float (&d)[32], std::uint64_t desc_a, std::uint64_t desc_b) {
  wgmma_m64n64k16_bf16(d, desc_a, desc_b);
}
__device__ __forceinline__ void wgmma_bf16(float (&d)[64], std::uint64_t desc_a, std::uint64_t desc_b) {
  wgmma_m64n128k16_bf16(d, desc_a, desc_b);
}
__device__ __forceinline__ void wgmma_bf16(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b) {
  wgmma_m64n256k16_bf16(d, desc_a, desc_b);
}

}  // namespace matmul::hopper_ptx
