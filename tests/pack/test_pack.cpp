// Grain assemblies: sizes follow the distribution asked for (Kolmogorov–Smirnov, by number for
// lognormal, by mass for a sieve curve), templates their proportions, no two grains overlap
// (the solver's own overlap search finds nothing), every grain lies inside its region, the
// same seed gives the same assembly, and a region too small says how many fit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>

#include "common/level_set_grain.h"
#include "common/temp_dir.h"
#include "formats/error.h"
#include "geometry/template_from_avatar.h"
#include "pack/random_packing.h"
#include "solver/contacts/contact_finding.h"

namespace scree::pack {
namespace {

using Eigen::Vector3d;

// Largest gap between an empirical CDF (weighted) and the distribution's.
double ks_distance(std::vector<std::pair<double, double>> samples, const SizeDistribution& d) {
  std::sort(samples.begin(), samples.end());
  double total = 0;
  for (const auto& [x, w] : samples) total += w;
  double below = 0, gap = 0;
  for (const auto& [x, w] : samples) {
    const double f = d.cdf(x);
    gap = std::max(gap, std::abs(f - below / total));
    below += w;
    gap = std::max(gap, std::abs(f - below / total));
  }
  return gap;
}

// The 99 % critical value of the KS distance for n (effective) samples.
double ks_critical(const std::vector<std::pair<double, double>>& samples) {
  double w = 0, w2 = 0;
  for (const auto& s : samples) w += s.second, w2 += s.second * s.second;
  return 1.63 / std::sqrt(w * w / w2);
}

TEST(SizeDistribution, LognormalDrawsPassKolmogorovSmirnov) {
  const SizeDistribution d = parse_size_distribution("lognormal:0.4,0.3");
  std::mt19937_64 rng(3);
  std::vector<std::pair<double, double>> samples;
  for (int n = 0; n < 5000; ++n) samples.emplace_back(d.draw(rng), 1.0);
  EXPECT_LT(ks_distance(samples, d), ks_critical(samples));
  EXPECT_NEAR(d.cdf(0.4), 0.5, 1e-12);
}

// A sieve curve is by mass: grains drawn from it, weighted by d³, follow it.
TEST(SizeDistribution, SieveCurveHoldsByMass) {
  scree::testing::TempDir dir;
  testing::write_text(dir / "sieve.txt", "# gravel\n0.1 0\n0.2 10\n0.4 45\n0.8 100\n");
  const SizeDistribution d = parse_size_distribution("sieve:" + (dir / "sieve.txt").string());
  std::mt19937_64 rng(5);
  std::vector<std::pair<double, double>> by_mass, by_number;
  for (int n = 0; n < 20000; ++n) {
    const double x = d.draw(rng);
    ASSERT_GE(x, 0.1);
    ASSERT_LE(x, 0.8);
    by_mass.emplace_back(x, x * x * x);
    by_number.emplace_back(x, 1.0);
  }
  EXPECT_LT(ks_distance(by_mass, d), ks_critical(by_mass));
  EXPECT_GT(ks_distance(by_number, d), 0.1);  // by number the small ones dominate
}

TEST(SizeDistribution, RefusesWhatItCannotDraw) {
  scree::testing::TempDir dir;
  EXPECT_THROW(parse_size_distribution("lognormal:0.4"), std::invalid_argument);
  EXPECT_THROW(parse_size_distribution("lognormal:-1,0.3"), std::invalid_argument);
  EXPECT_THROW(parse_size_distribution("fixed:zero"), std::invalid_argument);
  EXPECT_THROW(parse_size_distribution("gamma:1,2"), std::invalid_argument);
  testing::write_text(dir / "down.txt", "0.1 0\n0.2 60\n0.3 40\n0.4 100\n");
  EXPECT_THROW(parse_size_distribution("sieve:" + (dir / "down.txt").string()), formats::FileError);
  testing::write_text(dir / "short.txt", "0.1 0\n0.2 90\n");
  EXPECT_THROW(parse_size_distribution("sieve:" + (dir / "short.txt").string()), formats::FileError);
  EXPECT_THROW(parse_size_distribution("sieve:" + (dir / "none.txt").string()), formats::FileError);
}

// The solver's world of an assembly, for its own overlap search.
solver::World world_of(const PackRequest& r, const PackResult& p) {
  solver::World w;
  w.shapes = r.shapes;
  for (std::size_t i = 0; i < p.bodies.size(); ++i) {
    const auto& q = p.bodies.orientation[i];
    const auto& x = p.bodies.position[i];
    w.add_grain(p.bodies.id[i], p.bodies.template_index[i], 0, 2650, p.bodies.scale[i], Vector3d(x[0], x[1], x[2]),
                Eigen::Quaterniond(q[0], q[1], q[2], q[3]));
  }
  return w;
}

TEST(PackGrains, SpheresInABoxApartInsideAndOfTheirSizes) {
  PackRequest r;
  r.shapes = {geometry::GrainShape::sphere(0.5)};
  r.proportions = {1};
  r.sizes = parse_size_distribution("lognormal:0.2,0.25");
  r.count = 600;
  r.seed = 11;
  const auto region = box_region({0, 0, 0}, {3, 2, 2});
  const PackResult p = pack_grains(r, *region);
  ASSERT_EQ(p.bodies.size(), 600u);
  std::vector<std::pair<double, double>> sizes;
  for (std::size_t i = 0; i < p.bodies.size(); ++i) {
    const double ri = 0.5 * p.bodies.scale[i];
    sizes.emplace_back(2 * ri, 1.0);
    EXPECT_NEAR(p.diameters[i], 2 * ri, 1e-12);
    const auto& c = p.bodies.position[i];
    for (int a = 0; a < 3; ++a) {
      EXPECT_GE(c[a] - ri, -1e-12);
      EXPECT_LE(c[a] + ri, (a == 0 ? 3.0 : 2.0) + 1e-12);
    }
    for (std::size_t j = 0; j < i; ++j) {
      const auto& d = p.bodies.position[j];
      EXPECT_GE(std::hypot(c[0] - d[0], c[1] - d[1], c[2] - d[2]), ri + 0.5 * p.bodies.scale[j] - 1e-12) << i << " " << j;
    }
  }
  EXPECT_LT(ks_distance(sizes, r.sizes), ks_critical(sizes));
  EXPECT_NEAR(p.solid_volume / p.region_volume, [&] {
    double v = 0;
    for (const auto& [d, w] : sizes) v += std::numbers::pi * d * d * d / 6;
    return v / 12;
  }(), 1e-9);
  // The same seed, the same assembly; another seed, another.
  const PackResult again = pack_grains(r, *region);
  EXPECT_EQ(again.bodies.position, p.bodies.position);
  EXPECT_EQ(again.bodies.scale, p.bodies.scale);
  r.seed = 12;
  EXPECT_NE(pack_grains(r, *region).bodies.position, p.bodies.position);
}

TEST(PackGrains, LevelSetGrainsInTheirProportionsAndApart) {
  PackRequest r;
  r.shapes = {testing::level_set_grain(levelset::make_box(levelset::Vec3d(0.1, 0.06, 0.04)), 0.01, 400),
              testing::level_set_grain(levelset::make_ellipsoid(levelset::Vec3d(0.08, 0.05, 0.05)), 0.01, 400)};
  r.proportions = {3, 1};
  r.count = 200;
  const auto region = cylinder_region({0, 0}, 1.2, 0, 0.6);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    r.seed = seed;
    const PackResult p = pack_grains(r, *region);
    ASSERT_EQ(p.bodies.size(), 200u);
    EXPECT_EQ(p.per_template[0], 150u);  // a count gives the proportions exactly
    EXPECT_EQ(p.per_template[1], 50u);
    // The solver's own search: no contact of any depth.
    for (const auto& o : solver::overlaps(world_of(r, p), 0))
      ADD_FAILURE() << "seed " << seed << ": grains " << o.grain << " and " << o.other_grain << " overlap by " << o.depth << " m";
    // Every node inside the cylinder.
    for (std::size_t i = 0; i < p.bodies.size(); ++i) {
      const auto& q = p.bodies.orientation[i];
      const auto& x = p.bodies.position[i];
      const Eigen::Quaterniond turn(q[0], q[1], q[2], q[3]);
      for (const auto& node : r.shapes[p.bodies.template_index[i]].level_set->nodes()) {
        const Vector3d n = Vector3d(x[0], x[1], x[2]) + turn * (p.bodies.scale[i] * node.cast<double>());
        ASSERT_LE(std::hypot(n.x(), n.y()), 1.2 + 1e-12);
        ASSERT_GE(n.z(), -1e-12);
        ASSERT_LE(n.z(), 0.6 + 1e-12);
      }
    }
  }
}

TEST(Apportion, GivesEachTemplateItsShareInWholeGrains) {
  using V = std::vector<std::uint32_t>;
  EXPECT_EQ(apportion({1, 1, 1}, 10), (V{0, 0, 0, 0, 1, 1, 1, 2, 2, 2}));  // 3⅓ each: the first gets the spare
  EXPECT_EQ(apportion({3, 1}, 6), (V{0, 0, 0, 0, 0, 1}));                 // 4.5 and 1.5: ties go in list order
  EXPECT_EQ(apportion({0, 2, 0}, 3), (V{1, 1, 1}));
  const V five = apportion({1, 1, 1, 1, 1}, 1000);
  for (std::uint32_t t = 0; t < 5; ++t) EXPECT_EQ(std::count(five.begin(), five.end(), t), 200) << t;
  EXPECT_TRUE(apportion({1, 1}, 0).empty());
}

TEST(PackGrains, SaysHowManyFitWhenTheRegionIsTooSmall) {
  PackRequest r;
  r.shapes = {geometry::GrainShape::sphere(0.5)};
  r.proportions = {1};
  r.count = 100;
  r.attempts = 500;
  const auto region = box_region({0, 0, 0}, {2, 2, 2});
  try {
    pack_grains(r, *region);
    FAIL() << "100 balls of 1 m fitted in a 2 m box";
  } catch (const RegionFull& full) {
    EXPECT_GE(full.placed, 1u);
    EXPECT_LE(full.placed, 8u);  // at most 8 unit balls fit in a 2 m cube
    EXPECT_EQ(full.requested, 100u);
    EXPECT_NE(std::string(full.what()).find("of the 100 grains asked for"), std::string::npos);
  }
}

}  // namespace
}  // namespace scree::pack
