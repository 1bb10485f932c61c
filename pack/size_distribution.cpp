#include "pack/size_distribution.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "formats/error.h"

namespace scree::pack {

namespace {

double number(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(v)) throw std::invalid_argument(what + ": '" + text + "' is not a number");
  return v;
}

std::vector<std::pair<double, double>> read_sieve(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw formats::FileError(file, "cannot open the sieve curve");
  std::vector<std::pair<double, double>> curve;
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::replace(line.begin(), line.end(), ',', ' ');
    std::istringstream words(line);
    std::string d, f, extra;
    if (!(words >> d)) continue;
    const std::string where = file.string() + ":" + std::to_string(line_number);
    if (!(words >> f) || (words >> extra)) throw formats::FileError(file, "line " + std::to_string(line_number) + ": expects 'diameter fraction_passing'");
    try {
      curve.emplace_back(number(d, where), number(f, where));
    } catch (const std::invalid_argument& e) {
      throw formats::FileError(file, "line " + std::to_string(line_number) + ": not two numbers");
    }
  }
  if (curve.size() < 2) throw formats::FileError(file, "a sieve curve needs at least two points");
  const bool percent = curve.back().second > 1;
  for (auto& [d, f] : curve) {
    if (percent) f /= 100;
    if (!(d > 0)) throw formats::FileError(file, "diameters must be > 0");
    if (f < 0 || f > 1) throw formats::FileError(file, "fractions passing must lie in [0, 1] (or 0–100 %)");
  }
  for (std::size_t k = 1; k < curve.size(); ++k)
    if (!(curve[k].first > curve[k - 1].first) || curve[k].second < curve[k - 1].second)
      throw formats::FileError(file, "diameters must increase and fractions passing must not decrease");
  if (curve.front().second != 0 || curve.back().second != 1)
    throw formats::FileError(file, "the curve must start at 0 % passing and end at 100 %");
  return curve;
}

}  // namespace

double SizeDistribution::draw(std::mt19937_64& rng) const {
  switch (kind) {
    case Kind::template_size: return 0;
    case Kind::fixed: return diameter;
    case Kind::lognormal: return median * std::exp(sigma * std::normal_distribution<double>(0, 1)(rng));
    case Kind::sieve: {
      // The curve is by mass: between two points its mass density is constant, c, and the
      // number density c / d³ (the mass of a grain goes as d³). A segment is picked by its
      // number, ∫ c / d³ = c (1/d₀² − 1/d₁²) / 2, and d inside it by inverting that integral.
      std::vector<double> weight(sieve.size() - 1);
      for (std::size_t k = 0; k + 1 < sieve.size(); ++k) {
        const auto &[d0, f0] = sieve[k];
        const auto &[d1, f1] = sieve[k + 1];
        weight[k] = (f1 - f0) / (d1 - d0) * 0.5 * (1 / (d0 * d0) - 1 / (d1 * d1));
      }
      const std::size_t k = std::discrete_distribution<std::size_t>(weight.begin(), weight.end())(rng);
      const double d0 = sieve[k].first, d1 = sieve[k + 1].first, u = std::uniform_real_distribution<double>(0, 1)(rng);
      return 1 / std::sqrt(1 / (d0 * d0) - u * (1 / (d0 * d0) - 1 / (d1 * d1)));
    }
  }
  return 0;
}

double SizeDistribution::cdf(double d) const {
  switch (kind) {
    case Kind::template_size: return 1;
    case Kind::fixed: return d >= diameter ? 1 : 0;
    case Kind::lognormal: return 0.5 * std::erfc(-std::log(d / median) / (sigma * std::sqrt(2.0)));
    case Kind::sieve: {
      if (d <= sieve.front().first) return 0;
      if (d >= sieve.back().first) return 1;
      const auto hi = std::lower_bound(sieve.begin(), sieve.end(), d, [](const auto& p, double v) { return p.first < v; });
      const auto lo = hi - 1;
      return lo->second + (d - lo->first) / (hi->first - lo->first) * (hi->second - lo->second);
    }
  }
  return 1;
}

SizeDistribution parse_size_distribution(const std::string& spec) {
  const auto colon = spec.find(':');
  const std::string kind = spec.substr(0, colon), rest = colon == std::string::npos ? "" : spec.substr(colon + 1);
  SizeDistribution s;
  if (kind == "fixed") {
    s.kind = SizeDistribution::Kind::fixed;
    s.diameter = number(rest, "fixed");
    if (!(s.diameter > 0)) throw std::invalid_argument("fixed: the diameter must be > 0");
  } else if (kind == "lognormal") {
    const auto comma = rest.find(',');
    if (comma == std::string::npos) throw std::invalid_argument("lognormal: expects D50,SIGMA");
    s.kind = SizeDistribution::Kind::lognormal;
    s.median = number(rest.substr(0, comma), "lognormal");
    s.sigma = number(rest.substr(comma + 1), "lognormal");
    if (!(s.median > 0) || !(s.sigma > 0) || s.sigma > 2)
      throw std::invalid_argument("lognormal: D50 must be > 0 and SIGMA in (0, 2]");
  } else if (kind == "sieve") {
    if (rest.empty()) throw std::invalid_argument("sieve: expects a file");
    s.kind = SizeDistribution::Kind::sieve;
    s.sieve = read_sieve(rest);
  } else {
    throw std::invalid_argument("'" + spec + "': expects fixed:D, lognormal:D50,SIGMA or sieve:FILE");
  }
  return s;
}

}  // namespace scree::pack
