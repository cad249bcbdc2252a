// Stage 1: co_rank for every k of many small arrays (host and device); M2, M3 regressions.
#include "defective.hpp"
#include "helpers.hpp"

using namespace merge;
using namespace merge::testing;

namespace {

// The co-ranks of the stable merge, from std::merge: i(k) = how many of C[0, k) came from A.
template <class K>
std::vector<std::int64_t> reference_co_ranks(const std::vector<K>& A, const std::vector<K>& B) {
  const auto ref = reference(A, B, true);
  std::vector<std::int64_t> i_of_k = {0};
  for (const value_t v : ref.C_val) i_of_k.push_back(i_of_k.back() + (v < 1'000'000'000 ? 1 : 0));
  return i_of_k;
}

// "1,3,5": an array as the chapter executable's --a and --b take it.
std::string comma_list(const std::vector<std::int32_t>& v) {
  std::string out;
  for (std::size_t x = 0; x < v.size(); ++x) out += (x > 0 ? "," : "") + std::to_string(v[x]);
  return out;
}

// Small sorted arrays with 1-4 distinct keys: duplicates within and across A and B.
std::vector<std::int32_t> small_sorted(wb::gen::rng& rng, std::int64_t size, std::int32_t distinct) {
  std::vector<std::int32_t> v(static_cast<std::size_t>(size));
  for (auto& x : v) x = static_cast<std::int32_t>(rng.below(static_cast<std::uint64_t>(distinct)));
  std::sort(v.begin(), v.end());
  return v;
}

// What the basic kernel computes with one output per thread, simulated on the host: thread k
// merges A[i(k), i(k+1)) and B[j(k), j(k+1)) with merge_sequential into C + k, threads in
// order (where non-monotone co-ranks make ranges overlap, the later thread's writes win).
template <class CoRank>
merged<std::int32_t> merge_by_co_ranks(const std::vector<std::int32_t>& A, const std::vector<std::int32_t>& B,
                                       CoRank co_rank) {
  const auto m = static_cast<std::int64_t>(A.size());
  const auto n = static_cast<std::int64_t>(B.size());
  const auto A_val = tag_values(m, 0);
  const auto B_val = tag_values(n, 1'000'000'000);
  merged<std::int32_t> out{std::vector<std::int32_t>(A.size() + B.size(), -1), std::vector<value_t>(A.size() + B.size(), -1)};
  for (std::int64_t k = 0; k < m + n; ++k) {
    std::int64_t i = co_rank(k);
    std::int64_t j = k - i;
    const std::int64_t i_end = std::max(i, co_rank(k + 1));  // a negative length merges nothing
    const std::int64_t j_end = std::max(j, k + 1 - co_rank(k + 1));
    for (std::int64_t c = k; (i < i_end || j < j_end) && c < m + n; ++c) {
      const bool take_a = i < i_end && (j >= j_end || A[i] <= B[j]);
      out.C[c] = take_a ? A[i] : B[j];
      out.C_val[c] = take_a ? A_val[i++] : B_val[j++];
    }
  }
  return out;
}

}  // namespace

TEST_SUITE("merge/1 co-rank") {
  TEST_CASE("the book's example (Figs. 12.4-12.8)") {
    const std::vector<std::int32_t> A = {1, 7, 8, 9, 10};
    const std::vector<std::int32_t> B = {7, 10, 10, 12};
    // thread 1 of Fig. 12.6 (k = 3) gets i = 2, j = 1; Fig. 12.4's k = 4 gets i = 3, j = 1;
    // k = 9 (one past the end) gets i = 5, j = 4.
    for (const auto& [k, expected_i] : {std::pair{3, 2}, std::pair{4, 3}, std::pair{6, 5}, std::pair{9, 5}}) {
      INFO("A = {1, 7, 8, 9, 10} (m=5), B = {7, 10, 10, 12} (n=4): co_rank(k=" << k << ") should be i=" << expected_i
           << " (j=" << k - expected_i << ")");
      CHECK(track::co_rank_host<std::int32_t>(k, A.data(), 5, B.data(), 4) == expected_i);
    }
  }

  TEST_CASE("every k of many small arrays: the stable split, monotone in k") {
    wb::gen::rng rng(wb::testing::seed(11));
    // Smallest inputs first: the first failure is the smallest input that fails.
    std::vector<std::pair<std::vector<std::int32_t>, std::vector<std::int32_t>>> inputs;
    for (int round = 0; round < 3000; ++round) {
      const auto distinct = static_cast<std::int32_t>(1 + rng.below(4));
      auto A = small_sorted(rng, static_cast<std::int64_t>(rng.below(10)), distinct);
      auto B = small_sorted(rng, static_cast<std::int64_t>(rng.below(10)), distinct);
      inputs.emplace_back(std::move(A), std::move(B));
    }
    std::stable_sort(inputs.begin(), inputs.end(),
                     [](const auto& x, const auto& y) { return x.first.size() + x.second.size() < y.first.size() + y.second.size(); });
    for (const auto& [A, B] : inputs) {
      const auto m = static_cast<std::int64_t>(A.size());
      const auto n = static_cast<std::int64_t>(B.size());
      const auto expected = reference_co_ranks(A, B);
      std::int64_t previous = 0;
      for (std::int64_t k = 0; k <= m + n; ++k) {
        const std::int64_t i = track::co_rank_host<std::int32_t>(k, A.data(), m, B.data(), n);
        const std::int64_t j = k - i;
        INFO("A = " << wb::testing::values_text(A) << " (m=" << m << "), B = " << wb::testing::values_text(B) << " (n=" << n
                    << "): co_rank(k=" << k << ") returned i=" << i << ", the stable split is i="
                    << expected[static_cast<std::size_t>(k)]
                    << (A.empty() || B.empty() ? std::string()
                                               : " (watch it search: " + wb::testing::wb_command() +
                                                     " trace merge --a " + comma_list(A) + " --b " + comma_list(B) +
                                                     ")"));
        REQUIRE(i == expected[static_cast<std::size_t>(k)]);
        REQUIRE((i == previous || i == previous + 1));  // monotone: each output from A or from B
        // the stable split: A[i-1] <= B[j] and B[j-1] < A[i]
        if (i > 0 && j < n) REQUIRE(A[i - 1] <= B[j]);
        if (j > 0 && i < m) REQUIRE(B[j - 1] < A[i]);
        previous = i;
      }
    }
  }

  TEST_CASE("every k on the device agrees with the host (all key types, all distributions)") {
    std::uint64_t case_seed = wb::testing::seed(12);
    const auto check = [&](auto key) {
      using K = decltype(key);
      for (const distribution d : all_distributions()) {
        for (const auto& [m, n] : std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 0}, {0, 5}, {7, 0}, {300, 211}, {1000, 24}}) {
          const auto A = sorted_keys<K>(m, d, ++case_seed, 0);
          const auto B = sorted_keys<K>(n, d, case_seed, 1);
          wb::device_buffer<K> d_A(A), d_B(B);
          wb::device_buffer<std::int64_t> d_i(static_cast<std::size_t>(m + n + 1));
          d_i.fill_bytes(output_poison);
          track::co_rank_device<K>(d_A.data(), m, d_B.data(), n, d_i.data());
          WB_CHECK(cudaDeviceSynchronize());
          INFO(std::string(key_name<K>()) << ", " << to_string(d) << ", m=" << m << ", n=" << n);
          WB_CHECK_EQUAL_SEQ(reference_co_ranks(A, B), d_i.to_host());
        }
      }
    };
    check(std::int32_t{});
    check(std::int64_t{});
    check(float{});
  }

  TEST_CASE("M2: returning inside the search loop (defective variant fails)") {
    const std::vector<std::int32_t> A = {1, 7, 8, 9, 10};
    const std::vector<std::int32_t> B = {7, 10, 10, 12};
    // k = 3 needs three steps (Figs. 12.6-12.8); the M2 variant stops after the first.
    CHECK(defective::co_rank(defective::co_rank_defect::none, 3, A.data(), 5, B.data(), 4) == 2);
    CHECK(defective::co_rank(defective::co_rank_defect::M2_return_in_loop, 3, A.data(), 5, B.data(), 4) != 2);
    CHECK(track::co_rank_host<std::int32_t>(3, A.data(), 5, B.data(), 4) == 2);
  }

  TEST_CASE("M3: the strict tie test breaks the stable split on duplicates across A and B") {
    // Random small cases with 1-4 distinct keys, merged with one output per thread as the
    // basic kernel does. The strict test lets B[j-1] go before an equal A[i]: neighbouring
    // co-ranks stop being monotone (ranges overlap: on a GPU two threads write the same
    // outputs) and the key-value merge is no longer stable.
    wb::gen::rng rng(wb::testing::seed(13));
    int defective_wrong = 0;
    int defective_keys_wrong = 0;
    int defective_non_monotone = 0;
    int fixed_wrong = 0;
    std::string smallest_wrong;  // this track's smallest failing input, in full
    std::size_t smallest_size = 0;
    const int rounds = 2000;
    for (int round = 0; round < rounds; ++round) {
      const auto distinct = static_cast<std::int32_t>(1 + rng.below(4));
      const auto A = small_sorted(rng, static_cast<std::int64_t>(1 + rng.below(8)), distinct);
      const auto B = small_sorted(rng, static_cast<std::int64_t>(1 + rng.below(8)), distinct);
      const auto m = static_cast<std::int64_t>(A.size());
      const auto n = static_cast<std::int64_t>(B.size());
      const auto expected = reference(A, B, true);
      const auto strict = [&](std::int64_t k) {
        return defective::co_rank(defective::co_rank_defect::M3_strict_tie, k, A.data(), m, B.data(), n);
      };
      const auto fixed = [&](std::int64_t k) { return track::co_rank_host<std::int32_t>(k, A.data(), m, B.data(), n); };
      const auto by_strict = merge_by_co_ranks(A, B, strict);
      const auto by_fixed = merge_by_co_ranks(A, B, fixed);
      defective_wrong += by_strict.C != expected.C || by_strict.C_val != expected.C_val;
      defective_keys_wrong += by_strict.C != expected.C;
      if (by_fixed.C != expected.C || by_fixed.C_val != expected.C_val) {
        ++fixed_wrong;
        if (smallest_wrong.empty() || A.size() + B.size() < smallest_size) {
          smallest_size = A.size() + B.size();
          std::string co_ranks;
          for (std::int64_t k = 0; k <= m + n; ++k) co_ranks += (k > 0 ? " " : "") + std::to_string(fixed(k));
          std::string right;
          for (std::int64_t k = 0; k <= m + n; ++k) {
            right += (k > 0 ? " " : "") + std::to_string(defective::co_rank(defective::co_rank_defect::none, k, A.data(), m,
                                                                            B.data(), n));
          }
          smallest_wrong = "A = " + wb::testing::values_text(A) + ", B = " + wb::testing::values_text(B) +
                           ": your co_rank(k) for k = 0.." + std::to_string(m + n) + " is " + co_ranks +
                           ", the stable split is " + right;
        }
      }
      for (std::int64_t k = 0; k < m + n; ++k) {
        const std::int64_t step = strict(k + 1) - strict(k);
        if (step != 0 && step != 1) {
          ++defective_non_monotone;
          break;
        }
      }
    }
    MESSAGE("M3 variant, " << rounds << " cases: non-monotone co-ranks in " << defective_non_monotone
                           << ", wrong key-value merges in " << defective_wrong << " (wrong keys in "
                           << defective_keys_wrong << ")");
    CHECK(defective_non_monotone > 0);
    CHECK(defective_wrong > 0);
    INFO("the smallest input your co_rank merges wrong: " << smallest_wrong);
    CHECK(fixed_wrong == 0);
  }
}
