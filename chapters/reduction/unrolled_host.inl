// Stage 3's explicit instantiations, shared by both tracks.
// Included by: solutions/reduction/unrolled.cu and exercises/reduction/unrolled.cu, at their end.
// Launches: nothing itself: the host switch over block sizes that launches unrolled_kernel
// (listing 12-4) is part of the stage's lesson (R4, R6) and stays in the track file.
namespace reduction::WB_TRACK {

REDUCTION_INSTANTIATE_DEVICE_STAGE(sum_unrolled)

}  // namespace reduction::WB_TRACK
