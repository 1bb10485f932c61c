// The ground's surface for ParaView: on a tilted plane it is the plane, faces up, and carries
// the map elevation and the slope; it reads back through VTK.
#include "post/ground_surface.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include <Eigen/Geometry>

#include "common/temp_dir.h"
#include "common/vtk_read_back.h"
#include "terrain/terrain_level_set.h"

namespace scree::post {
namespace {

using Eigen::Vector3d;
using terrain::HeightGrid;
using terrain::TerrainGrid;
using terrain::TerrainSurface;
using terrain::terrain_level_set;

// z = tan 25° x over 40 × 40 m, voxel 1 m, kept 100 m below its map height.
formats::Terrain tilted_plane() {
  const double slope = std::tan(25 * std::numbers::pi / 180);
  HeightGrid g;
  g.nx = g.ny = 41;
  for (std::size_t j = 0; j < g.ny; ++j)
    for (std::size_t i = 0; i < g.nx; ++i) {
      g.x.push_back(double(i));
      g.y.push_back(double(j));
      g.z.push_back(slope * double(i));
    }
  formats::Terrain t;
  t.phi = terrain_level_set(TerrainSurface::from_grid(g), TerrainGrid{});
  t.origin_offset = {500000, 4000000, 100};
  return t;
}

TEST(GroundSurface, TiltedPlaneIsThePlaneFacingUpWithItsSlopeAndElevation) {
  const double angle = 25, tan_angle = std::tan(angle * std::numbers::pi / 180);
  const formats::TriangleSurface s = ground_surface(tilted_plane());
  ASSERT_GT(s.triangles.size(), 2u * 30 * 30);
  ASSERT_EQ(s.point_data.size(), 1u);
  ASSERT_EQ(s.cell_data.size(), 1u);
  const auto& elevation = s.point_data[0].values;
  const auto& slope = s.cell_data[0].values;
  double area = 0, worst_off_plane = 0, worst_slope = 0, lowest_up = 1;
  auto at = [&](std::uint32_t p) { return Vector3d(s.points[p].data()); };
  for (std::size_t t = 0; t < s.triangles.size(); ++t) {
    const auto& tri = s.triangles[t];
    const Vector3d centre = (at(tri[0]) + at(tri[1]) + at(tri[2])) / 3;
    // Interior: more than the band from the DEM's edge, where the surface turns down.
    if (centre.x() < 4 || centre.x() > 36 || centre.y() < 4 || centre.y() > 36) continue;
    const Vector3d n = (at(tri[1]) - at(tri[0])).cross(at(tri[2]) - at(tri[0]));
    area += 0.5 * n.norm();
    lowest_up = std::min(lowest_up, n.z() / n.norm());
    worst_slope = std::max(worst_slope, std::abs(slope[t] - angle));
    for (const std::uint32_t p : tri) {
      worst_off_plane = std::max(worst_off_plane, std::abs(s.points[p][2] - tan_angle * s.points[p][0]));
      EXPECT_NEAR(elevation[p], s.points[p][2] + 100, 1e-4);
    }
  }
  EXPECT_LT(worst_off_plane, 0.01);  // m, voxel 1 m
  EXPECT_LT(worst_slope, 0.1);       // degrees
  EXPECT_NEAR(lowest_up, std::cos(angle * std::numbers::pi / 180), 1e-3);  // every one faces up
  // The footprint's 32 × 32 m (to within the triangles that straddle its edges) on a 25° slope.
  EXPECT_NEAR(area, 32 * 32 / std::cos(angle * std::numbers::pi / 180), 0.03 * area);
}

TEST(GroundSurface, ReadsBackThroughVtk) {
  scree::testing::TempDir dir;
  const formats::TriangleSurface s = ground_surface(tilted_plane());
  formats::write_vtp(dir / "ground.vtp", s);
  const auto back = scree::testing::read_vtp(dir / "ground.vtp");
  ASSERT_TRUE(back.ok);
  EXPECT_EQ(back.points.size(), s.points.size());
  EXPECT_EQ(back.cells.size(), s.triangles.size());
  EXPECT_EQ(back.point_data.at("elevation").values.size(), s.points.size());
  EXPECT_EQ(back.cell_data.at("slope").values.size(), s.triangles.size());
}

}  // namespace
}  // namespace scree::post
