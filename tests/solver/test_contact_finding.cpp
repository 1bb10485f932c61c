// Contact finding, the first unit of the impulse scheme's phase 2, on its own: where bodies
// are posed, the contacts between spheres and against walls in closed form, a flat face
// against a wall as one glued contact whose support points are the face's corners, the same
// contacts from the neighbour list as from a fresh broad phase, and overlaps of a state.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "geometry/template_from_avatar.h"
#include "geometry/terrain_field.h"
#include "levelset/avatar_builder.h"
#include "levelset/shapes.h"
#include "solver/contacts/contact_finding.h"
#include "solver/world.h"

namespace scree::solver {
namespace {

World spheres(const std::vector<Vec3>& centres, double radius) {
  World w;
  w.shapes.push_back(GrainShape::sphere(radius));
  for (std::size_t i = 0; i < centres.size(); ++i) w.add_grain(i + 1, 0, 0, 2650, 1, centres[i], Quat::Identity());
  return w;
}

// A level-set avatar of an analytic shape, `nodes` grid nodes on its surface.
formats::Avatar avatar_of(const levelset::ImplicitShape& implicit, int voxels, int nodes) {
  levelset::Resolution resolution;
  resolution.voxels = voxels;
  formats::Shape shape = levelset::implicit_shape(implicit, resolution);
  levelset::add_nodes(shape, nodes, levelset::NodeMethod::grid);
  levelset::MassProperties mass;
  return levelset::make_avatar(shape, mass);
}

// A level-set box (0.4 × 0.3 × 0.2 m) lying on a floor at z = 0 with its largest face 0.1 mm
// into it, the grain at x = y = 0.
World box_on_the_floor() {
  const formats::Avatar avatar = avatar_of(levelset::make_box(levelset::Vec3d(0.2, 0.15, 0.1)), 20, 600);
  Eigen::Matrix3d to_body;
  for (int i = 0; i < 9; ++i) to_body(i / 3, i % 3) = avatar.properties.source_to_body[4 * (i / 3) + i % 3];
  World w;
  w.shapes.push_back(geometry::grain_shape_from_avatar(avatar));
  w.add_grain(1, 0, 0, 2650, 1, Vec3(0, 0, 0.1 - 1e-4), Quat(to_body.transpose()).normalized());
  w.add_wall(Wall{});
  return w;
}

// The support points of `found`'s face f.
std::vector<SupportPoint> face_points(const FoundContacts& found, std::size_t f) {
  const std::span<const SupportPoint> points = found.points_of(found.faces.at(f));
  return {points.begin(), points.end()};
}

TEST(ContactFinding, OverlappingSpheresTouchAlongTheLineOfCentres) {
  const World w = spheres({{0, 0, 0}, {0.06, 0.08, 0}}, 0.051);  // centres 0.1 apart: 2 mm deep
  const FoundContacts found = find_contacts(w, w.bodies, 1e-3, 0);
  ASSERT_EQ(found.contacts.size(), 1u);
  const Contact& c = found.contacts[0];
  EXPECT_EQ(c.a, 0u);
  EXPECT_EQ(c.b, 1u);
  EXPECT_NEAR(c.depth, 0.002, 1e-15);
  EXPECT_NEAR((c.normal - Vec3(-0.6, -0.8, 0)).norm(), 0, 1e-15);  // from B to A
  EXPECT_NEAR((c.point - Vec3(0.03, 0.04, 0)).norm(), 0, 1e-15);    // midway through the overlap
  ASSERT_EQ(found.faces.size(), 1u);
  EXPECT_EQ(found.faces[0].point_count, 1u);
}

TEST(ContactFinding, SpheresApartByMoreThanTheMarginDoNotTouch) {
  const World w = spheres({{0, 0, 0}, {0.103, 0, 0}}, 0.05);  // 3 mm apart
  EXPECT_TRUE(find_contacts(w, w.bodies, 1e-3, 0.002).contacts.empty());
  EXPECT_EQ(find_contacts(w, w.bodies, 1e-3, 0.004).contacts.size(), 1u);  // within the margin
}

TEST(ContactFinding, WallsAreTakenWhereTheyMoveInTheStep) {
  World w = spheres({{0, 0, 0.1005}}, 0.1);
  Wall floor;
  floor.velocity = Vec3(0, 0, 1);  // rises 1 mm in a step of 1 ms
  w.add_wall(floor);
  const FoundContacts found = find_contacts(w, w.bodies, 1e-3, 0);
  ASSERT_EQ(found.contacts.size(), 1u);
  EXPECT_NEAR(found.contacts[0].depth, 0.0005, 1e-12);
  EXPECT_EQ(found.contacts[0].wall, 0);
  EXPECT_EQ(found.contacts[0].b, 1u);  // the wall's static body, after the grain
}

// A level-set box with a flat face 0.1 mm into a plane: one contact at the face's centre,
// and the face's support points are its four corners (the hull of the contact nodes).
TEST(ContactFinding, FlatFaceOnAWallIsOneContactHeldAtItsCorners) {
  const World w = box_on_the_floor();
  const FoundContacts found = find_contacts(w, w.bodies, 1e-3, 0);
  ASSERT_EQ(found.contacts.size(), 1u);
  EXPECT_NEAR(found.contacts[0].point.x(), 0, 1e-6);
  EXPECT_NEAR(found.contacts[0].point.y(), 0, 1e-6);
  EXPECT_NEAR(found.contacts[0].depth, 1e-4, 1e-6);
  EXPECT_NEAR(found.contacts[0].normal.z(), 1, 1e-12);
  ASSERT_EQ(found.faces.size(), 1u);
  const std::span<const SupportPoint> points = found.points_of(found.faces[0]);
  ASSERT_GE(points.size(), 4u);
  ASSERT_LE(points.size(), 9u);
  int corners = 0;
  for (const SupportPoint& p : points) {
    EXPECT_NEAR(p.depth, 1e-4, 1e-6);
    if (std::abs(std::abs(p.arm.x()) - 0.2) < 0.02 && std::abs(std::abs(p.arm.y()) - 0.15) < 0.02) ++corners;  // the grain at x = y = 0
  }
  EXPECT_EQ(corners, 4);
}

// The same box face with the resting impulses so far: a node of the face that carries an
// impulse against the wall stays a support point though it is no corner; one whose impulse is
// zero, one of another plane and one off the face do not.
TEST(ContactFinding, AFaceKeepsTheNodesThatCarryLoadAmongItsSupportPoints) {
  const World w = box_on_the_floor();
  const std::vector<SupportPoint> corners = face_points(find_contacts(w, w.bodies, 1e-3, 0), 0);
  // The face's nodes nearest its centre and a node on the box's top, none of them a corner.
  const std::vector<Eigen::Vector3f>& nodes = w.shapes[0].level_set->nodes();
  std::vector<std::int32_t> middle;
  std::int32_t top = -1;
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const Vec3 x = w.bodies[0].orientation * nodes[k].cast<double>();
    if (x.z() < -0.09 && std::abs(x.x()) < 0.05 && std::abs(x.y()) < 0.05) middle.push_back(std::int32_t(k));
    if (x.z() > 0.09) top = std::int32_t(k);
  }
  ASSERT_GE(middle.size(), 3u);
  ASSERT_GE(top, 0);
  const std::uint32_t floor = 1;  // the wall's body
  const RestingImpulses loaded({{{0, floor, 0, middle[0]}, {0, 0, 1e-3f}},
                                {{0, floor, 0, middle[1]}, {0, 0, 0}},
                                {{0, floor, 1, middle[2]}, {0, 0, 1e-3f}},
                                {{0, floor, 0, top}, {0, 0, 1e-3f}}});
  const std::vector<SupportPoint> points = face_points(find_contacts(w, w.bodies, 1e-3, 0, nullptr, 0, nullptr, &loaded), 0);
  ASSERT_EQ(points.size(), corners.size() + 1);
  for (const SupportPoint& p : corners)
    EXPECT_TRUE(std::any_of(points.begin(), points.end(), [&](const SupportPoint& q) { return q.node == p.node; }));
  const auto kept = std::find_if(points.begin(), points.end(), [&](const SupportPoint& q) { return q.node == middle[0]; });
  ASSERT_NE(kept, points.end());
  EXPECT_NEAR(kept->depth, 1e-4, 1e-6);
  EXPECT_TRUE(std::is_sorted(points.begin(), points.end(),
                             [](const SupportPoint& a, const SupportPoint& b) { return a.node < b.node; }));
}

// The neighbour list, kept from step to step with a skin, gives the broad phase's pairs: the
// contacts are the same bit for bit as a fresh search, after the grains move.
// Whether two searches found the same contacts, bit for bit, and the same support points.
void expect_same_contacts(const FoundContacts& x, const FoundContacts& y) {
  ASSERT_EQ(x.contacts.size(), y.contacts.size());
  for (std::size_t k = 0; k < x.contacts.size(); ++k) {
    EXPECT_EQ(x.contacts[k].a, y.contacts[k].a);
    EXPECT_EQ(x.contacts[k].b, y.contacts[k].b);
    EXPECT_EQ(x.contacts[k].depth, y.contacts[k].depth);
    EXPECT_EQ(x.contacts[k].point, y.contacts[k].point);
    EXPECT_EQ(x.contacts[k].normal, y.contacts[k].normal);
  }
  ASSERT_EQ(x.faces.size(), y.faces.size());
  for (std::size_t f = 0; f < x.faces.size(); ++f) {
    const std::vector<SupportPoint> x_points = face_points(x, f), y_points = face_points(y, f);
    ASSERT_EQ(x_points.size(), y_points.size());
    for (std::size_t k = 0; k < x_points.size(); ++k) EXPECT_EQ(x_points[k].node, y_points[k].node);
  }
}

TEST(ContactFinding, NeighbourListGivesTheFreshSearchesContacts) {
  std::vector<Vec3> centres;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) centres.emplace_back(0.099 * i, 0.099 * j + 0.01 * (i % 2), 0);
  World w = spheres(centres, 0.05);
  NeighbourList list;
  for (int move = 0; move < 4; ++move) {
    for (std::size_t i = 0; i < w.grain_count(); ++i) w.bodies[i].position += 0.004 * Vec3(std::sin(i + move), std::cos(3 * i), 0);
    const FoundContacts kept = find_contacts(w, w.bodies, 1e-3, 1e-4, &list, 0.02);
    const FoundContacts fresh = find_contacts(w, w.bodies, 1e-3, 1e-4);
    ASSERT_EQ(kept.contacts.size(), fresh.contacts.size());
    ASSERT_GE(fresh.contacts.size(), 20u);
    for (std::size_t k = 0; k < fresh.contacts.size(); ++k) {
      EXPECT_EQ(kept.contacts[k].a, fresh.contacts[k].a);
      EXPECT_EQ(kept.contacts[k].b, fresh.contacts[k].b);
      EXPECT_EQ(kept.contacts[k].depth, fresh.contacts[k].depth);
    }
  }
}

