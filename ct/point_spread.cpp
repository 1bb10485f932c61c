#include "ct/point_spread.h"

#include <cmath>
#include <stdexcept>

namespace scree::ct {

namespace {

// The least-squares grey levels for one σ, and the sum of squared residuals.
struct LevelFit {
  double pore = 0, solid = 0, squares = 0;
};

LevelFit fit_levels(const std::vector<EdgeSample>& samples, double sigma) {
  // grey ≈ pore · (1 − p) + solid · p with p = ½ erfc(d / (σ√2)): normal equations in 2 × 2.
  double qq = 0, qp = 0, pp = 0, qg = 0, pg = 0;
  for (const auto& s : samples) {
    const double p = 0.5 * std::erfc(s.distance / (sigma * M_SQRT2)), q = 1 - p;
    qq += q * q, qp += q * p, pp += p * p, qg += q * s.grey, pg += p * s.grey;
  }
  LevelFit f;
  const double det = qq * pp - qp * qp;
  if (!(det > 0)) return {0, 0, HUGE_VAL};
  f.pore = (qg * pp - pg * qp) / det;
  f.solid = (pg * qq - qg * qp) / det;
  for (const auto& s : samples) {
    const double p = 0.5 * std::erfc(s.distance / (sigma * M_SQRT2));
    const double r = s.grey - f.pore - (f.solid - f.pore) * p;
    f.squares += r * r;
  }
  return f;
}

}  // namespace

EdgeFit fit_edge_profile(const std::vector<EdgeSample>& samples, double sigma_low, double sigma_high) {
  if (!(sigma_low > 0 && sigma_high > sigma_low)) throw std::invalid_argument("fit_edge_profile: bad σ bounds");
  if (samples.size() < 16) throw std::invalid_argument("fit_edge_profile: fewer than 16 edge samples");
  // Golden-section search on log σ: the residual is unimodal in σ for a single step.
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  double a = std::log(sigma_low), b = std::log(sigma_high);
  double x1 = b - ratio * (b - a), x2 = a + ratio * (b - a);
  double f1 = fit_levels(samples, std::exp(x1)).squares, f2 = fit_levels(samples, std::exp(x2)).squares;
  while (b - a > 1e-5) {
    if (f1 < f2) {
      b = x2, x2 = x1, f2 = f1;
      x1 = b - ratio * (b - a);
      f1 = fit_levels(samples, std::exp(x1)).squares;
    } else {
      a = x1, x1 = x2, f1 = f2;
      x2 = a + ratio * (b - a);
      f2 = fit_levels(samples, std::exp(x2)).squares;
    }
  }
  EdgeFit fit;
  fit.sigma = std::exp((a + b) / 2);
  const LevelFit levels = fit_levels(samples, fit.sigma);
  fit.pore = levels.pore;
  fit.solid = levels.solid;
  fit.samples = samples.size();
  fit.rms = std::sqrt(levels.squares / double(samples.size()));
  const double edge = 1e-3;  // of log σ
  fit.at_limit = std::log(fit.sigma) - std::log(sigma_low) < edge || std::log(sigma_high) - std::log(fit.sigma) < edge;
  return fit;
}

}  // namespace scree::ct
