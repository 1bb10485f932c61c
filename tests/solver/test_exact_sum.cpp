// Sums taken exactly (solver/exact_sum.h): the same bits in any order and however the terms
// are split, within an ulp of the true sum, where a floating-point sum is neither.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "solver/exact_sum.h"

namespace scree::solver {
namespace {

double exact_sum(const std::vector<double>& terms) {
  ExactSum s;
  for (double x : terms) s += x;
  return s.value();
}

// Terms from 1e-12 to 1e12 of both signs, as a heap's energies by grain and their changes.
std::vector<double> wide_terms(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> exponent(0, 9);
  std::vector<double> terms;
  for (std::size_t k = 0; k < n; ++k) terms.push_back((k % 3 == 0 ? -1 : 1) * std::exp(exponent(random)));
  return terms;
}

TEST(ExactSum, KeepsWhatFloatingPointAdditionLoses) {
  EXPECT_EQ(exact_sum({1e100, 1, -1e100}), 1.0);
  EXPECT_EQ(1e100 + 1 - 1e100, 0.0);  // what it replaces
  EXPECT_EQ(exact_sum({DBL_MAX, DBL_MAX, -DBL_MAX}), DBL_MAX);
  const double tiny = std::numeric_limits<double>::denorm_min();
  EXPECT_EQ(exact_sum({tiny, tiny, tiny}), 3 * tiny);
  EXPECT_EQ(exact_sum({1, tiny, -1}), tiny);
  EXPECT_EQ(exact_sum({-1.5, -2.25}), -3.75);
  EXPECT_EQ(exact_sum({0.1, 0.2, -0.3}), std::ldexp(1.0, -55));  // the doubles' exact sum
  EXPECT_EQ(exact_sum({}), 0.0);
  EXPECT_EQ(exact_sum({2.5, -2.5}), 0.0);
}

TEST(ExactSum, IsTheSameInAnyOrder) {
  std::vector<double> terms = wide_terms(20000, 1);
  const double first = exact_sum(terms);
  std::mt19937_64 random(2);
  bool plain_sums_differ = false;
  double plain_first = 0;
  for (double x : terms) plain_first += x;
  for (int round = 0; round < 10; ++round) {
    std::shuffle(terms.begin(), terms.end(), random);
    EXPECT_EQ(exact_sum(terms), first) << round;
    double plain = 0;
    for (double x : terms) plain += x;
    plain_sums_differ = plain_sums_differ || plain != plain_first;
  }
  EXPECT_TRUE(plain_sums_differ);  // the terms are such that order matters to a plain sum
}

TEST(ExactSum, IsWithinAnUlpOfTheTrueSum) {
  // Terms of 40 significant bits within 2⁻²⁰ … 2²⁰: their sum is exact in 128-bit integers.
  std::mt19937_64 random(3);
  for (int round = 0; round < 50; ++round) {
    ExactSum s;
    __int128 exact = 0;  // in units of 2⁻⁶⁰
    for (int k = 0; k < 1000; ++k) {
      const std::int64_t mantissa = std::int64_t(random() >> 24) - (std::int64_t(1) << 39);
      const int exponent = int(random() % 41) - 60;  // value = mantissa × 2^exponent
      s += std::ldexp(double(mantissa), exponent);
      exact += static_cast<__int128>(mantissa) << (exponent + 60);
    }
    const long double truth = static_cast<long double>(exact) * std::ldexp(1.0L, -60);
    const double got = s.value();
    EXPECT_LE(std::abs(static_cast<long double>(got) - truth), std::nextafter(std::abs(got), INFINITY) - std::abs(got))
        << round;
  }
}

TEST(ExactSum, PartialSumsMergeToTheWhole) {
  const std::vector<double> terms = wide_terms(9000, 4);
  const double whole = exact_sum(terms);
  for (int parts : {2, 3, 7}) {
    std::vector<ExactSum> partial(static_cast<std::size_t>(parts));
    for (std::size_t k = 0; k < terms.size(); ++k) partial[(k * 2654435761u) % std::size_t(parts)] += terms[k];
    ExactSum merged;
    for (int p = parts - 1; p >= 0; --p) merged += partial[std::size_t(p)];
    EXPECT_EQ(merged.value(), whole) << parts;
  }
}

TEST(ExactSum, TakesMillionsOfTermsExactly) {
  // 3 · 2²⁰ terms of 51 significant bits: their sum, 53 bits, is a double; a plain sum drops
  // the terms' low bits once it passes 2³².
  const double term = std::ldexp(double((std::uint64_t(1) << 51) - 1), -20);
  const std::uint64_t count = 3u << 20;
  ExactSum s;
  double plain = 0;
  for (std::uint64_t k = 0; k < count; ++k) {
    s += term;
    plain += term;
  }
  EXPECT_EQ(s.value(), term * double(count));
  EXPECT_NE(plain, term * double(count));
}

TEST(ExactSum, NonFiniteTermsGiveWhatAdditionWould) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(exact_sum({1, inf, 2}), inf);
  EXPECT_EQ(exact_sum({-inf, 1}), -inf);
  EXPECT_TRUE(std::isnan(exact_sum({inf, 1, -inf})));
  EXPECT_TRUE(std::isnan(exact_sum({std::nan(""), 1})));
}

}  // namespace
}  // namespace scree::solver
