#include "reference.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "error_bound.hpp"

namespace attention {

namespace {

std::vector<std::int64_t> rows_to_check(const dims& d) {
  const std::int64_t rows = query_rows(d);
  std::vector<std::int64_t> out;
  if (rows <= 4096) {
    for (std::int64_t r = 0; r < rows; ++r) out.push_back(r);
    return out;
  }
  const std::int64_t edge = std::min<std::int64_t>(33, d.seq);
  const std::int64_t last_head = (d.batch * d.heads - 1) * d.seq;
  for (const std::int64_t head : {std::int64_t{0}, last_head}) {
    for (std::int64_t r = 0; r < edge; ++r) {
      out.push_back(head + r);
      out.push_back(head + d.seq - 1 - r);
    }
  }
  const std::int64_t spread = 512 - static_cast<std::int64_t>(out.size());
  for (std::int64_t k = 0; k < spread; ++k) out.push_back(k * (rows - 1) / std::max<std::int64_t>(spread - 1, 1));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

reference::reference(const dims& d, const std::vector<float>& Q, const std::vector<float>& K,
                     const std::vector<float>& V, bool tensor_cores)
    : d_(d), rows_(rows_to_check(d)) {
  const double scale = 1.0 / std::sqrt(static_cast<double>(d.dim));
  const auto dim = static_cast<std::size_t>(d.dim);
  exact_.resize(rows_.size() * dim);
  bound_.resize(rows_.size() * dim);
  std::vector<double> s, num(dim), weighted_abs(dim), largest_abs(dim);
  for (std::size_t k = 0; k < rows_.size(); ++k) {
    const std::int64_t row = rows_[k];
    const std::int64_t bh = row / d.seq, i = row % d.seq;
    const float* q = Q.data() + row * d.dim;
    const float* Kb = K.data() + bh * d.kv_seq * d.dim;
    const float* Vb = V.data() + bh * d.kv_seq * d.dim;
    const std::int64_t n = visible_end(d, i);
    row_stats stats{n, 0, 0};
    s.assign(static_cast<std::size_t>(n), 0);
    double hi = -std::numeric_limits<double>::infinity(), lo = std::numeric_limits<double>::infinity();
    for (std::int64_t j = 0; j < n; ++j) {
      double dot = 0, abs = 0;
      for (std::int64_t c = 0; c < d.dim; ++c) {
        const double term = static_cast<double>(q[c]) * Kb[j * d.dim + c];
        dot += term;
        abs += std::fabs(term);
      }
      s[static_cast<std::size_t>(j)] = dot * scale;
      stats.abs_score = std::max(stats.abs_score, abs * scale);
      hi = std::max(hi, dot * scale);
      lo = std::min(lo, dot * scale);
    }
    stats.score_range = n > 0 ? hi - lo : 0;
    std::fill(num.begin(), num.end(), 0.0);
    std::fill(weighted_abs.begin(), weighted_abs.end(), 0.0);
    std::fill(largest_abs.begin(), largest_abs.end(), 0.0);
    double l = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      const double w = std::exp(s[static_cast<std::size_t>(j)] - hi);
      l += w;
      for (std::size_t c = 0; c < dim; ++c) {
        const double v = Vb[j * d.dim + static_cast<std::int64_t>(c)];
        num[c] += w * v;
        weighted_abs[c] += w * std::fabs(v);
        largest_abs[c] = std::max(largest_abs[c], std::fabs(v));
      }
    }
    const double factor = weighted_factor(stats, d.dim, tensor_cores);
    for (std::size_t c = 0; c < dim; ++c) {
      exact_[k * dim + c] = num[c] / l;
      bound_[k * dim + c] = element_bound(factor, weighted_abs[c] / l, largest_abs[c], n);
    }
  }
}

std::string reference::check(const std::vector<float>& O) const {
  if (static_cast<std::int64_t>(O.size()) != query_rows(d_) * d_.dim) return "O has another size";
  std::string first;
  std::int64_t wrong = 0;
  const auto dim = static_cast<std::size_t>(d_.dim);
  for (std::size_t k = 0; k < rows_.size(); ++k) {
    for (std::size_t c = 0; c < dim; ++c) {
      const float got = O[static_cast<std::size_t>(rows_[k]) * dim + c];
      const double exact = exact_[k * dim + c], bound = bound_[k * dim + c];
      if (element_ok(got, exact, bound)) continue;
      if (wrong++ == 0) {
        const std::int64_t row = rows_[k];
        const std::int64_t i = row % d_.seq, h = (row / d_.seq) % d_.heads, b = row / (d_.seq * d_.heads);
        first = fmt::format("O[batch {}][head {}][query {}][{}]: expected {:.9g}, got {:.9g} (bound {:.3g}){}", b, h, i,
                            c, exact, got, bound,
                            got == std::bit_cast<float>(0x7F7F7F7Fu) ? ", the poison O was filled with: never written"
                                                                     : "");
      }
    }
  }
  if (wrong == 0) return "";
  return wrong > 1 ? fmt::format("{} (and {} more)", first, wrong - 1) : first;
}

std::string reference::describe() const {
  const std::int64_t rows = query_rows(d_);
  const std::string which = static_cast<std::int64_t>(rows_.size()) == rows
                                ? fmt::format("every row of O ({})", rows)
                                : fmt::format("{} of the {} rows of O (the first and last 33 of the first and last "
                                              "head, the rest spread evenly)",
                                              rows_.size(), rows);
  return "checked: " + which + " against a double-precision reference, within the bound of error_bound.hpp";
}

}  // namespace attention
