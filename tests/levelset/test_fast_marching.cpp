// Fast marching: exactness on planes, filled interiors, bounded outer band, and the
// first-order convergence of seed 004 §4.3 on the sphere and the flake.
#include <gtest/gtest.h>
#include <openvdb/tools/Interpolation.h>

#include <cmath>

#include "common/temp_dir.h"
#include "levelset/fast_marching.h"
#include "levelset/interface.h"

namespace scree::levelset {
namespace {

openvdb::FloatGrid::Ptr march_shape(const ImplicitShape& shape, double h, MarchOptions options = {}) {
  auto samples = sample_implicit(shape, h);
  return march(*interface_band(samples), options);
}

// Least-squares slope of log(error) against log(spacing).
double fitted_slope(const std::vector<double>& h, const std::vector<double>& error) {
  double n = double(h.size()), sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    double x = std::log(h[i]), y = std::log(error[i]);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

TEST(FastMarching, PlaneIsExact) {
  // A slab |z| < 1.05, 6 wide in x and y: first-order upwinding is exact for a plane, so
  // every accepted value near the middle is the distance to the nearer face.
  auto phi = march_shape(make_box(Vec3d(3, 3, 1.05)), 0.1);
  std::size_t checked = 0;
  for (auto it = phi->cbeginValueOn(); it; ++it) {
    Vec3d p = phi->indexToWorld(it.getCoord());
    if (std::abs(p[0]) > 0.85 || std::abs(p[1]) > 0.85) continue;  // away from the slab's sides
    EXPECT_NEAR(*it, std::abs(p[2]) - 1.05, 1e-5) << p;
    ++checked;
  }
  EXPECT_GT(checked, 1000u);
}

TEST(FastMarching, FillsTheInsideAndKeepsABandOutside) {
  const double h = 0.1, r = 1;
  MarchOptions options;
  options.outside_width = 3;
  auto phi = march_shape(make_sphere(r), h, options);
  auto acc = phi->getConstAccessor();
  // Every grid point inside the sphere is accepted; none outside beyond the band.
  for (int i = -12; i <= 12; ++i)
    for (int j = -12; j <= 12; ++j)
      for (int k = -12; k <= 12; ++k) {
        double d = Vec3d(i, j, k).length() * h - r;
        openvdb::Coord c = phi->transform().worldToIndexCellCentered(Vec3d(i, j, k) * h);
        if (d < 2.5 * h) {
          EXPECT_TRUE(acc.isValueOn(c)) << c;
        } else if (d > 3.5 * h) {
          EXPECT_FALSE(acc.isValueOn(c)) << c;
        }
      }
  EXPECT_FLOAT_EQ(phi->background(), float(3 * h));
  EXPECT_EQ(phi->getGridClass(), openvdb::GRID_LEVEL_SET);
}

TEST(FastMarching, InsideWidthLimitsTheInside) {
  MarchOptions options;
  options.inside_width = 2;
  auto phi = march_shape(make_sphere(1), 0.1, options);
  auto acc = phi->getConstAccessor();
  auto at = [&](double x) { return phi->transform().worldToIndexCellCentered(Vec3d(x, 0, 0)); };
  EXPECT_FALSE(acc.isValueOn(at(0)));
  EXPECT_LT(acc.getValue(at(0)), 0);  // flood-filled inside
  EXPECT_TRUE(acc.isValueOn(at(0.9)));
}

TEST(FastMarching, VoxelMaskGivesASignedDistance) {
  // A voxel mask (as a segmented CT scan gives) has no sub-voxel crossings: each edge
  // between inside and outside counts as crossed halfway. A ball of radius 10 voxels comes
  // back within a voxel of the sphere's distance (a staircase is no closer to it).
  const double h = 0.1, r = 1.0;
  InterfaceSamples mask(grid_box(Vec3d(-r), Vec3d(r), h, 2), h);
  for (auto it = mask.box.begin(); it; ++it)
    mask.inside[mask.index(*it)] = Vec3d((*it)[0], (*it)[1], (*it)[2]).length() * h < r;
  auto phi = march(*interface_band(mask));
  auto acc = phi->getConstAccessor();
  for (double x : {-0.65, 0.35, 0.95, 1.05}) {
    double value = acc.getValue(phi->transform().worldToIndexCellCentered(Vec3d(x, 0, 0)));
    EXPECT_NEAR(value, x < 0 ? -x - r : x - r, h) << x;
  }
}

TEST(FastMarching, AnOpenSurfaceIsAnError) {
  // A slab infinite in x and y, sampled on a finite box: its inside leaks out of the box.
  ImplicitShape slab{[](const Vec3d& p) { return std::abs(p[2]) - 0.5; }, Vec3d(-1), Vec3d(1), "slab"};
  testing::expect_error([&] { march_shape(slab, 0.1); }, {"the surface is not closed"});
}

struct SphereErrors {
  double average, centre;
};

// Seed 004 eq. (30)-(31) over the accepted grid points.
SphereErrors sphere_errors(double R, double h, int order) {
  MarchOptions options;
  options.order = order;
  auto phi = march_shape(make_sphere(R), h, options);
  double sum = 0, minimum = 1e300;
  std::size_t n = 0;
  for (auto it = phi->cbeginValueOn(); it; ++it) {
    double exact = phi->indexToWorld(it.getCoord()).length() - R;
    minimum = std::min(minimum, double(*it));
    if (std::abs(exact) < 1e-12) continue;
    sum += std::abs((*it - exact) / exact);
    ++n;
  }
  return {sum / double(n), (minimum + R) / R};
}

struct Convergence {
  std::vector<SphereErrors> errors;
  double slope_average, slope_centre;
};

Convergence sphere_convergence(int order) {
  const double R = 1;
  std::vector<double> spacing, average, centre;
  Convergence c;
  for (double voxels_per_diameter : {10, 20, 40, 80}) {
    double h = 2 * R / voxels_per_diameter;
    SphereErrors e = sphere_errors(R, h, order);
    c.errors.push_back(e);
    spacing.push_back(h);
    average.push_back(e.average);
    centre.push_back(std::abs(e.centre));
    std::printf("order %d, r_g = %3.0f: err_avg = %.5f  err_ctr = %+.5f\n", order,
                voxels_per_diameter, e.average, e.centre);
  }
  c.slope_average = fitted_slope(spacing, average);
  c.slope_centre = fitted_slope(spacing, centre);
  std::printf("order %d fitted slopes: err_avg %.3f, err_ctr %.3f\n", order, c.slope_average,
              c.slope_centre);
  return c;
}

TEST(FastMarching, SphereErrorFallsAtLeastAtFirstOrderWithSecondOrderDifferences) {
  Convergence c = sphere_convergence(2);
  // The centre is where all characteristics meet; there the scheme is first order.
  EXPECT_GE(c.slope_centre, 0.8);
  EXPECT_LE(c.slope_centre, 1.3);
  // Elsewhere second order shows: faster than first order on average.
  EXPECT_GE(c.slope_average, 1.0);
  // Distances at the centre are overestimated (seed 004 Fig. 4), by < 5 % at r_g = 20.
  EXPECT_GT(c.errors[1].centre, 0);
  EXPECT_LT(c.errors[1].centre, 0.05);
  EXPECT_LT(c.errors[1].average, 0.01);
}

TEST(FastMarching, FirstOrderErrorFallsLikeHLogH) {
  // Sethian's first-order scheme converges like h log(1/h) where fronts converge: between
  // r_g = 10 and 80 the fitted slope is about 0.7 at the centre (docs/levelset.md).
  Convergence first = sphere_convergence(1);
  EXPECT_GE(first.slope_centre, 0.6);
  EXPECT_LE(first.slope_centre, 1.0);
  EXPECT_GE(first.slope_average, 0.6);
  EXPECT_LE(first.slope_average, 1.3);
  // Second order is at least twice as accurate at every resolution.
  Convergence second = sphere_convergence(2);
  for (std::size_t i = 0; i < first.errors.size(); ++i) {
    EXPECT_LT(2 * second.errors[i].average, first.errors[i].average) << i;
    EXPECT_LT(1.5 * second.errors[i].centre, first.errors[i].centre) << i;
  }
}

TEST(FastMarching, FlakeSolvesTheNonUnitEikonal) {
  // Seed 004 eq. (32): |∇φ| = |∇f| from φ = f near the surface has φ = f as solution.
  auto flake = make_flake(3, 1.5);
  auto gradient_norm = [&](const Vec3d& p) {
    const double d = 1e-6;
    Vec3d g;
    for (int a = 0; a < 3; ++a) {
      Vec3d e(0);
      e[a] = d;
      g[a] = (flake.f(p + e) - flake.f(p - e)) / (2 * d);
    }
    return g.length();
  };
  std::vector<double> spacing, average;
  for (double h : {0.4, 0.2, 0.1}) {
    auto samples = sample_implicit(flake, h);
    // Boundary values φ = f at the points next to the interface.
    auto boundary = interface_band(samples);
    // (The side stays the band's: on the surface f's sign is round-off.)
    for (auto it = boundary->beginValueOn(); it; ++it)
      it.setValue(std::copysign(float(std::abs(flake.f(boundary->indexToWorld(it.getCoord())))), *it));
    MarchOptions options;
    options.outside_width = 3;
    options.speed = gradient_norm;
    auto phi = march(*boundary, options);
    double sum = 0;
    std::size_t n = 0;
    for (auto it = phi->cbeginValueOn(); it; ++it) {
      Vec3d p = phi->indexToWorld(it.getCoord());
      double exact = flake.f(p);
      // f is the solution only where it is smooth: not towards the centre, where it is
      // discontinuous (it tends to −R − ΔR sin 5θ sin 4φ) and the viscosity solution has a
      // shock, nor within 1 of the z axis, where ∇f jumps (ΔR sin 5θ sin 4φ behaves like
      // ρ sin 4φ).
      if (exact < -1 || std::abs(exact) < 1e-12 || std::hypot(p[0], p[1]) < 1) continue;
      sum += std::abs((*it - exact) / exact);
      ++n;
    }
    spacing.push_back(h);
    average.push_back(sum / double(n));
    std::printf("flake h = %.2f: err_avg = %.4f\n", h, average.back());
  }
  double slope = fitted_slope(spacing, average);
  std::printf("fitted slope: err_avg %.3f\n", slope);
  EXPECT_GE(slope, 0.8);
  EXPECT_LE(slope, 1.3);
}

}  // namespace
}  // namespace scree::levelset
