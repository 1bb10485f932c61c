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

}  // namespace
}  // namespace scree::solver
