// wb::device_buffer<T>: an owning array in device memory (move-only, freed on destruction).
//
//   wb::device_buffer<int> d_a(host_a);        // allocate + copy host -> device
//   wb::device_buffer<int> d_c(n);             // allocate, contents undefined
//   d_c.fill_bytes(0xFF);                      // cudaMemset (poison before a stage runs)
//   std::vector<int> c = d_c.to_host();        // copy device -> host
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "wb/check.hpp"
#include "wb/runtime.hpp"

namespace wb {

template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t count) : size_(count) {
    if (count > 0) WB_CHECK(cudaMalloc(&data_, count * sizeof(T)));
  }
  explicit device_buffer(std::span<const T> host) : device_buffer(host.size()) { copy_from(host); }
  explicit device_buffer(const std::vector<T>& host) : device_buffer(std::span<const T>(host)) {}

  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  device_buffer& operator=(device_buffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~device_buffer() { release(); }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }

  void copy_from(std::span<const T> host) {
    if (host.size() != size_) throw std::invalid_argument("device_buffer::copy_from: size mismatch");
    if (size_ > 0) WB_CHECK(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  void copy_to(std::span<T> host) const {
    if (host.size() != size_) throw std::invalid_argument("device_buffer::copy_to: size mismatch");
    if (size_ > 0) WB_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
  }
  std::vector<T> to_host() const { return to_host(size_); }
  // The first `count` elements only: where a kernel wrote a prefix (a run-length encoding's
  // runs), copying the rest would read memory nothing wrote (compute-sanitizer's initcheck).
  std::vector<T> to_host(std::size_t count) const {
    if (count > size_) throw std::invalid_argument("device_buffer::to_host: count past the end");
    std::vector<T> host(count);
    if (count > 0) WB_CHECK(cudaMemcpy(host.data(), data_, count * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  void fill_bytes(unsigned char byte) {
    if (size_ > 0) WB_CHECK(cudaMemset(data_, byte, bytes()));
  }

 private:
  void release() noexcept {
    if (data_ != nullptr) cudaFree(data_);  // no throw from a destructor; errors show at the next call
    data_ = nullptr;
    size_ = 0;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace wb