// The near nodes kept pair by pair from search to search (the sweeps of a step, the steps
// after): after the grains move by a little (a later sweep), by more and by much more (a
// later step, listed afresh), the contacts are those of a fresh search bit for bit, and the
// cache holds the search's pairs in order.
TEST(ContactFinding, NearNodeCacheGivesTheFreshSearchesContacts) {
  World w;
  w.shapes.push_back(geometry::grain_shape_from_avatar(avatar_of(levelset::make_ellipsoid(levelset::Vec3d(0.03, 0.02, 0.015)), 16, 800)));
  // A 4 × 4 grid of ellipsoids turned at random, neighbours a little inside each other.
  for (int i = 0; i < 16; ++i) {
    const Quat turn = Quat(Eigen::AngleAxisd(0.7 * i, Vec3(std::sin(i), std::cos(2 * i), 1).normalized()));
    w.add_grain(std::uint64_t(i + 1), 0, 0, 2650, 1, Vec3(0.038 * (i % 4), 0.038 * (i / 4), 0), turn);
  }
  const double margin = 1e-4;
  NearNodeCache cache;
  expect_same_contacts(find_contacts(w, w.bodies, 1e-3, margin, nullptr, 0, &cache), find_contacts(w, w.bodies, 1e-3, margin));
  ASSERT_FALSE(cache.pairs.empty());
  ASSERT_EQ(cache.near.size(), cache.pairs.size());
  EXPECT_TRUE(std::is_sorted(cache.pairs.begin(), cache.pairs.end()));
  std::size_t listed = 0;
  for (const auto& both : cache.near)
    for (const NearNodes& near : both) near.for_each_listed([&](std::uint32_t, double) { ++listed; });
  EXPECT_GT(listed, 0u);
  EXPECT_LT(listed, 16 * 800u / 4);  // the nodes near a contact, not all
  std::vector<RigidBody> moved = w.bodies;
  for (double step : {2e-6, 2e-5, 2e-4, 2e-3}) {
    for (std::size_t i = 0; i < moved.size(); ++i) {
      moved[i].position += step * Vec3(std::sin(3.0 * i), std::cos(5.0 * i), std::sin(7.0 * i));
      moved[i].orientation = (Quat(Eigen::AngleAxisd(step / 0.03, Vec3(1, i % 3, 2).normalized())) * moved[i].orientation).normalized();
    }
    const FoundContacts fresh = find_contacts(w, moved, 1e-3, margin);
    EXPECT_GE(fresh.contacts.size(), 12u);
    expect_same_contacts(find_contacts(w, moved, 1e-3, margin, nullptr, 0, &cache), fresh);
  }
}

