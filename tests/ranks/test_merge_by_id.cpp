// Records of several ranks merged by id on rank 0 (solver/ranks/merge_by_id.h), on 1, 2, 3 and
// 4 ranks: every record once, in ascending ids, each rank's records of an id together and in
// their order, a round never much more than the block; a failure on rank 0 ends every rank's
// rounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>

#include "solver/ranks/merge_by_id.h"

namespace scree::solver {
namespace {

// Ids 0 … 2999 scattered over the ranks, id i with i % 5 records (none for some), the record
// of id i number j being i · 10 + j.
struct Records {
  std::vector<std::uint64_t> ids;
  std::vector<std::uint64_t> values;
};

int holder(std::uint64_t id, int ranks) {
  std::mt19937_64 random(id);
  return int(random() % std::uint64_t(ranks));
}

Records own_records(const Ranks& ranks) {
  Records own;
  for (std::uint64_t id = 0; id < 3000; ++id) {
    if (holder(id, ranks.size()) != ranks.rank()) continue;
    for (std::uint64_t j = 0; j < id % 5; ++j) {
      own.ids.push_back(id);
      own.values.push_back(id * 10 + j);
    }
  }
  return own;
}

TEST(MergeById, EveryRecordOnceInIdOrder) {
  const Ranks ranks = Ranks::world();
  const Records own = own_records(ranks);
  for (const std::size_t block : {std::size_t(1), std::size_t(7), std::size_t(100), std::size_t(1) << 20}) {
    std::vector<std::uint64_t> ids, values;
    std::size_t largest_round = 0;
    merge_by_id(own.ids, to_bytes(std::span<const std::uint64_t>(own.values)), sizeof(std::uint64_t), block, ranks,
                [&](std::span<const std::uint64_t> round_ids, std::span<const std::byte> records) {
                  ASSERT_EQ(records.size(), round_ids.size() * sizeof(std::uint64_t));
                  ids.insert(ids.end(), round_ids.begin(), round_ids.end());
                  const std::vector<std::uint64_t> got = from_bytes<std::uint64_t>(Bytes(records.begin(), records.end()));
                  values.insert(values.end(), got.begin(), got.end());
                  largest_round = std::max(largest_round, round_ids.size());
                });
    if (ranks.rank() != 0) {
      EXPECT_TRUE(ids.empty());
      continue;
    }
    std::vector<std::uint64_t> expected;
    for (std::uint64_t id = 0; id < 3000; ++id)
      for (std::uint64_t j = 0; j < id % 5; ++j) expected.push_back(id * 10 + j);
    EXPECT_EQ(values, expected) << "blocks of " << block;
    for (std::size_t k = 0; k < ids.size(); ++k) EXPECT_EQ(ids[k], values[k] / 10);
    // A rank sends at most block / ranks records a round, and the rest of the id it stops in.
    const std::size_t per_rank = std::max<std::size_t>(1, block / std::size_t(ranks.size()));
    EXPECT_LE(largest_round, std::size_t(ranks.size()) * (per_rank + 3)) << "blocks of " << block;
  }
}

TEST(MergeById, ATakeThatThrowsEndsTheRoundsOnEveryRank) {
  const Ranks ranks = Ranks::world();
  const Records own = own_records(ranks);
  int calls = 0;
  auto merge = [&] {
    merge_by_id(own.ids, to_bytes(std::span<const std::uint64_t>(own.values)), sizeof(std::uint64_t), 64, ranks,
                [&](std::span<const std::uint64_t>, std::span<const std::byte>) {
                  ++calls;
                  throw std::runtime_error("disk full");
                });
  };
  if (ranks.rank() == 0) {
    EXPECT_THROW(merge(), std::runtime_error);
    EXPECT_EQ(calls, 1);
  } else {
    EXPECT_NO_THROW(merge());
    EXPECT_EQ(calls, 0);
  }
  ranks.barrier();
}

}  // namespace
}  // namespace scree::solver
