// Contact islands: connected components through moving bodies only, in a fixed order.
#include <gtest/gtest.h>

#include "solver/contacts/islands.h"

namespace scree::solver {
namespace {

TEST(Islands, StaticBodiesDoNotJoinIslands) {
  // Bodies 0–5 move, 6 is the floor. Chains 4–1–3 and 0–5 rest on the floor; 2 is alone.
  std::vector<bool> is_static{false, false, false, false, false, false, true};
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs{{1, 3}, {6, 5}, {4, 1}, {0, 5}, {3, 6}, {0, 6}, {6, 6}};
  auto islands = contact_islands(pairs, is_static);
  ASSERT_EQ(islands.size(), 2u);
  EXPECT_EQ(islands[0].bodies, (std::vector<std::uint32_t>{0, 5}));
  EXPECT_EQ(islands[0].contacts, (std::vector<std::uint32_t>{1, 3, 5}));
  EXPECT_EQ(islands[1].bodies, (std::vector<std::uint32_t>{1, 3, 4}));
  EXPECT_EQ(islands[1].contacts, (std::vector<std::uint32_t>{0, 2, 4}));
}

TEST(Islands, OrderOfContactsDoesNotChangeTheIslands) {
  std::vector<bool> is_static(10, false);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> chain{{7, 8}, {2, 3}, {8, 9}, {3, 4}};
  auto islands = contact_islands(chain, is_static);
  ASSERT_EQ(islands.size(), 2u);
  EXPECT_EQ(islands[0].bodies, (std::vector<std::uint32_t>{2, 3, 4}));
  EXPECT_EQ(islands[1].bodies, (std::vector<std::uint32_t>{7, 8, 9}));
  EXPECT_THROW(contact_islands({{0, 12}}, is_static), std::out_of_range);
}

// A column on the floor is as deep as it is tall, whichever way its contacts are listed and
// however many points a pair has; a grain held by a wall halfway up shortens the path.
TEST(Islands, LayersCountTheContactsFromTheGrainFarthestFromStaticBodies) {
  std::vector<bool> is_static(7, false);
  is_static[5] = is_static[6] = true;  // 5 the floor, 6 a wall
  // Column 0–1–2–3–4 on the floor, two points between 2 and 3.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> column{{3, 4}, {1, 2}, {0, 5}, {2, 3}, {0, 1}, {3, 2}};
  auto islands = contact_islands(column, is_static);
  ASSERT_EQ(islands.size(), 1u);
  EXPECT_EQ(island_layers(islands[0], column, is_static), 5);
  column.emplace_back(6, 3);  // the wall holds grain 3: 1, 2 and 4 are two contacts from a static body
  islands = contact_islands(column, is_static);
  EXPECT_EQ(island_layers(islands[0], column, is_static), 2);
}

// An island touching nothing static (grains in flight) counts twice its reach from its
// smallest body: a chain of four struck at one end needs the passes of its length.
TEST(Islands, LayersOfAFloatingChainBoundItsLength) {
  std::vector<bool> is_static(4, false);
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> chain{{0, 1}, {1, 2}, {2, 3}};
  const auto islands = contact_islands(chain, is_static);
  ASSERT_EQ(islands.size(), 1u);
  EXPECT_EQ(island_layers(islands[0], chain, is_static), 6);
}

}  // namespace
}  // namespace scree::solver
