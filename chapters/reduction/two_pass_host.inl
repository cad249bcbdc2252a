// Stage 1's explicit instantiations, shared by both tracks.
// Included by: solutions/reduction/two_pass.cu and exercises/reduction/two_pass.cu, at their end.
// Launches: nothing itself: the host function with its two launches of two_pass_kernel is the
// stage's lesson and stays in the track file.
namespace reduction::WB_TRACK {

REDUCTION_INSTANTIATE_DEVICE_STAGE(sum_two_pass)

}  // namespace reduction::WB_TRACK
