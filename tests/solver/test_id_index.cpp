#include "solver/id_index.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace scree::solver {
namespace {

// Every id finds its place, whatever the ids look like: consecutive (a world's grains), far
// apart, and many that share a slot before probing (multiples of the table's size).
TEST(IdIndex, FindsEveryIdsPlaceAndNoOther) {
  std::vector<std::uint64_t> ids;
  for (std::uint64_t k = 0; k < 1000; ++k) ids.push_back(k + 7);
  for (std::uint64_t k = 1; k <= 200; ++k) ids.push_back(k << 32);
  for (std::uint64_t k = 1; k <= 200; ++k) ids.push_back(5000 + 4096 * k);
  ids.push_back(~std::uint64_t(0) - 1);
  const IdIndex index(ids);
  for (std::uint32_t k = 0; k < ids.size(); ++k) ASSERT_EQ(index.find(ids[k]), k) << ids[k];
  for (const std::uint64_t other : {std::uint64_t(0), std::uint64_t(6), std::uint64_t(1007), std::uint64_t(3) << 40,
                                    std::uint64_t(5000), ~std::uint64_t(0)})
    EXPECT_EQ(index.find(other), IdIndex::absent) << other;
  EXPECT_EQ(index.at(ids[1200]), 1200u);
  EXPECT_THROW(index.at(6), std::out_of_range);
}

TEST(IdIndex, AnEmptyIndexFindsNothing) {
  EXPECT_EQ(IdIndex().find(3), IdIndex::absent);
  EXPECT_EQ(IdIndex(std::vector<std::uint64_t>{}).find(0), IdIndex::absent);
}

TEST(IdIndex, RefusesAnIdGivenTwice) {
  EXPECT_THROW(IdIndex(std::vector<std::uint64_t>{4, 9, 4}), std::invalid_argument);
}

}  // namespace
}  // namespace scree::solver
