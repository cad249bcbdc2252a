// Stage 2's host side, shared by both tracks.
// Included by: solutions/reduction/warp_synchronous.cu and exercises/reduction/warp_synchronous.cu,
// at their end.
// Launches: warp_synchronous_kernel (the track file's), once per pass.
// Here: the same two passes as stage 1.
namespace reduction::WB_TRACK {

template <class T>
void sum_warp_synchronous(const T* in, std::int64_t n, sum_t<T>* out, const workspace<T>& ws,
                          const config& cfg) {
  using S = sum_t<T>;
  const std::int64_t blocks = two_pass_blocks(n, cfg, ws.capacity, "sum_warp_synchronous");  // R2, R4
  const std::size_t shared = static_cast<std::size_t>(cfg.block) * sizeof(S);

  wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(cfg.block), shared},
             warp_synchronous_kernel<T, S>, ws.partials, in, n);
  wb::launch({dim3(1), dim3(cfg.block), shared}, warp_synchronous_kernel<S, S>, out,
             static_cast<const S*>(ws.partials), blocks);
}

REDUCTION_INSTANTIATE_DEVICE_STAGE(sum_warp_synchronous)

}  // namespace reduction::WB_TRACK