// Rolling ground over 0.4 m × 0.4 m by its height's difference, φ = z − h(x, y): not a
// distance, its slope up to √2 where the hills are steep; a column store of 1 cm cells whose
// band is 3 cm, its grid shifted off the world's origin.
std::shared_ptr<const geometry::TerrainField> rolling_ground() {
  constexpr double voxel = 0.01;
  constexpr float band = 0.03f;
  const Vec3 origin(-0.003, 0.004, 0.002);
  constexpr int nx = 41, ny = 41;
  auto height = [](double x, double y) { return 0.2 + 0.05 * std::sin(20 * x) * std::cos(18 * y); };
  std::vector<std::int32_t> first_k;
  std::vector<std::uint32_t> start{0};
  std::vector<float> values;
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) {
      const double ground = height(origin.x() + voxel * i, origin.y() + voxel * j) - origin.z();
      int k = int(std::floor((ground - band) / voxel));
      while (float(k * voxel - ground) <= -band) ++k;
      first_k.push_back(k);
      for (; float(k * voxel - ground) < band; ++k) values.push_back(float(k * voxel - ground));
      start.push_back(std::uint32_t(values.size()));
    }
  return std::make_shared<const geometry::TerrainField>(origin, voxel, nx, ny, std::move(first_k), std::move(start),
                                                        std::move(values), band);
}

