// Inputs, device buffers and checks (data.hpp).
#include "data.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include <fmt/format.h>

#include "wb/check.hpp"
#include "wb/generate.hpp"

#include "team.hpp"

namespace allreduce {

std::optional<distribution> parse_distribution(const std::string& name) {
  if (name == "uniform") return distribution::uniform;
  if (name == "small") return distribution::small;
  if (name == "extremes") return distribution::extremes;
  return std::nullopt;
}

template <class T>
std::vector<std::vector<T>> make_inputs(int ranks, std::int64_t n, distribution d, std::uint64_t seed) {
  std::vector<std::vector<T>> inputs;
  for (int r = 0; r < ranks; ++r) {
    const std::uint64_t s = seed + static_cast<std::uint64_t>(r) * 0x9E3779B97F4A7C15ull;
    const auto count = static_cast<std::size_t>(n);
    switch (d) {
      case distribution::uniform:
        if constexpr (std::is_floating_point_v<T>) {
          inputs.push_back(wb::gen::uniform<T>(count, s, T(-1), T(1)));
        } else {
          inputs.push_back(wb::gen::uniform<T>(count, s));
        }
        break;
      case distribution::small: inputs.push_back(wb::gen::uniform<T>(count, s, T(-1000), T(1000))); break;
      case distribution::extremes: inputs.push_back(wb::gen::extremes<T>(count, s)); break;
    }
    if constexpr (std::is_floating_point_v<T>) {
      if (d == distribution::small) {
        for (T& x : inputs.back()) x = std::round(x);  // small integers: exact sums in any order
      }
    }
  }
  return inputs;
}

template <class T>
rank_vectors<T>::rank_vectors(team& t, std::span<const std::vector<T>> inputs)
    : team_(&t), n_(inputs.empty() ? 0 : static_cast<std::int64_t>(inputs[0].size())) {
  if (static_cast<int>(inputs.size()) != t.size()) {
    throw std::invalid_argument(fmt::format("{} input vectors for {} ranks", inputs.size(), t.size()));
  }
  for (int r = 0; r < t.size(); ++r) {
    if (static_cast<std::int64_t>(inputs[static_cast<std::size_t>(r)].size()) != n_) {
      throw std::invalid_argument("every rank's vector must have the same length");
    }
    device_scope on(t.device(r));
    in_.emplace_back(inputs[static_cast<std::size_t>(r)]);
    out_.emplace_back(static_cast<std::size_t>(n_));
  }
  poison();
}

template <class T>
buffers<T> rank_vectors<T>::view() const {
  buffers<T> b;
  b.n = n_;
  for (std::size_t r = 0; r < in_.size(); ++r) {
    b.in.push_back(in_[r].data());
    b.out.push_back(const_cast<T*>(out_[r].data()));
  }
  return b;
}

template <class T>
void rank_vectors<T>::poison() {
  for (int r = 0; r < team_->size(); ++r) {
    device_scope on(team_->device(r));
    out_[static_cast<std::size_t>(r)].fill_bytes(0xA5);
  }
}

template <class T>
std::vector<std::vector<T>> rank_vectors<T>::outputs() const {
  team_->synchronize();
  std::vector<std::vector<T>> result;
  for (int r = 0; r < team_->size(); ++r) {
    device_scope on(team_->device(r));
    result.push_back(out_[static_cast<std::size_t>(r)].to_host());
  }
  return result;
}

template <class T>
std::vector<T> rank_vectors<T>::output(int r, std::int64_t count) const {
  team_->synchronize();
  device_scope on(team_->device(r));
  return out_.at(static_cast<std::size_t>(r)).to_host(static_cast<std::size_t>(count));
}

template <class T>
std::vector<double> order_tolerance(std::span<const std::vector<T>> inputs) {
  if constexpr (!std::is_floating_point_v<T>) {
    return {};
  } else {
    if (inputs.empty()) return {};
    std::vector<double> tol(inputs[0].size(), 0.0);
    const double per_add = std::ldexp(1.0, -std::numeric_limits<T>::digits);  // half an ulp of 1
    for (const auto& v : inputs) {
      for (std::size_t i = 0; i < v.size(); ++i) tol[i] += std::fabs(static_cast<double>(v[i]));
    }
    for (double& x : tol) x *= per_add * static_cast<double>(inputs.size() - 1) * 2.0;
    return tol;
  }
}

template <class T>
std::string mismatch(const std::vector<T>& expected, const std::vector<T>& got, const std::vector<double>& tolerance) {
  if (expected.size() != got.size()) return fmt::format("{} elements instead of {}", got.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    bool same = false;
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(expected[i]) || std::isnan(got[i])) {
        same = std::isnan(expected[i]) && std::isnan(got[i]);
      } else if (!tolerance.empty()) {
        same = std::fabs(static_cast<double>(expected[i]) - static_cast<double>(got[i])) <= tolerance[i];
      } else {
        same = expected[i] == got[i];
      }
    } else {
      same = expected[i] == got[i];
    }
    if (!same) {
      return fmt::format("at index {}: expected {}, got {}{}", i, expected[i], got[i],
                         tolerance.empty() ? "" : fmt::format(" (tolerance {:.3g})", tolerance[i]));
    }
  }
  return "";
}

template <class T>
std::string ranks_disagree(const std::vector<std::vector<T>>& outputs) {
  for (std::size_t r = 1; r < outputs.size(); ++r) {
    if (outputs[r].size() != outputs[0].size()) return fmt::format("rank {} holds {} elements, rank 0 {}", r, outputs[r].size(), outputs[0].size());
    if (outputs[r].empty()) continue;
    if (std::memcmp(outputs[r].data(), outputs[0].data(), outputs[0].size() * sizeof(T)) != 0) {
      for (std::size_t i = 0; i < outputs[0].size(); ++i) {
        if (std::memcmp(&outputs[r][i], &outputs[0][i], sizeof(T)) != 0) {
          return fmt::format("rank {} holds {} at index {}, rank 0 holds {}", r, outputs[r][i], i, outputs[0][i]);
        }
      }
    }
  }
  return "";
}

#define INSTANTIATE(T)                                                                                    \
  template std::vector<std::vector<T>> make_inputs<T>(int, std::int64_t, distribution, std::uint64_t);   \
  template class rank_vectors<T>;                                                                         \
  template std::vector<double> order_tolerance<T>(std::span<const std::vector<T>>);                      \
  template std::string mismatch<T>(const std::vector<T>&, const std::vector<T>&, const std::vector<double>&); \
  template std::string ranks_disagree<T>(const std::vector<std::vector<T>>&);
ALLREDUCE_FOR_EACH_TYPE(INSTANTIATE)
#undef INSTANTIATE

}  // namespace allreduce
