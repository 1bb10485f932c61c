#pragma once
// Grain sizes for an assembly: each grain's equivalent diameter (that of the sphere of its
// volume), drawn from a distribution; its template is scaled to it.
#include <filesystem>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace scree::pack {

struct SizeDistribution {
  enum class Kind { template_size, fixed, lognormal, sieve };
  Kind kind = Kind::template_size;
  double diameter = 0;             // fixed, m
  double median = 0, sigma = 0;    // lognormal by number: ln d ~ N(ln median, σ²)
  // Sieve curve: (diameter m, fraction of the mass passing), diameters increasing, fractions
  // from 0 to 1, non-decreasing.
  std::vector<std::pair<double, double>> sieve;

  // A diameter, m (template_size: 0, meaning scale 1). Sieve curves are by mass: diameters
  // are drawn so that the assembly's mass, not its number, follows the curve (linear between
  // its points).
  double draw(std::mt19937_64& rng) const;
  // The fraction of grains (lognormal) or of mass (sieve) below d.
  double cdf(double d) const;
  bool by_mass() const { return kind == Kind::sieve; }
};

// "fixed:D", "lognormal:D50,SIGMA" or "sieve:FILE" (lines "diameter fraction_passing", '#'
// comments; fractions in [0, 1] or percent). std::invalid_argument, or FileError naming the
// sieve file, with what is wrong.
SizeDistribution parse_size_distribution(const std::string& spec);

}  // namespace scree::pack
