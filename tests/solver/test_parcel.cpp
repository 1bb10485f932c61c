// Several arrays in one message between ranks (solver/ranks/parcel.h): read back as put, and
// made at their size, for a message stands beside its arrays at a rank's peak of memory.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "solver/ranks/parcel.h"

namespace scree::solver {
namespace {

struct Pair {
  std::uint32_t a;
  double b;
};

TEST(Parcel, ArraysComeBackInTheOrderPut) {
  const std::vector<Pair> pairs{{1, 0.5}, {2, -3.25}, {7, 1e300}};
  const std::vector<std::uint64_t> none;
  const std::vector<float> floats{1.5f, -2.0f};
  const Bytes bytes = Parcel::of(pairs, none, floats);
  ParcelReader in(bytes);
  const std::vector<Pair> pairs_read = in.take<Pair>();
  ASSERT_EQ(pairs_read.size(), pairs.size());
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    EXPECT_EQ(pairs_read[k].a, pairs[k].a);
    EXPECT_EQ(pairs_read[k].b, pairs[k].b);
  }
  EXPECT_TRUE(in.take<std::uint64_t>().empty());
  EXPECT_EQ(in.take<float>(), floats);
  EXPECT_THROW(in.take<float>(), std::length_error);  // nothing more was put
}

TEST(Parcel, IsMadeAtItsSize) {
  // Put by put, the second array grew the message by doubling: 8 + 16·1000 bytes, then room
  // for twice that as the next 8 + 8·100 came.
  const std::vector<Pair> pairs(1000, Pair{3, 2.0});
  const std::vector<std::uint64_t> ids(100, 5);
  const Bytes bytes = Parcel::of(pairs, ids);
  EXPECT_EQ(bytes.size(), 2 * sizeof(std::uint64_t) + pairs.size() * sizeof(Pair) + ids.size() * sizeof(std::uint64_t));
  EXPECT_EQ(bytes.capacity(), bytes.size());
}

}  // namespace
}  // namespace scree::solver
