// Stage 0's explicit instantiations, shared by both tracks.
// Included by: solutions/reduction/sequential.cpp and exercises/reduction/sequential.cpp, at
// their end.
// Launches: nothing (stage 0 runs on the host).
// Here: the four input types every stage handles.
namespace reduction::WB_TRACK {

template std::int64_t sum_sequential<std::int32_t>(std::span<const std::int32_t>);
template std::int64_t sum_sequential<std::int64_t>(std::span<const std::int64_t>);
template float sum_sequential<float>(std::span<const float>);
template double sum_sequential<double>(std::span<const double>);

}  // namespace reduction::WB_TRACK
