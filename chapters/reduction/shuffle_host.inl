// Stage 4's host side, shared by both tracks.
// Included by: solutions/reduction/shuffle.cu and exercises/reduction/shuffle.cu, at their end.
// Launches: shuffle_kernel (the track file's), once per pass.
// Here: two passes, like stage 1, with no dynamic shared memory.
namespace reduction::WB_TRACK {

template <class T>
void sum_shuffle(const T* in, std::int64_t n, sum_t<T>* out, const workspace<T>& ws,
                 const config& cfg) {
  using S = sum_t<T>;
  const std::int64_t blocks = two_pass_blocks(n, cfg, ws.capacity, "sum_shuffle");  // whole warps (R4), up to 1024

  wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(cfg.block)}, shuffle_kernel<T, S>,
             ws.partials, in, n);
  wb::launch({dim3(1), dim3(cfg.block)}, shuffle_kernel<S, S>, out,
             static_cast<const S*>(ws.partials), blocks);
}

REDUCTION_INSTANTIATE_DEVICE_STAGE(sum_shuffle)

}  // namespace reduction::WB_TRACK
