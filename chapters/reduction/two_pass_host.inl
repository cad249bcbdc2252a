// Stage 1's explicit instantiations, shared by both tracks (included at the end of
// two_pass.cu). The host function itself, with its second launch, is the stage's lesson and
// stays in the track file.
namespace reduction::WB_TRACK {

REDUCTION_INSTANTIATE_DEVICE_STAGE(sum_two_pass)

}  // namespace reduction::WB_TRACK
