// Stage 0's host side, shared by both tracks.
// Included by: solutions/merge/sequential.cu and exercises/merge/sequential.cu, at their end.
// Launches: nothing (stage 0 runs on the host).
// Here: the specification called on host arrays, for the checks and the executable.
namespace merge::WB_TRACK {

template <class K>
void merge_sequential_host(const problem<K>& host) {
  merge_sequential(host.A, host.m, host.B, host.n, host.C, host.A_val, host.B_val, host.C_val);
}

#define MERGE_INSTANTIATE(K) template void merge_sequential_host<K>(const problem<K>&);
MERGE_FOR_EACH_KEY(MERGE_INSTANTIATE)
#undef MERGE_INSTANTIATE

}  // namespace merge::WB_TRACK
