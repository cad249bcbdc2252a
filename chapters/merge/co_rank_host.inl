// Stage 1's host side, shared by both tracks.
// Included by: solutions/merge/co_rank.cu and exercises/merge/co_rank.cu, at their end.
// Launches: co_rank_kernel (defined here), which calls the track's co_rank.
// Here: co_rank called on the host, and on the device for every output rank, for the checks,
// the executable and --trace; part_begin (stage 2's output_ranges.cuh) called on the host.
namespace merge::WB_TRACK {

template <class K>
std::int64_t co_rank_host(std::int64_t k, const K* A, std::int64_t m, const K* B, std::int64_t n) {
  return co_rank(k, A, m, B, n);
}

// One thread per rank k in [0, m+n]: a grid-stride loop, so any size fits in one launch.
template <class K>
__global__ void co_rank_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n, std::int64_t* i_of_k) {
  for (std::int64_t k = wb::global_thread_index(); k <= m + n; k += wb::grid_thread_count()) {
    i_of_k[k] = co_rank(k, A, m, B, n);
  }
}

template <class K>
void co_rank_device(const K* A, std::int64_t m, const K* B, std::int64_t n, std::int64_t* i_of_k) {
  const int block = 256;
  const std::int64_t grid = min_of<std::int64_t>(ceil_div(m + n + 1, block), 4096);
  wb::launch({static_cast<unsigned>(grid), block}, co_rank_kernel<K>, A, m, B, n, i_of_k);
}

std::int64_t part_begin_host(std::int64_t p, std::int64_t parts, std::int64_t total) {
  return part_begin(p, parts, total);
}

#define MERGE_INSTANTIATE(K)                                                                                    \
  template std::int64_t co_rank_host<K>(std::int64_t, const K*, std::int64_t, const K*, std::int64_t);         \
  template void co_rank_device<K>(const K*, std::int64_t, const K*, std::int64_t, std::int64_t*);
MERGE_FOR_EACH_KEY(MERGE_INSTANTIATE)
#undef MERGE_INSTANTIATE

}  // namespace merge::WB_TRACK
