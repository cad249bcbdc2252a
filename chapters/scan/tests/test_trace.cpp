// --trace runs the tracks' own kernels of stages 1 and 2 on the traced input, beside the book's
// steps, and marks the items a kernel gets wrong (kernels registered here stand for a wrong one
// and a right one) and names the tracks whose kernel was wrong (--trace's exit status).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "trace_kernels.hpp"
#include "wb/device_buffer.hpp"

namespace {

// Writes 0 for every item: the scan of 1, 2, 3, ... is wrong everywhere.
void writes_zeros(const std::int32_t*, std::int32_t* out, std::int64_t n, const scan::workspace&, const scan::config&) {
  WB_CHECK(cudaMemset(out, 0, static_cast<std::size_t>(n) * sizeof(std::int32_t)));
}

// The inclusive scan, computed on the host and copied back: right on any input.
void scans_on_host(const std::int32_t* in, std::int32_t* out, std::int64_t n, const scan::workspace&,
                   const scan::config&) {
  std::vector<std::int32_t> items(static_cast<std::size_t>(n));
  WB_CHECK(cudaMemcpy(items.data(), in, items.size() * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
  std::int32_t sum = 0;
  for (auto& x : items) x = sum += x;
  WB_CHECK(cudaMemcpy(out, items.data(), items.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice));
}

}  // namespace

TEST_SUITE("scan trace") {
  TEST_CASE("--trace prints what the kernels compute, a wrong item marked") {
    const std::vector<std::int32_t> in = {1, 2, 3, 4, 5, 6, 7, 8};
    auto& kernels = scan::trace_kernels<std::int32_t>(1);
    const std::size_t before = kernels.size();
    scan::register_trace_kernel<std::int32_t>("zeros", 1, &writes_zeros);
    std::vector<std::string> failing;
    const std::string text = scan::trace_kogge_stone<std::int32_t>(in, &failing);
    kernels.erase(kernels.begin() + static_cast<std::ptrdiff_t>(before));
    CHECK(std::count(failing.begin(), failing.end(), "zeros") == 1);  // (--trace --track zeros would exit 1)
    CAPTURE(text);
    CHECK(text.find("the kernels of stage 1 on this input (one block of 32 threads)") != std::string::npos);
    const auto row = text.find("zeros track");
    REQUIRE(row != std::string::npos);
    CHECK(text.find("0!", row) != std::string::npos);  // each item marked wrong
    CHECK(text.find("8 wrong") != std::string::npos);
    // This build's own track is registered too (its row may be right or wrong: it is yours).
    CHECK(text.find(std::string(SCAN_TRACE_STRING(WB_TRACK)) + " track") != std::string::npos);
  }
  TEST_CASE("--trace counts no failing kernel where every kernel is right") {
    // Only a kernel that is right (the scan on the host, copied back), so nothing counts.
    const std::vector<std::int32_t> in = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3};
    auto& kernels = scan::trace_kernels<std::int32_t>(1);
    const auto saved = kernels;
    kernels.clear();
    scan::register_trace_kernel<std::int32_t>("host scan", 1, &scans_on_host);
    std::vector<std::string> failing;
    const std::string text = scan::trace_kogge_stone<std::int32_t>(in, &failing);
    kernels = saved;
    CAPTURE(text);
    CHECK(failing.empty());
    CHECK(text.find("host scan track") != std::string::npos);
    CHECK(text.find("right") != std::string::npos);
  }
}
