// mma.sync (m16n8k16, bf16 inputs, float accumulators) and ldmatrix on the cpu backend: warp
// collectives of the fiber emulator. Included by wb/mma.hpp, after the fragment types and the
// layout formulas (wb::mma::a_row ...), which these functions read; not meant to be included
// on its own.
//
// How a collective works here (as nvcuda::wmma::mma_sync in wb/cpu/wmma.hpp): each lane copies
// its operands into its warp's row of a per-block table, the warp meets at __syncwarp, each lane
// computes its own results from every lane's operands, and the warp meets again before anyone
// may write the table for the next collective; a lane writes its results only then (d may be c).
// The table is thread_local: one block runs at a time on an OS thread, its threads are fibers.
//
// Faults (the launch fails with a message naming the call's line):
//   - a lane of the warp missing (exited, or elsewhere): reported by the __syncwarp;
//   - lanes at different instructions (mma.sync and ldmatrix are .aligned: the whole warp
//     executes the same one);
//   - ldmatrix: a row address that is not 16-byte aligned;
//   - load_a / load_b: a tile that is not 4-byte aligned, or an odd ld (they read 32-bit pairs).
#pragma once

#include <cstdint>
#include <cstring>
#include <source_location>
#include <string>

#include "wb/cpu/bf16.hpp"
#include "wb/cpu/emulation.hpp"

namespace wb::mma::emulation {

enum class op_kind : int { mma, ldmatrix, ldmatrix_trans };

// What one lane publishes to its warp for one collective.
struct published {
  std::uint32_t a[4];
  std::uint32_t b[2];
  const bf16* row;
  op_kind op;
  int count;  // ldmatrix: how many matrices
  // The call's site. (Not a std::source_location: the table must be trivially constructible,
  // or the thread_local gets an initialisation guard that every lane reads and lane 0 writes.)
  const char* file;
  std::uint_least32_t line, column;
};

inline unsigned linear_thread() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }

// This warp's row of the table.
inline published* warp_table() {
  static thread_local published table[32][32];
  return table[linear_thread() / 32];
}

inline std::string where(const char* op, const char* file_name, std::uint_least32_t line) {
  std::string file = file_name;
  const auto slash = file.find_last_of('/');
  if (slash != std::string::npos) file = file.substr(slash + 1);
  return std::string("wb::mma::") + op + " at " + file + ":" + std::to_string(line);
}
inline std::string where(const char* op, const std::source_location& site) {
  return where(op, site.file_name(), site.line());
}
inline void publish_site(published& entry, const std::source_location& site) {
  entry.file = site.file_name();
  entry.line = site.line();
  entry.column = site.column();
}

inline const char* op_name(op_kind op) {
  switch (op) {
    case op_kind::mma: return "mma_m16n8k16_bf16 (mma.sync)";
    case op_kind::ldmatrix: return "ldmatrix";
    case op_kind::ldmatrix_trans: return "ldmatrix_trans";
  }
  return "?";
}

// After the first __syncwarp: every lane must have reached the same instruction (.aligned).
inline void check_same_instruction(const published* table, unsigned lane) {
  const published& mine = table[lane];
  const published& first = table[0];
  const bool same = mine.op == first.op && mine.count == first.count && mine.line == first.line &&
                    mine.column == first.column && std::strcmp(mine.file, first.file) == 0;
  if (!same) {
    wb::cpu::fault(where(op_name(mine.op), mine.file, mine.line) + ", lane " + std::to_string(lane) + ", meets lane 0 at " +
                   where(op_name(first.op), first.file, first.line) +
                   ": mma.sync and ldmatrix are .aligned, every lane of the warp must execute the same instruction");
  }
}

inline float bf16_value(std::uint32_t pair, int half) { return half == 0 ? low_half(pair) : high_half(pair); }

