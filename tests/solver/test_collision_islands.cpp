// Collision islands: what an island is expected to take by its size (IslandIncrements), and
// that the islands resolved fill it.
#include <gtest/gtest.h>

#include "solver/impulse/collision_islands.h"

namespace scree::solver {
namespace {

TEST(IslandIncrements, AnIslandExpectsTheMeanOfItsSizeElseTheMeanPerContact) {
  IslandIncrements table;
  EXPECT_EQ(table.expected(3), 3.0);  // nothing known: its contacts
  table.add(1, 90);
  table.add(1, 92);
  table.add(3, 450);
  EXPECT_EQ(table.expected(1), 91.0);
  EXPECT_EQ(table.expected(3), 450.0);
  // No island of two yet: two contacts at the mean per contact, (90 + 92 + 450) / 5.
  EXPECT_DOUBLE_EQ(table.expected(2), 2 * 632.0 / 5);
  // The largest class counts its islands by their contacts: 20 and 30 contacts, 10000 increments.
  table.add(20, 4000);
  table.add(30, 6000);
  EXPECT_DOUBLE_EQ(table.expected(25), 25 * 10000.0 / 50);
  EXPECT_DOUBLE_EQ(table.expected(IslandIncrements::sizes), IslandIncrements::sizes * 200.0);
  IslandIncrements twice = table;
  twice += table;
  for (const std::size_t contacts : {1u, 2u, 3u, 25u}) EXPECT_DOUBLE_EQ(twice.expected(contacts), table.expected(contacts));
}

// Two islands resolved apart: a lone ball on a floor and a row of three touching balls
// struck at one end; each island's increments land in its size's class.
TEST(IslandIncrements, ResolvedIslandsFillTheirSizesClasses) {
  std::vector<RigidBody> bodies(4, RigidBody::from_template(1000, 1e-3, Vec3::Constant(4e-6), 1));
  bodies.push_back(RigidBody::fixed());  // the floor
  bodies[0].velocity = Vec3(0, 0, -1);
  for (int i = 1; i < 4; ++i) bodies[std::size_t(i)].position = Vec3(0.2 * i, 1, 0);
  bodies[1].velocity = Vec3(1, 0, 0);
  const std::vector<bool> is_static{false, false, false, false, true};
  auto contact = [](std::uint32_t a, std::uint32_t b, const Vec3& point, const Vec3& normal) {
    return CollidingContact{{a, b, point, normal, 0.0, 1.0}, -1};
  };
  const std::vector<CollidingContact> contacts{contact(0, 4, Vec3(0, 0, -0.1), Vec3::UnitZ()),
                                               contact(2, 1, Vec3(0.3, 1, 0), Vec3::UnitX()),
                                               contact(3, 2, Vec3(0.5, 1, 0), Vec3::UnitX())};
  const CollisionTotals totals = resolve_collision_islands(bodies, contacts, is_static, {}, {});
  EXPECT_EQ(totals.islands, 2);
  EXPECT_EQ(totals.by_size.islands[0], 1);
  EXPECT_EQ(totals.by_size.islands[1], 1);
  EXPECT_GT(totals.by_size.increments[0], 0);
  EXPECT_GT(totals.by_size.increments[1], 0);
  EXPECT_EQ(totals.by_size.increments[0] + totals.by_size.increments[1], totals.increments);
}

}  // namespace
}  // namespace scree::solver
