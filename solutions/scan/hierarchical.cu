// Stage 4: hierarchical scan for any length (PMPP §11.6). Three launches:
//   1. every block scans its own section (the coarsened block scan) and writes the
//      section's total to sums[block];
//   2. the sums are scanned the same way, in place (recursively, when they fill more than
//      one section themselves);
//   3. every block of section b > 0 adds sums[b - 1], the total of all sections before it.
// The input is read twice and the output written twice: about 4n memory traffic for 2n.
#include <cstdint>

#include "coarsened_block_scan.cuh"
#include "scan.hpp"
#include "wb/kernel.hpp"

namespace scan::WB_TRACK {

// One block per section; blockDim.x * items * sizeof(T) bytes of dynamic shared memory.
// In place (in == out) is allowed: a block reads its whole section before writing it.
template <class T>
__global__ void scan_sections_kernel(const T* in, T* out, T* sums, std::int64_t n, int items, bool exclusive) {
  T* s = wb::dynamic_shared<T>();
  const std::int64_t section = static_cast<std::int64_t>(blockDim.x) * items;
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * section;  // 64-bit: n may pass 2^31
  load_section(s, in, base, n, items);
  block_scan_coarsened(s, items);
  store_section(s, out, base, n, items, T{}, exclusive);
  if (threadIdx.x == 0) sums[blockIdx.x] = s[section - 1];
}

// Block b adds sums[b] (the inclusive scan of the section totals) to section b + 1.
template <class T>
__global__ void add_section_sums_kernel(T* out, const T* sums, std::int64_t n, std::int64_t section) {
  const T before = sums[blockIdx.x];
  const std::int64_t base = (static_cast<std::int64_t>(blockIdx.x) + 1) * section;
  const std::int64_t end = base + section < n ? base + section : n;
  for (std::int64_t i = base + threadIdx.x; i < end; i += blockDim.x) out[i] = plus(before, out[i]);
}

namespace {
template <class T>
void scan_level(const T* in, T* out, std::int64_t n, carver& ws, int block, int items, bool exclusive) {
  const std::int64_t section = static_cast<std::int64_t>(block) * items;
  const std::int64_t sections = (n + section - 1) / section;
  T* sums = ws.take<T>(sections);
  wb::launch({dim3(static_cast<unsigned>(sections)), dim3(block), static_cast<std::size_t>(section) * sizeof(T)},
             scan_sections_kernel<T>, in, out, sums, n, items, exclusive);
  if (sections > 1) {
    // The totals' own scan is inclusive whatever the output wants: section b needs the sum
    // of sections 0..b-1, which is entry b-1 of the inclusive scan.
    scan_level<T>(sums, sums, sections, ws, block, items, false);
    wb::launch({dim3(static_cast<unsigned>(sections - 1)), dim3(block)}, add_section_sums_kernel<T>, out,
               static_cast<const T*>(sums), n, section);
  }
}
}  // namespace

template <class T>
void scan_hierarchical(const T* in, T* out, std::int64_t n, const workspace& ws, const config& cfg) {
  validate(cfg, sizeof(T));
  if (n == 0) return;
  carver pieces(ws, "scan_hierarchical");
  scan_level<T>(in, out, n, pieces, cfg.block, items_for(4, cfg, sizeof(T)), cfg.exclusive);
}

SCAN_INSTANTIATE_DEVICE_STAGE(scan_hierarchical)

}  // namespace scan::WB_TRACK
