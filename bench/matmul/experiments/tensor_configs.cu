// Stages 5 and 6 beside cublasGemmEx (bf16 A, B, C, fp32 sums), in one process on the same
// device-made inputs, every output checked against a double-precision product first: each stage
// itself (through its entry point, as the table runs it: stage 6 takes its tile by the shape),
// then the solution's kernels with other template arguments: stage 5's block tiles and pipeline
// depths; stage 6's tiles, ring depths and tile orders, and the simple kernel; last, two kernels
// that are not in the stage: its consumers on alternate tiles (hopper_pingpong.cuh) and clusters
// of two blocks sharing B by TMA multicast (hopper_cluster.cuh). Over the sweep's
// shapes (squares 512-8192, M = 16 and 128 with N = K = 8192, K = 16384) this is what the
// stage's choice of tile by shape is checked against. Needs an sm_90 GPU (compiled for sm_90a).
//
//   build-cuda/bench/matmul/matmul_tensor_configs [--csv FILE] [--only TEXT] [--skip TEXT] 4096 8192 16,8192,8192 ...
//   --only "6 " runs stage 6's configurations alone (and the library rows); --skip pingpong,cluster
//   all but those (a kernel that stops with a trap ends every later run of its process: run the
//   experimental kernels in processes of their own, --only pingpong, --only cluster).
#include "harness.cuh"

#include "hopper.cuh"
#include "hopper_cluster.cuh"
#include "hopper_pingpong.cuh"
#include "wmma.cuh"
// launch_wmma<S>, launch_hopper<S>; the stages' entry points
#include "hopper_host.inl"
#include "wmma_host.inl"

namespace {

using namespace matmul;
using experiment::bench;

template <class S>
void wmma_config(bench<bf16>& b, const std::string& name) {
  b.measure("5", name, [&] { solution::launch_wmma<S>(b.p()); });
}
template <class S>
void hopper_config(bench<bf16>& b, const std::string& name) {
  const problem<bf16> p = b.p();  // N and K multiples of 8 (checked below): no padded copies
  b.measure("6", name, [&b, p] { solution::launch_hopper<S>(p, p.A, p.B); });
}

template <class S>
void pingpong_config(bench<bf16>& b, const std::string& name) {
  b.measure("6", name, [&] { experiment::launch_pingpong<S>(b.p()); });
}

template <class S>
void cluster_config(bench<bf16>& b, const std::string& name) {
  b.measure("6", name, [&] { experiment::launch_cluster<S>(b.p()); });
}

void configs(const experiment::shape& s, const std::string& only) {
  if (s.N % 8 != 0 || s.K % 8 != 0) throw std::invalid_argument("stage 6's configurations need N and K multiples of 8");
  bench<bf16> b(s, only);
  experiment::library_bf16(b);
  b.measure("5", "the stage (256x128x32 3 stages)", [&] { solution::matmul_wmma(b.p()); });
  wmma_config<wmma_shape<256, 128, 32, 4, 2, 4>>(b, "256x128x32 4 stages");
  wmma_config<wmma_shape<128, 256, 32, 2, 4, 3>>(b, "128x256x32 3 stages");
  wmma_config<wmma_shape<128, 128, 32, 2, 4, 4>>(b, "128x128x32 4 stages");
  wmma_config<wmma_shape<256, 128, 64, 4, 2, 2>>(b, "256x128x64 2 stages");

  const wb::workspace ws = b.workspace(solution::hopper_workspace_bytes(s.M, s.N, s.K));
  b.measure("6", "the stage (tile by shape: " + std::string(tile_name(hopper_tile_for(s.M, s.N, wb::multiprocessor_count()))) + ")",
            [&] { solution::matmul_hopper(b.p(), ws); });
  hopper_config<hopper_128x256>(b, "128x256 4 stages groups of 8");
  hopper_config<hopper_shape<128, 256, 3, 8, true>>(b, "128x256 3 stages groups of 8");
  hopper_config<hopper_shape<128, 256, 4, 16, true>>(b, "128x256 4 stages groups of 16");
  hopper_config<hopper_shape<128, 256, 4, 4, true>>(b, "128x256 4 stages groups of 4");
  hopper_config<hopper_shape<128, 256, 4, 1, true>>(b, "128x256 4 stages row order");
  hopper_config<hopper_128x128>(b, "128x128 6 stages");
  hopper_config<hopper_shape<128, 128, 4, 8, true>>(b, "128x128 4 stages");
  hopper_config<hopper_64x128>(b, "64x128 8 stages");
  hopper_config<hopper_shape<64, 256, 5, 8, true>>(b, "64x256 5 stages");
  hopper_config<hopper_64x64>(b, "64x64 8 stages");
  hopper_config<hopper_shape<64, 64, 12, 8, true>>(b, "64x64 12 stages");
  hopper_config<hopper_simple>(b, "simple 128x128 3 stages");
  pingpong_config<experiment::pingpong_shape<128, 128, 6, 8>>(b, "pingpong 128x128 6 stages");
  pingpong_config<experiment::pingpong_shape<64, 256, 5, 8>>(b, "pingpong 64x256 5 stages");
  pingpong_config<experiment::pingpong_shape<128, 128, 6, 16>>(b, "pingpong 128x128 6 stages groups of 16");
  cluster_config<hopper_128x256>(b, "cluster 2x1 multicast B 128x256 4 stages groups of 8");
  cluster_config<hopper_shape<128, 256, 4, 16, true>>(b, "cluster 2x1 multicast B 128x256 4 stages groups of 16");
}

}  // namespace

int main(int argc, char** argv) {
  if (!wb::gpu_available()) {
    std::fprintf(stderr, "matmul_tensor_configs: needs an sm_90 GPU\n");
    return 1;
  }
  try {
    matmul::require_sm90("the experiment");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return matmul::experiment::run(argc, argv, "matmul_tensor_configs [--csv FILE] [--only TEXT] [--skip TEXT] SIZE|M,N,K ...",
                                 configs);
}
