// Stage 4's shapes beside cublasSgemm, in one process on the same device-made inputs, every
// output checked against a double-precision product first: the stage itself (through its entry
// point, as the table runs it), then the solution's kernel with other template arguments (block
// tile, k-slice, per-thread tile, blocks per SM, shared-memory layout, buffering). The stage's
// default is the fastest of these that the README's measurements name.
//
//   build-cuda/bench/matmul/matmul_fp32_configs [--csv FILE] [--only TEXT] 4096 8192 [M,N,K ...]
#include "harness.cuh"

#include "fp32_ceiling.cuh"
#include "fp32_ceiling_host.inl"  // launch_fp32_ceiling<S>; the stage's entry point

namespace {

using namespace matmul;
using experiment::bench;
using L = a_layout;

template <class S>
void config(bench<float>& b, const std::string& name) {
  b.measure("4", name, [&] { solution::launch_fp32_ceiling<S>(b.p()); });
}

void configs(const experiment::shape& s, const std::string& only) {
  bench<float> b(s, only);
  experiment::library_fp32(b);
  b.measure("4", "the stage (128x256x8 8x16 a thread swizzled two buffers)",
            [&] { solution::matmul_fp32_ceiling(b.p()); });
  config<fp32_shape<128, 256, 8, 8, 16, L::swizzled, false, 1>>(b, "128x256x8 single buffer");
  config<fp32_shape<128, 256, 16, 8, 16, L::swizzled, true, 1>>(b, "128x256x16");
  config<fp32_shape<128, 256, 16, 8, 16, L::swizzled, false, 1>>(b, "128x256x16 single buffer");
  config<fp32_shape<256, 128, 8, 16, 8, L::swizzled, true, 1>>(b, "256x128x8 16x8 a thread");
  config<fp32_shape<256, 128, 8, 16, 8, L::swizzled, false, 1>>(b, "256x128x8 16x8 a thread single buffer");
  config<fp32_128x128>(b, "128x128x8 8x8 a thread two blocks per SM");
  config<fp32_shape<128, 128, 8, 8, 8, L::swizzled, false>>(b, "128x128x8 single buffer two blocks per SM");
  config<fp32_shape<128, 128, 8, 8, 8, L::swizzled, true, 1>>(b, "128x128x8 one block per SM (no register cap)");
  config<fp32_shape<128, 128, 16, 8, 8, L::swizzled, false>>(b, "128x128x16 single buffer two blocks per SM");
  config<fp32_shape<128, 64, 8, 8, 8, L::swizzled, true, 3>>(b, "128x64x8 128 threads three blocks per SM");
}

}  // namespace

int main(int argc, char** argv) {
  return matmul::experiment::run(argc, argv, "matmul_fp32_configs [--csv FILE] [--only TEXT] [--skip TEXT] SIZE|M,N,K ...", configs);
}