// The near nodes of grains against the terrain, kept from search to search as a pair's are
// (contact_finding.cpp): ellipsoids turned at random, sunk a little into rolling ground, moved
// by a little (served from their lists: the lists stay as they were), by more and by much more
// (listed anew): the contacts are those of a fresh search bit for bit. A grain handed to
// another world (replace_grains) takes its list along.
TEST(ContactFinding, TerrainNearNodesGiveTheFreshSearchesContacts) {
  World w;
  w.shapes.push_back(geometry::grain_shape_from_avatar(avatar_of(levelset::make_ellipsoid(levelset::Vec3d(0.03, 0.02, 0.015)), 16, 800)));
  w.set_terrain(rolling_ground(), 0);
  for (int i = 0; i < 16; ++i) {
    const double x = 0.06 + 0.08 * (i % 4), y = 0.06 + 0.08 * (i / 4);
    const Quat turn = Quat(Eigen::AngleAxisd(0.7 * i, Vec3(std::sin(i), std::cos(2 * i), 1).normalized()));
    double lowest = 0;  // the lowest node's height over the centre
    for (const Eigen::Vector3f& node : w.shapes[0].level_set->nodes()) lowest = std::min(lowest, (turn * node.cast<double>()).z());
    const double ground = 0.2 + 0.05 * std::sin(20 * x) * std::cos(18 * y);
    w.add_grain(std::uint64_t(i + 1), 0, 0, 2650, 1, Vec3(x, y, ground - lowest - 0.002), turn);  // 2 mm in
  }
  const double margin = 1e-4, skin = 0.005;
  NearNodeCache cache;
  std::vector<RigidBody> moved = w.bodies;
  const FoundContacts first = find_contacts(w, moved, 1e-3, margin, nullptr, skin, &cache);
  expect_same_contacts(first, find_contacts(w, moved, 1e-3, margin));
  ASSERT_EQ(cache.terrain.size(), w.grain_count());
  std::size_t listed = 0;
  for (const TerrainNearNodes& near : cache.terrain) {
    EXPECT_GE(near.near.reach, 0);
    near.near.for_each_listed([&](std::uint32_t, double) { ++listed; });
  }
  EXPECT_GT(listed, 16u);
  EXPECT_LT(listed, 16 * 800u / 4);  // the nodes near the ground, not all
  auto centres = [&] {
    std::vector<Eigen::Vector3f> listed_at;
    for (const TerrainNearNodes& near : cache.terrain) listed_at.push_back(near.near.centre_in_other);
    return listed_at;
  };
  for (double step : {2e-6, 2e-5, 2e-4, 2e-3, 2e-2}) {
    const std::vector<Eigen::Vector3f> before = centres();
    for (std::size_t i = 0; i < w.grain_count(); ++i) {
      moved[i].position += step * Vec3(std::sin(3.0 * i), std::cos(5.0 * i), -1);
      moved[i].orientation = (Quat(Eigen::AngleAxisd(step / 0.03, Vec3(1, i % 3, 2).normalized())) * moved[i].orientation).normalized();
    }
    const FoundContacts fresh = find_contacts(w, moved, 1e-3, margin);
    EXPECT_GE(fresh.contacts.size(), 16u);
    expect_same_contacts(find_contacts(w, moved, 1e-3, margin, nullptr, skin, &cache), fresh);
    if (step < 1e-4) {
      EXPECT_EQ(centres(), before) << step;  // served from the lists
    } else if (step > skin) {
      EXPECT_NE(centres(), before) << step;  // listed anew
    }
  }
  // Every third grain handed away: the others' lists follow them.
  w.near_nodes = cache;
  std::vector<Grain> kept;
  for (std::uint32_t i = 0; i < w.grain_count(); ++i)
    if (i % 3 != 1) kept.push_back(w.grain(i));
  World part = w;
  part.replace_grains(kept);
  ASSERT_EQ(part.near_nodes.terrain.size(), kept.size());
  for (std::uint32_t k = 0; k < kept.size(); ++k)
    EXPECT_EQ(part.near_nodes.terrain[k].near.centre_in_other, cache.terrain[kept[k].id - 1].near.centre_in_other);
}

TEST(ContactFinding, OverlapsAreThoseDeeperThanTheFractionOfTheThinnerGrain) {
  World w = spheres({{0, 0, 0.2}, {0.095, 0, 0.2}, {0.5, 0, 0.049}}, 0.05);  // 5 mm deep; 1 mm in the floor
  w.add_wall(Wall{});
  const std::vector<Overlap> deep = overlaps(w, 0.05);  // 2.5 mm allowed
  ASSERT_EQ(deep.size(), 1u);
  EXPECT_EQ(deep[0].grain, 0u);
  EXPECT_EQ(deep[0].other_grain, 1);
  EXPECT_NEAR(deep[0].depth, 0.005, 1e-12);
  const std::vector<Overlap> all = overlaps(w, 0.01);  // 0.5 mm allowed: the floor's too
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[1].wall, 0);
  EXPECT_EQ(all[1].other_grain, -1);
}

}  // namespace
}  // namespace scree::solver
