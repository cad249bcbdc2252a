// Stage 3's shapes, shared by both tracks (the kernels are the learner's; the shapes are given).
#pragma once

namespace matmul {

// coarse-4 (PMPP §6.3, Fig. 6.13): 16 x 16 tiles, each thread COARSE_FACTOR outputs of a row.
inline constexpr int COARSE_TILE = 16;
inline constexpr int COARSE_FACTOR = 4;

// register-8x8: block tile REG_BM x REG_BN, REG_BK-wide slices of K, thread tile REG_TM x REG_TN.
inline constexpr int REG_BM = 128;
inline constexpr int REG_BN = 128;
inline constexpr int REG_BK = 8;
inline constexpr int REG_TM = 8;
inline constexpr int REG_TN = 8;
inline constexpr int REG_THREADS = (REG_BM / REG_TM) * (REG_BN / REG_TN);  // 256, as 16 x 16

}  // namespace matmul
