// Letting go of a container (solver/let_go.h): it is left empty with no room held, where
// `= {}` leaves the room (the check below that it does keeps the reason for let_go honest).
#include <gtest/gtest.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "solver/let_go.h"

namespace scree::solver {
namespace {

TEST(LetGo, AVectorHandsItsRoomBack) {
  std::vector<double> values(1000, 1.0);
  let_go(values);
  EXPECT_TRUE(values.empty());
  EXPECT_EQ(values.capacity(), 0u);
}

TEST(LetGo, AssigningAnEmptyListKeepsTheRoom) {
  std::vector<double> values(1000, 1.0);
  values = {};
  EXPECT_TRUE(values.empty());
  EXPECT_GE(values.capacity(), 1000u);
}

TEST(LetGo, AHashTableHandsItsBucketsBack) {
  std::unordered_map<std::uint64_t, std::uint32_t> index_of;
  for (std::uint32_t k = 0; k < 1000; ++k) index_of.emplace(k, k);
  const std::size_t buckets = index_of.bucket_count();
  let_go(index_of);
  EXPECT_TRUE(index_of.empty());
  EXPECT_LT(index_of.bucket_count(), buckets / 10);
}

TEST(LetGo, AStructOfVectorsHandsEachBack) {
  struct Part {
    std::vector<int> faces, points;
  } part{std::vector<int>(500), std::vector<int>(700)};
  let_go(part);
  EXPECT_EQ(part.faces.capacity(), 0u);
  EXPECT_EQ(part.points.capacity(), 0u);
}

}  // namespace
}  // namespace scree::solver