// d = a * b + c for the warp (register arrays of wb::mma::frag_c / frag_a / frag_b).
inline void mma_m16n8k16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2], const float (&c)[4],
                         const std::source_location& site) {
  published* table = warp_table();
  const unsigned lane = linear_thread() % 32;
  std::memcpy(table[lane].a, a, sizeof a);
  std::memcpy(table[lane].b, b, sizeof b);
  table[lane].row = nullptr;
  table[lane].op = op_kind::mma;
  table[lane].count = 0;
  publish_site(table[lane], site);
  __syncwarp(0xffffffffu, site);  // every lane's operands are published (a lane missing: a fault)
  check_same_instruction(table, lane);
  // The whole A and B from every lane's registers, through the documented layout.
  float A[16][16], B[16][8];
  for (int l = 0; l < 32; ++l) {
    for (int i = 0; i < 8; ++i) A[a_row(l, i)][a_col(l, i)] = bf16_value(table[l].a[i / 2], i % 2);
    for (int i = 0; i < 4; ++i) B[b_row(l, i)][b_col(l, i)] = bf16_value(table[l].b[i / 2], i % 2);
  }
  float out[4];
  for (int i = 0; i < 4; ++i) {
    const int row = c_row(static_cast<int>(lane), i), col = c_col(static_cast<int>(lane), i);
    float sum = c[i];
    for (int k = 0; k < 16; ++k) sum += A[row][k] * B[k][col];  // each product exact in float
    out[i] = sum;
  }
  __syncwarp(0xffffffffu, site);  // everyone has read the table before it is reused, and c before d is written
  for (int i = 0; i < 4; ++i) d[i] = out[i];
}

// ldmatrix.sync.aligned.m8n8.x{Count}[.trans].shared.b16 (see wb/mma.hpp).
template <int Count>
inline void ldmatrix(std::uint32_t (&r)[Count], const bf16* row, bool trans, const std::source_location& site) {
  published* table = warp_table();
  const unsigned lane = linear_thread() % 32;
  table[lane].row = row;
  table[lane].op = trans ? op_kind::ldmatrix_trans : op_kind::ldmatrix;
  table[lane].count = Count;
  publish_site(table[lane], site);
  __syncwarp(0xffffffffu, site);
  check_same_instruction(table, lane);
  for (int l = 0; l < 8 * Count; ++l) {  // the lanes whose addresses are used
    if (reinterpret_cast<std::uintptr_t>(table[l].row) % 16 != 0) {
      wb::cpu::fault(where(op_name(table[lane].op), site) + ": the row address of lane " + std::to_string(l) +
                     " is not 16-byte aligned (each lane of 0.." + std::to_string(8 * Count - 1) +
                     " names the start of a row of 8 bf16, 16 bytes, aligned to 16)");
    }
  }
  const int g = static_cast<int>(lane) / 4, t = static_cast<int>(lane) % 4;
  std::uint32_t out[Count];
  for (int m = 0; m < Count; ++m) {
    const published* rows = table + 8 * m;  // the 8 rows of matrix m
    out[m] = trans ? pack(rows[2 * t].row[g], rows[2 * t + 1].row[g])   // column g, rows 2t and 2t+1
                   : pack(rows[g].row[2 * t], rows[g].row[2 * t + 1]);  // row g, columns 2t and 2t+1
  }
  __syncwarp(0xffffffffu, site);
  for (int m = 0; m < Count; ++m) r[m] = out[m];
}

// load_a / load_b read (element, next element) as one 32-bit word, as a GPU kernel does.
inline void check_pairs(const char* op, const bf16* tile, int ld, const std::source_location& site) {
  if (reinterpret_cast<std::uintptr_t>(tile) % 4 != 0 || ld % 2 != 0) {
    wb::cpu::fault(where(op, site) + ": pairs of bf16 are read as 32-bit words, so the tile must be 4-byte aligned "
                                     "and ld even (ld = " + std::to_string(ld) + ")");
  }
}

}  // namespace wb::mma::emulation
