#pragma once
// A sum of doubles taken exactly and rounded once (docs/parallel.md, "The same bits"): the
// same result whatever the order of its terms and however they were split among threads or
// ranks, where a floating-point sum depends on both. Every finite double is an integer
// multiple of 2⁻¹⁰⁷⁴ below 2¹⁰²⁴, so the sum is kept as such an integer, in digits of 32
// bits held in 64-bit limbs (the spare bits take carries, passed on every 2³⁰ terms); two
// partial sums add digit by digit, as integers, which is how ranks merge theirs.
#include <array>
#include <cstdint>

namespace scree::solver {

class ExactSum {
 public:
  static constexpr int digit_bits = 32;
  static constexpr int limb_count = 68;  // 2⁻¹⁰⁷⁴ … 2¹⁰²⁴ and the carries of 2³⁰ terms above it

  ExactSum() = default;
  explicit ExactSum(double x) { *this += x; }

  ExactSum& operator+=(double x);
  ExactSum& operator-=(double x) { return *this += -x; }
  ExactSum& operator+=(const ExactSum& other);

  // The sum, rounded: within one unit in its last place, and a function of the exact sum
  // alone. An infinite or NaN term makes it what floating-point addition would.
  double value() const;

  // Passes the carries on, so that every digit but the last lies in [0, 2³²): then the
  // digits of partial sums add as integers without overflow (Ranks::sum).
  void normalise();

 private:
  friend class Ranks;
  std::array<std::int64_t, limb_count> limbs_{};
  double non_finite_ = 0;    // the sum of the infinite and NaN terms
  std::uint32_t pending_ = 0;  // terms since the carries were last passed on
};

}  // namespace scree::solver
