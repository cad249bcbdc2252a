// Host-side defective variants (defective_variants.hpp): stage 1's OpenMP code with D2, D3, D4, the
// chunk helper with D13 and stage 8's host loop with D10 and D11.
#include <omp.h>

#include <algorithm>
#include <vector>

#include "defective_variants.hpp"
#include "histogram_table.hpp"
#include "wb/check.hpp"

namespace counting::defective {

namespace {
std::vector<entry<i8>> sorted(std::vector<std::vector<entry<i8>>> parts) {
  std::vector<entry<i8>> table;
  for (const auto& p : parts) table.insert(table.end(), p.begin(), p.end());
  std::sort(table.begin(), table.end(), [](const entry<i8>& a, const entry<i8>& b) { return a.value < b.value; });
  return table;
}

// One item of stage 1: the first occurrence of its value counts its duplicates.
bool count_item(const i8* d, std::int64_t N, std::int64_t index, entry<i8>& row) {
  for (std::int64_t j = 0; j < index; ++j)
    if (d[j] == d[index]) return false;
  std::uint64_t count = 0;
  for (std::int64_t j = index; j < N; ++j) count += d[j] == d[index] ? 1 : 0;
  row = {d[index], count};
  return true;
}
}  // namespace

std::vector<entry<i8>> omp_dist_count_D2(std::span<const i8> data, int threads) {
  const auto N = static_cast<std::int64_t>(data.size());
  std::vector<std::vector<entry<i8>>> found(static_cast<std::size_t>(threads));
#pragma omp parallel num_threads(threads)
  {
    const int id = omp_get_thread_num();
    const std::int64_t start = id * (N / threads);  // D2: N % threads items never counted
    const std::int64_t end = (id + 1) * (N / threads);
    for (std::int64_t index = start; index < end; ++index) {
      entry<i8> row{};
      if (count_item(data.data(), N, index, row)) found[static_cast<std::size_t>(id)].push_back(row);
    }
  }
  return sorted(std::move(found));
}

std::vector<entry<i8>> omp_dist_count_D3(std::span<const i8> data, int threads) {
  const auto N = static_cast<std::int64_t>(data.size());
  std::vector<entry<i8>> freq_t(static_cast<std::size_t>(N), entry<i8>{0, 0});  // FT_SIZE zeroed entries
  std::int64_t ft_item = 0;
  omp_lock_t lock;
  omp_init_lock(&lock);
#pragma omp parallel for num_threads(threads)
  for (std::int64_t index = 0; index < N; ++index) {
    std::uint64_t count = 0;
    for (std::int64_t j = 0; j < N; ++j) count += data[j] == data[index] ? 1 : 0;
    omp_set_lock(&lock);
    bool exists = false;
    for (std::int64_t item = N - 1; item >= 0 && !exists; --item)  // D3: the unwritten entries too
      if (freq_t[item].value == data[index]) exists = true;
    if (!exists) freq_t[ft_item++] = {data[index], count};
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
  freq_t.resize(static_cast<std::size_t>(ft_item));
  return sorted({freq_t});
}

std::vector<entry<i8>> omp_dist_count_D4(std::span<const i8> data, int threads) {
  const auto N = static_cast<std::int64_t>(data.size());
  std::vector<std::vector<entry<i8>>> found(static_cast<std::size_t>(threads));
#pragma omp parallel num_threads(threads)
  {
    const int id = omp_get_thread_num();
    // D4: the loop bounds go through a narrow index type and wrap.
    const auto end = static_cast<std::uint16_t>(N);
#pragma omp for
    for (int index = 0; index < static_cast<int>(end); ++index) {
      entry<i8> row{};
      if (count_item(data.data(), N, index, row)) found[static_cast<std::size_t>(id)].push_back(row);
    }
  }
  return sorted(std::move(found));
}

chunk_range chunk_bounds_D13(std::int64_t c, std::int64_t chunk, std::int64_t n) {
  const std::int64_t begin = c * chunk;
  const std::int64_t end = begin + chunk;
  if (end > n) return {begin, begin};  // D13: `if (nEnd <= nSize)` skips the last, short chunk
  return {begin, end};
}

// The counting kernel both pipelines use (defective_variants.cu): bins[(uint8_t)v] += ...
void count_chunk_into_bins(const i8* in, std::int64_t n, u64* bins);

void count_pipelined_D10(const i8* host_in, std::int64_t n, device_table<i8> out, void* workspace, std::int64_t chunk) {
  auto* bins = static_cast<u64*>(workspace);
  auto* buffer = reinterpret_cast<i8*>(bins + detail::histogram_bins);
  WB_CHECK(cudaMemset(bins, 0, detail::histogram_bins * sizeof(u64)));
  const std::int64_t chunks = n / chunk;  // D10: the remainder after the last whole chunk is dropped
  for (std::int64_t c = 0; c < chunks; ++c) {
    WB_CHECK(cudaMemcpy(buffer, host_in + c * chunk, static_cast<std::size_t>(chunk - 1), cudaMemcpyHostToDevice));  // D10
    count_chunk_into_bins(buffer, chunk - 1, bins);
  }
  detail::write_histogram_table(bins, out);
  WB_CHECK(cudaDeviceSynchronize());
}

void count_pipelined_D11(const i8* host_in, std::int64_t n, device_table<i8> out, std::int64_t chunk) {
  // The article's per-chunk frequency table has one 16-byte entry per item of the chunk
  // (FreqT[CHUNK_SIZE_HOST]): zeroed on the device, filled, copied back whole, and merged on
  // the host by linear search over every entry.
  struct freq_entry {
    std::int64_t value;
    std::uint64_t freq;
  };
  std::vector<entry<i8>> table;
  std::vector<freq_entry> host_table(static_cast<std::size_t>(chunk));
  for (std::int64_t c = 0; c * chunk < n; ++c) {
    const std::int64_t len = std::min(chunk, n - c * chunk);
    i8* buffer = nullptr;
    freq_entry* chunk_table = nullptr;
    u64* bins = nullptr;
    WB_CHECK(cudaMalloc(&buffer, static_cast<std::size_t>(len)));  // D11: allocations per chunk
    WB_CHECK(cudaMalloc(&chunk_table, static_cast<std::size_t>(chunk) * sizeof(freq_entry)));
    WB_CHECK(cudaMalloc(&bins, detail::histogram_bins * sizeof(u64)));
    WB_CHECK(cudaMemset(chunk_table, 0, static_cast<std::size_t>(chunk) * sizeof(freq_entry)));
    WB_CHECK(cudaMemset(bins, 0, detail::histogram_bins * sizeof(u64)));
    WB_CHECK(cudaMemcpy(buffer, host_in + c * chunk, static_cast<std::size_t>(len), cudaMemcpyHostToDevice));
    count_chunk_into_bins(buffer, len, bins);
    WB_CHECK(cudaDeviceSynchronize());  // D11: the whole device waits after every chunk
    std::vector<u64> host_bins(detail::histogram_bins);
    WB_CHECK(cudaMemcpy(host_bins.data(), bins, host_bins.size() * sizeof(u64), cudaMemcpyDeviceToHost));
    std::vector<freq_entry> filled;
    for (int b = 0; b < detail::histogram_bins; ++b)
      if (host_bins[b] != 0) filled.push_back({static_cast<i8>(b), host_bins[b]});
    if (!filled.empty())
      WB_CHECK(cudaMemcpy(chunk_table, filled.data(), filled.size() * sizeof(freq_entry), cudaMemcpyHostToDevice));
    WB_CHECK(cudaMemcpy(host_table.data(), chunk_table, host_table.size() * sizeof(freq_entry), cudaMemcpyDeviceToHost));
    for (const freq_entry& e : host_table) {  // D11: host merge, linear search per entry
      if (e.freq == 0) continue;
      bool found = false;
      for (auto& row : table) {
        if (row.value == e.value) {
          row.count += e.freq;
          found = true;
          break;
        }
      }
      if (!found) table.push_back({static_cast<i8>(e.value), e.freq});
    }
    WB_CHECK(cudaFree(buffer));
    WB_CHECK(cudaFree(chunk_table));
    WB_CHECK(cudaFree(bins));
  }
  std::sort(table.begin(), table.end(), [](const entry<i8>& a, const entry<i8>& b) { return a.value < b.value; });
  std::vector<i8> values;
  std::vector<u64> counts;
  for (const auto& row : table) {
    values.push_back(row.value);
    counts.push_back(row.count);
  }
  const auto size = static_cast<std::int64_t>(table.size());
  if (size > 0) {
    WB_CHECK(cudaMemcpy(out.values, values.data(), values.size(), cudaMemcpyHostToDevice));
    WB_CHECK(cudaMemcpy(out.counts, counts.data(), counts.size() * sizeof(u64), cudaMemcpyHostToDevice));
  }
  WB_CHECK(cudaMemcpy(out.size, &size, sizeof size, cudaMemcpyHostToDevice));
}

}  // namespace counting::defective
