#include "solver/exact_sum.h"

#include <bit>
#include <cmath>

namespace scree::solver {

namespace {
constexpr std::int64_t digit_mask = (std::int64_t(1) << ExactSum::digit_bits) - 1;
constexpr std::uint32_t terms_between_carries = std::uint32_t(1) << 30;
}  // namespace

ExactSum& ExactSum::operator+=(double x) {
  if (!std::isfinite(x)) {
    non_finite_ += x;
    return *this;
  }
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
  const int biased = int((bits >> 52) & 0x7ff);
  std::uint64_t mantissa = bits & ((std::uint64_t(1) << 52) - 1);
  if (biased > 0) mantissa |= std::uint64_t(1) << 52;
  if (mantissa == 0) return *this;
  // x = ± mantissa × 2^(offset − 1074): subnormals have offset 0, as the smallest normals.
  const int offset = biased > 0 ? biased - 1 : 0;
  const int limb = offset / digit_bits, shift = offset % digit_bits;
  const unsigned __int128 placed = static_cast<unsigned __int128>(mantissa) << shift;  // < 2⁸⁵
  const std::int64_t digits[3] = {std::int64_t(placed & digit_mask), std::int64_t((placed >> 32) & digit_mask),
                                  std::int64_t(placed >> 64)};
  if (bits >> 63)
    for (int k = 0; k < 3; ++k) limbs_[std::size_t(limb + k)] -= digits[k];
  else
    for (int k = 0; k < 3; ++k) limbs_[std::size_t(limb + k)] += digits[k];
  if (++pending_ == terms_between_carries) normalise();
  return *this;
}

ExactSum& ExactSum::operator+=(const ExactSum& other) {
  ExactSum carried = other;
  carried.normalise();
  normalise();
  for (int k = 0; k < limb_count; ++k) limbs_[std::size_t(k)] += carried.limbs_[std::size_t(k)];
  non_finite_ += carried.non_finite_;
  normalise();
  return *this;
}

void ExactSum::normalise() {
  for (int k = 0; k + 1 < limb_count; ++k) {
    const std::int64_t carry = limbs_[std::size_t(k)] >> digit_bits;  // floor: the digit left is in [0, 2³²)
    limbs_[std::size_t(k)] -= carry * (std::int64_t(1) << digit_bits);
    limbs_[std::size_t(k + 1)] += carry;
  }
  pending_ = 0;
}

double ExactSum::value() const {
  if (non_finite_ != 0) return non_finite_;  // NaN too: NaN != 0
  ExactSum m = *this;
  m.normalise();
  // The digits of |sum|: negated and carried again when the top limb says the sum is negative.
  const bool negative = m.limbs_.back() < 0;
  if (negative) {
    for (std::int64_t& l : m.limbs_) l = -l;
    m.normalise();
  }
  int top = limb_count - 1;
  while (top >= 0 && m.limbs_[std::size_t(top)] == 0) --top;
  if (top < 0) return 0;
  // The top three digits (at least 65 significant bits) from the highest down, each term far
  // smaller than the sum so far, and a sticky bit for anything below them: a function of the
  // canonical digits alone, so of the exact sum alone.
  double sum = 0;
  for (int k = top; k >= 0 && k >= top - 2; --k)
    sum += std::ldexp(double(m.limbs_[std::size_t(k)]), digit_bits * k - 1074);
  bool below = false;
  for (int k = top - 3; k >= 0 && !below; --k) below = m.limbs_[std::size_t(k)] != 0;
  if (below && top >= 3) sum += std::ldexp(0.5, digit_bits * (top - 2) - 1074);
  return negative ? -sum : sum;
}

}  // namespace scree::solver
