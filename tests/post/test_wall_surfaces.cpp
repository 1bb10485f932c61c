// Walls for ParaView: a box's faces face in and cover it, a plane is a square facing the
// grains' side, and moving walls are where their velocity has taken them.
#include "post/wall_surfaces.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

namespace scree::post {
namespace {

using Eigen::Vector3d;

struct Faces {
  double area = 0;
  std::vector<Vector3d> normals, centres;
};
Faces faces_of(const formats::TriangleSurface& s) {
  Faces f;
  for (const auto& t : s.triangles) {
    const Vector3d a(s.points[t[0]].data()), b(s.points[t[1]].data()), c(s.points[t[2]].data());
    const Vector3d n = (b - a).cross(c - a);
    f.area += 0.5 * n.norm();
    f.normals.push_back(n.normalized());
    f.centres.push_back((a + b + c) / 3);
  }
  return f;
}

TEST(WallSurfaces, BoxFacesFaceInAndMoveWithTheBox) {
  formats::Wall box;
  box.type = formats::WallType::box;
  box.min = {0, 0, 0};
  box.max = {1, 2, 3};
  box.velocity = {0.5, 0, 0};
  const formats::TriangleSurface s = wall_surfaces({box}, 2, {0, 0, 0}, 1);
  ASSERT_EQ(s.triangles.size(), 12u);
  const Faces f = faces_of(s);
  EXPECT_NEAR(f.area, 2 * (1 * 2 + 2 * 3 + 1 * 3), 1e-12);
  const Vector3d centre(1.5, 1, 1.5);  // moved 1 m along x in 2 s
  for (std::size_t t = 0; t < 12; ++t) EXPECT_GT(f.normals[t].dot(centre - f.centres[t]), 0.1) << t;
  double lowest_x = 1e9;
  for (const auto& p : s.points) lowest_x = std::min(lowest_x, p[0]);
  EXPECT_EQ(lowest_x, 1);
  EXPECT_EQ(s.cell_data.at(0).integers, std::vector<std::int64_t>(12, 0));
}

TEST(WallSurfaces, PlaneIsASquareFacingTheGrainsSide) {
  formats::Wall ground, slope;
  ground.normal = {0, 0, 1};
  slope.point = {0, 0, 5};
  slope.normal = {-1, 0, 1};  // normalised when drawn
  const formats::TriangleSurface s = wall_surfaces({ground, slope}, 0, {3, 4, 10}, 6);
  ASSERT_EQ(s.triangles.size(), 4u);
  const Faces f = faces_of(s);
  EXPECT_NEAR(f.area, 2 * 36, 1e-9);
  EXPECT_NEAR((f.normals[0] - Vector3d(0, 0, 1)).norm(), 0, 1e-12);
  EXPECT_NEAR((f.normals[2] - Vector3d(-1, 0, 1).normalized()).norm(), 0, 1e-12);
  // The ground's square is centred under (3, 4, 10).
  const Vector3d middle = 0.5 * (Vector3d(s.points[0].data()) + Vector3d(s.points[2].data()));
  EXPECT_NEAR((middle - Vector3d(3, 4, 0)).norm(), 0, 1e-12);
  EXPECT_EQ(s.cell_data.at(0).integers, (std::vector<std::int64_t>{0, 0, 1, 1}));
}

}  // namespace
}  // namespace scree::post
