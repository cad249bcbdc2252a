// D5 (the DCA article, every CUDA kernel): the article's kernels wait for their children with
// cudaDeviceSynchronize() in device code. CUDA 12 removed that for compute_90 and later, so
// the article does not compile with today's toolkits. This file is compiled twice by ctest
// on the cuda backend (chapters/counting/CMakeLists.txt): with -DDEFECTIVE (the article's
// way) it must be REJECTED by nvcc; without it (stage 4's way: the work that needs the
// children's results is a tail launch) it must compile.
#include <cuda_runtime.h>

__global__ void child(int* out) { atomicAdd(out, 1); }
__global__ void use_result(const int* out, int* copy) { *copy = *out; }

__global__ void parent(int* out, int* copy) {
  child<<<1, 32>>>(out);
#if defined(DEFECTIVE)
  cudaDeviceSynchronize();  // D5: wait for the child here, then read its result
  *copy = *out;
#else
  use_result<<<1, 1, 0, cudaStreamTailLaunch>>>(out, copy);  // runs after this grid and its children
#endif
}
