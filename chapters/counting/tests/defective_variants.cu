// Device-side defective variants (defective_variants.hpp): stage 4's count-if child with D6 and D7,
// its merge with D8 and D9, stage 3 with D12, and the plain counting kernel the defective
// pipelines use.
#include "defective_variants.hpp"
#include "wb/kernel.hpp"

namespace counting::defective {

namespace {

// Stage 4's count_if_kernel with the barrier after the zeroing removed (D6).
__global__ void count_if_D6_kernel(const i8* in, std::int64_t n, i8 value, u64* count) {
  __shared__ unsigned long long block_count;
  if (threadIdx.x == 0) block_count = 0;  // D6: no barrier: others may have added already
  unsigned long long mine = 0;
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count())
    if (in[i] == value) ++mine;
  if (mine != 0) atomicAdd(&block_count, mine);
  __syncthreads();
  if (threadIdx.x == 0 && block_count != 0) atomicAdd(reinterpret_cast<unsigned long long*>(count), block_count);
}

// Stage 4's count_if_kernel as the article wrote it: one block, one item per thread (D7).
__global__ void count_if_D7_kernel(const i8* in, std::int64_t n, i8 value, u64* count) {
  __shared__ unsigned long long block_count;
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();
  if (threadIdx.x < n && in[threadIdx.x] == value) atomicAdd(&block_count, 1ull);  // D7
  __syncthreads();
  if (threadIdx.x == 0 && block_count != 0) atomicAdd(reinterpret_cast<unsigned long long*>(count), block_count);
}

enum class merge_defect { D8, D9 };

// Stage 4's merge_kernel with one defect.
template <merge_defect defect>
__global__ void merge_defective_kernel(const i8* slot_value, const u64* slot_count, std::int64_t n, std::int64_t chunk,
                                       u64* merged) {
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    u64 total = 0;
    const std::int64_t chunk_begin = i / chunk * chunk;
    const std::int64_t chunk_length = (n - chunk_begin < chunk ? n - chunk_begin : chunk);
    bool kept = slot_count[i] > 0;
    if (defect == merge_defect::D8) kept = kept && slot_count[i] < static_cast<u64>(chunk_length);  // D8
    if (kept) {
      const i8 v = slot_value[i];
      bool first = true;
      for (std::int64_t j = 0; j < chunk_begin && first; ++j) {
        const bool same = defect == merge_defect::D9 ? static_cast<u64>(static_cast<std::uint8_t>(v)) == slot_count[j]  // D9
                                                     : slot_value[j] == v;
        if (slot_count[j] > 0 && same) first = false;
      }
      if (first) {
        total = slot_count[i];
        for (std::int64_t j = chunk_begin + chunk; j < n; ++j) {
          const bool same = defect == merge_defect::D9 ? static_cast<u64>(static_cast<std::uint8_t>(v)) == slot_count[j]
                                                       : slot_value[j] == v;
          if (slot_count[j] > 0 && same) total += slot_count[j];
        }
      }
    }
    merged[i] = total;
  }
}

__global__ void rank_kernel(const i8* slot_value, const u64* merged, std::int64_t n, device_table<i8> out) {
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    if (merged[i] == 0) continue;
    std::int64_t rank = 0;
    for (std::int64_t j = 0; j < n; ++j) rank += (merged[j] != 0 && slot_value[j] < slot_value[i]) ? 1 : 0;
    out.values[rank] = slot_value[i];
    out.counts[rank] = merged[i];
    atomicAdd(reinterpret_cast<unsigned long long*>(out.size), 1ull);
  }
}

template <merge_defect defect>
void merge_defective(const i8* slot_value, const u64* slot_count, std::int64_t n, std::int64_t chunk, u64* merged,
                     device_table<i8> out) {
  WB_CHECK(cudaMemset(out.size, 0, sizeof(std::int64_t)));
  if (n == 0) return;
  const auto blocks = static_cast<unsigned>(wb::ceil_div(n, 256));
  wb::launch({blocks, 256}, merge_defective_kernel<defect>, slot_value, slot_count, n, chunk, merged);
  wb::launch({blocks, 256}, rank_kernel, slot_value, static_cast<const u64*>(merged), n, out);
}

// Stage 3 with D12: thread t counts its item's duplicates, then asks a shared table written
// by the other threads whether a lower thread has reported the value already, with no
// barrier between their writes and its reads (and the table starts out as garbage).
__global__ void direct_port_D12_kernel(const i8* in, std::int64_t n, i8* values, u64* counts, unsigned* rows) {
  unsigned* reported = wb::dynamic_shared<unsigned>();  // [t]: 1 if thread t reported
  auto* reported_value = reinterpret_cast<i8*>(reported + blockDim.x);
  const unsigned t = threadIdx.x;
  if (t >= n) return;
  const i8 v = in[t];
  u64 count = 0;
  for (std::int64_t j = 0; j < n; ++j) count += in[j] == v ? 1 : 0;
  bool seen = false;
  for (unsigned k = 0; k < t; ++k)
    if (reported[k] == 1 && reported_value[k] == v) seen = true;  // D12: reads writes that may not have happened
  if (!seen) {
    reported_value[t] = v;
    reported[t] = 1;
    const unsigned row = atomicAdd(rows, 1u);
    values[row] = v;
    counts[row] = count;
  }
}

__global__ void count_into_bins_kernel(const i8* in, std::int64_t n, u64* bins) {
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count())
    atomicAdd(reinterpret_cast<unsigned long long*>(&bins[static_cast<std::uint8_t>(in[i])]), 1ull);
}

}  // namespace

void count_if_D6(const i8* in, std::int64_t n, i8 value, u64* count) {
  if (n <= 0) return;
  const auto blocks = static_cast<unsigned>(wb::ceil_div(n, 128) < 16 ? wb::ceil_div(n, 128) : 16);
  wb::launch({blocks, 128}, count_if_D6_kernel, in, n, value, count);
}

void count_if_D7(const i8* in, std::int64_t n, i8 value, u64* count) {
  wb::launch({1, 128}, count_if_D7_kernel, in, n, value, count);
}

void merge_chunk_tables_D8(const i8* slot_value, const u64* slot_count, std::int64_t n, std::int64_t chunk, u64* merged,
                           device_table<i8> out) {
  merge_defective<merge_defect::D8>(slot_value, slot_count, n, chunk, merged, out);
}

void merge_chunk_tables_D9(const i8* slot_value, const u64* slot_count, std::int64_t n, std::int64_t chunk, u64* merged,
                           device_table<i8> out) {
  merge_defective<merge_defect::D9>(slot_value, slot_count, n, chunk, merged, out);
}

void count_direct_port_D12(const i8* in, std::int64_t n, i8* values, u64* counts, unsigned* rows) {
  WB_CHECK(cudaMemset(rows, 0, sizeof(unsigned)));
  if (n <= 0) return;
  const unsigned block = static_cast<unsigned>((n + 31) / 32 * 32);
  wb::launch({1, block, block * (sizeof(unsigned) + 1)}, direct_port_D12_kernel, in, n, values, counts, rows);
}

void count_chunk_into_bins(const i8* in, std::int64_t n, u64* bins) {
  if (n <= 0) return;
  const auto blocks = static_cast<unsigned>(wb::ceil_div(n, 256) < 64 ? wb::ceil_div(n, 256) : 64);
  wb::launch({blocks, 256}, count_into_bins_kernel, in, n, bins);
}

}  // namespace counting::defective
