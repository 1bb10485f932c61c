// What the solver asks of the other ranks (solver/ranks/communicator.h), run by ctest under
// mpirun on 1, 2, 3 and 4 ranks: every rank gets the same extremes and sums, and each
// message reaches the partner it was meant for, whatever its size, empty ones included.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <thread>

#include <sched.h>

#include "run/mpi_launch.h"
#include "solver/phase_times.h"
#include "solver/ranks/communicator.h"

namespace scree::solver {
namespace {

TEST(Communicator, HasTheRanksTheLauncherStarted) {
  const Ranks ranks = Ranks::world();
  const run::MpiLaunch launch = run::mpi_launch();
  EXPECT_EQ(ranks.size(), launch.ranks);
  EXPECT_EQ(ranks.rank(), launch.rank);
  EXPECT_EQ(MpiSession::open(), SCREE_WITH_MPI != 0);
}

// A call that meets the other ranks counts its wall time, waits included, and a phase's timer
// keeps the part of its phase so spent (phase_times.h): the ranks that wait for a rank 0 that
// sleeps 0.2 s before a barrier count at least that long, within the phase; one rank alone
// meets nobody and counts nothing.
TEST(Communicator, ACallThatWaitsForAnotherRankCountsTheWaitInItsPhase) {
  const Ranks ranks = Ranks::world();
  PhaseTimes times;
  const double before = seconds_with_other_ranks;
  {
    const PhaseTimer timer(times, Phase::velocity_passes);
    if (ranks.rank() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ranks.barrier();
  }
  const double waited = seconds_with_other_ranks - before;
  EXPECT_EQ(times.with_others[std::size_t(Phase::velocity_passes)], waited);
  EXPECT_LE(waited, times[Phase::velocity_passes]);
  if (ranks.rank() > 0) {
    EXPECT_GE(waited, 0.19);
  }
  for (std::size_t k = 0; k < phase_count; ++k) {
    if (k != std::size_t(Phase::velocity_passes)) {
      EXPECT_EQ(times.with_others[k], 0) << k;
    }
  }
  const double alone = seconds_with_other_ranks;
  const Ranks one;
  one.barrier();
  EXPECT_EQ(one.max(1.0), 1.0);
  EXPECT_EQ(seconds_with_other_ranks, alone);
}

TEST(Communicator, ExtremesAndSumsAreTheSameOnEveryRank) {
  const Ranks ranks = Ranks::world();
  const int n = ranks.size(), me = ranks.rank();
  EXPECT_EQ(ranks.max(double(me)), n - 1);
  EXPECT_EQ(ranks.min(double(me) + 0.5), 0.5);
  std::vector<double> x{double(me), -double(me), me == 1 ? 7.0 : 0.0};
  ranks.max(x);
  EXPECT_EQ(x, (std::vector<double>{double(n - 1), 0, n > 1 ? 7.0 : 0.0}));
  std::vector<double> y{double(me), -double(me)};
  ranks.min(y);
  EXPECT_EQ(y, (std::vector<double>{0, -double(n - 1)}));
  std::vector<std::int64_t> counts{1, me, std::int64_t(1) << 40};
  ranks.sum(counts);
  EXPECT_EQ(counts, (std::vector<std::int64_t>{n, std::int64_t(n) * (n - 1) / 2, std::int64_t(n) << 40}));
}

TEST(Communicator, ExactSumsOfEveryRanksTermsAreTheWholesSum) {
  // Terms over twenty orders of magnitude, dealt out among the ranks as grains would be.
  const Ranks ranks = Ranks::world();
  std::vector<double> terms;
  for (int k = 0; k < 5000; ++k) terms.push_back((k % 3 ? 1 : -1) * std::pow(10.0, (k * 7919) % 21 - 10) * (1 + k % 17));
  ExactSum whole, square_whole;
  std::vector<ExactSum> partial(2);
  for (std::size_t k = 0; k < terms.size(); ++k) {
    whole += terms[k];
    square_whole += terms[k] * terms[k];
    if (int((k * 31) % std::size_t(ranks.size())) == ranks.rank()) {
      partial[0] += terms[k];
      partial[1] += terms[k] * terms[k];
    }
  }
  ranks.sum(partial);
  EXPECT_EQ(partial[0].value(), whole.value());
  EXPECT_EQ(partial[1].value(), square_whole.value());
}

TEST(Communicator, ExactSumsCarryAnInfiniteTermOfOneRankToEveryRank) {
  // The infinite and NaN terms travel in a reduction of their own only when some rank has
  // one: a term on the last rank alone reaches every rank, and opposite infinities on two
  // ranks make a NaN, as in one sum.
  const Ranks ranks = Ranks::world();
  const int last = ranks.size() - 1;
  std::vector<ExactSum> partial(3);
  partial[0] += 1.5;
  if (ranks.rank() == last) partial[1] += std::numeric_limits<double>::infinity();
  partial[1] += 2.0;
  if (ranks.rank() == 0) partial[2] += std::numeric_limits<double>::infinity();
  if (ranks.rank() == last) partial[2] += -std::numeric_limits<double>::infinity();
  ranks.sum(partial);
  EXPECT_EQ(partial[0].value(), 1.5 * ranks.size());
  EXPECT_EQ(partial[1].value(), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(partial[2].value()));
  std::vector<ExactSum> finite(1);
  finite[0] += 0.25;
  ranks.sum(finite);
  EXPECT_EQ(finite[0].value(), 0.25 * ranks.size());
}

TEST(Communicator, TheLargestAndAnExactSumInOneReductionAreEachAsAlone) {
  // Every rank's largest, below zero, above, and a NaN on one rank, with sums of terms that
  // cancel but for round-off: each as Ranks::max and Ranks::sum give it apart.
  const Ranks ranks = Ranks::world();
  const int r = ranks.rank();
  for (const double sign : {-1.0, 1.0}) {
    double largest = sign * (1.0 + r * 0.125), alone = largest;
    ExactSum sum(1e16 * (r + 1)), apart = sum;
    sum += 1.0 / (r + 3);
    apart += 1.0 / (r + 3);
    ranks.max_and_sum(largest, sum);
    EXPECT_EQ(largest, ranks.max(alone));
    ranks.sum(std::span<ExactSum>(&apart, 1));
    EXPECT_EQ(sum.value(), apart.value());
  }
  double largest = r == ranks.size() - 1 ? std::nan("") : -0.5;
  ExactSum sum(0.5);
  ranks.max_and_sum(largest, sum);
  EXPECT_TRUE(std::isnan(largest));
  EXPECT_EQ(sum.value(), 0.5 * ranks.size());
  largest = 2.0;
  if (r == 0) sum += std::numeric_limits<double>::infinity();
  ranks.max_and_sum(largest, sum);
  EXPECT_EQ(largest, 2.0);
  EXPECT_EQ(sum.value(), std::numeric_limits<double>::infinity());
}

// What rank `from` sends rank `to`: from + to numbers (none from 0 to 0), each naming both.
std::vector<std::int32_t> message(int from, int to) {
  std::vector<std::int32_t> m(std::size_t(from + to));
  std::iota(m.begin(), m.end(), 1000 * from + 10 * to);
  return m;
}

void expect_exchange_with(const Ranks& ranks, const std::vector<int>& partners) {
  std::vector<Bytes> to;
  for (int p : partners) to.push_back(to_bytes<std::int32_t>(message(ranks.rank(), p)));
  const std::vector<Bytes> from = ranks.exchange(partners, to);
  ASSERT_EQ(from.size(), partners.size());
  for (std::size_t k = 0; k < partners.size(); ++k)
    EXPECT_EQ(from_bytes<std::int32_t>(from[k]), message(partners[k], ranks.rank())) << "from rank " << partners[k];
}

TEST(Communicator, ExchangesWithEveryOtherRank) {
  const Ranks ranks = Ranks::world();
  std::vector<int> partners;
  for (int r = 0; r < ranks.size(); ++r)
    if (r != ranks.rank()) partners.push_back(r);
  expect_exchange_with(ranks, partners);
  // Twice in a row: the second's messages do not meet the first's.
  expect_exchange_with(ranks, partners);
}

TEST(Communicator, ExchangesWithNeighboursOnARow) {
  // Ranks in a row, each with the ones beside it (as regions along one axis are).
  const Ranks ranks = Ranks::world();
  std::vector<int> partners;
  if (ranks.rank() > 0) partners.push_back(ranks.rank() - 1);
  if (ranks.rank() + 1 < ranks.size()) partners.push_back(ranks.rank() + 1);
  expect_exchange_with(ranks, partners);
}

// Values made one by one into the bytes they travel in, and read one by one where they came,
// are the values (a struct of mixed numbers, as the halo's motions).
TEST(Communicator, ValuesWrittenWhereTheyTravelReadBackWhereTheyCame) {
  struct Value {
    double x[3];
    std::int32_t k;
  };
  const Ranks ranks = Ranks::world();
  std::vector<int> partners;
  for (int r = 0; r < ranks.size(); ++r)
    if (r != ranks.rank()) partners.push_back(r);
  auto value = [](int from, int to, std::size_t k) { return Value{{0.5 * from, 0.25 * to, double(k) / 3}, 7 * from + to}; };
  std::vector<Bytes> to;
  for (int p : partners) to.push_back(to_bytes<Value>(std::size_t(p + 2), [&](std::size_t k) { return value(ranks.rank(), p, k); }));
  const std::vector<Bytes> from = ranks.exchange(partners, to);
  for (std::size_t j = 0; j < partners.size(); ++j) {
    ASSERT_EQ(from[j].size(), std::size_t(ranks.rank() + 2) * sizeof(Value));
    for (std::size_t k = 0; k < std::size_t(ranks.rank() + 2); ++k) {
      const Value got = value_at<Value>(from[j], k), sent = value(partners[j], ranks.rank(), k);
      EXPECT_EQ(got.k, sent.k);
      for (int d = 0; d < 3; ++d) EXPECT_EQ(got.x[d], sent.x[d]) << "from rank " << partners[j] << ", value " << k;
    }
  }
}

TEST(Communicator, RefusesPartnersItCannotHave) {
  const Ranks alone;
  EXPECT_EQ(alone.size(), 1);
  const std::vector<int> partners{1};
  EXPECT_THROW(alone.exchange(partners, {}), std::invalid_argument);
  EXPECT_THROW(alone.exchange(partners, {Bytes{}}), std::invalid_argument);
}

TEST(Communicator, SendsToAnyRankWithoutTheReceiverNamingIt) {
  // Each rank writes to itself and to the ranks one and three after it (fewer where they
  // coincide), and reads what came, by sender.
  const Ranks ranks = Ranks::world();
  const int n = ranks.size(), me = ranks.rank();
  std::vector<int> targets{me, (me + 1) % n, (me + 3) % n};
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  std::vector<std::pair<int, Bytes>> to;
  for (int t : targets) to.emplace_back(t, to_bytes<std::int32_t>(message(me, t)));
  const std::vector<std::pair<int, Bytes>> from = ranks.send_to_any(to);
  std::vector<int> senders;
  for (int r = 0; r < n; ++r)
    if (r == me || (r + 1) % n == me || (r + 3) % n == me) senders.push_back(r);
  ASSERT_EQ(from.size(), senders.size());
  for (std::size_t k = 0; k < from.size(); ++k) {
    EXPECT_EQ(from[k].first, senders[k]);
    EXPECT_EQ(from_bytes<std::int32_t>(from[k].second), message(senders[k], me));
  }
  EXPECT_THROW(ranks.send_to_any({{n, Bytes{}}}), std::invalid_argument);
}

TEST(Communicator, GathersEveryRanksBytesByRank) {
  const Ranks ranks = Ranks::world();
  const std::vector<Bytes> all = ranks.gather_all(to_bytes<std::int32_t>(message(ranks.rank(), 0)));
  ASSERT_EQ(all.size(), std::size_t(ranks.size()));
  for (int r = 0; r < ranks.size(); ++r) EXPECT_EQ(from_bytes<std::int32_t>(all[std::size_t(r)]), message(r, 0)) << r;
}

// What a node's ranks share (the terrain): the node's first rank makes it, once, and every rank
// of the node reads its bytes; the ranks under ctest all run on this one machine. What the
// first rank fails to make fails on every rank.
TEST(Communicator, ANodesRanksReadTheBytesItsFirstRankMade) {
  const Ranks ranks = Ranks::world();
  std::int64_t made = 0;
  const Ranks::NodeBlock block = ranks.share_on_node([&] {
    ++made;
    return to_bytes<std::int32_t>(message(ranks.rank(), 3));
  });
  EXPECT_EQ(made, ranks.rank() == 0 ? 1 : 0);
  EXPECT_EQ(from_bytes<std::int32_t>(Bytes(block.bytes.begin(), block.bytes.end())), message(0, 3));
  ranks.sum(std::span(&made, 1));
  EXPECT_EQ(made, 1);
  EXPECT_ANY_THROW(ranks.share_on_node([]() -> Bytes { throw std::runtime_error("unreadable"); }));
}

// Ranks that run more threads than their node's CPUs take turns on cores (their paces then
// measure time slices, RankShare::paced): more threads a rank than the machine has CPUs always
// do, one thread of one rank never; the answer is the same on every rank.
TEST(Communicator, RanksKnowWhetherTheyShareCores) {
  const Ranks ranks = Ranks::world();
  EXPECT_TRUE(ranks.share_cores(int(std::thread::hardware_concurrency()) + 1));
  if (ranks.size() == 1) {
    EXPECT_FALSE(ranks.share_cores(1));
  }
  const double shares = ranks.share_cores(1) ? 1 : 0;
  EXPECT_EQ(ranks.max(shares), ranks.min(shares));
}

// Ranks run first in, first out (chrt -f) take turns only where they wait, so that however many
// threads they run, each keeps a core while it works and its pace holds (bench/ranks/
// critical_path.sh). On one rank alone, where this user may raise its scheduling: none of the
// others then waits on a core it holds.
TEST(Communicator, RanksRunFirstInFirstOutDoNotShareCores) {
  const Ranks ranks = Ranks::world();
  if (ranks.size() > 1) GTEST_SKIP() << "one rank alone changes its scheduling";
  const int many = int(std::thread::hardware_concurrency()) + 1;
  const sched_param first{1};
  if (sched_setscheduler(0, SCHED_FIFO, &first) != 0) GTEST_SKIP() << "this user may not run first in, first out";
  const bool fifo_shares = ranks.share_cores(many);
  const sched_param other{0};
  ASSERT_EQ(sched_setscheduler(0, SCHED_OTHER, &other), 0);
  EXPECT_FALSE(fifo_shares);
  EXPECT_TRUE(ranks.share_cores(many));
}

}  // namespace
}  // namespace scree::solver
