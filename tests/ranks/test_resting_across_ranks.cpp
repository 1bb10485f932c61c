// Resting contact when ranks share the grains (solver/ranks/resting_across_ranks.h), on 1, 2,
// 3 and 4 ranks: a stack of boxes settling on a floor (one island of thousands of points, cut
// into tiles) and a box alone on the floor (an island of its own), and columns of boxes that
// other ranks than their owner solve, two sweeps warm started from
// a sweep before them: every grain's velocities and corrections, every owned grain's stored
// impulses and the books, bit for bit as one process's rest() gives them; also with two
// threads a rank.
#include <gtest/gtest.h>

#include <map>
#include <optional>

#include <omp.h>

#include "ranks/box_stack.h"
#include "solver/impulse/resting_contact.h"
#include "solver/ranks/resting_across_ranks.h"

namespace scree::solver {
namespace {

constexpr double dt = 1e-3, margin = 1e-6;

// With `columns_apart`, six columns of four boxes stand apart beyond the lone box: islands of
// 16 points or more, all in the last rank's region, which hands some of them to the others to
// solve (island_solvers.h).
World boxes(bool columns_apart = false) {
  World w = stack();
  w.laws = {ContactLaw{0.6, 0}};
  w.add_grain(5000, 0, 0, 2650, 1, Vec3(10, 0, 0.1 - 2e-4), w.bodies[0].orientation);
  if (columns_apart)
    for (std::uint64_t k = 0; k < 6; ++k)
      for (std::uint64_t level = 0; level < 4; ++level)
        w.add_grain(6000 + 4 * k + level, 0, 0, 2650, 1, Vec3(11 + double(k), 0, 0.1 - 1e-4 + (0.2 - 1e-4) * double(level)),
                    w.bodies[0].orientation);
  for (std::size_t i = 0; i < w.grain_count(); ++i) w.bodies[i].velocity = Vec3(0, 0, -9.81 * dt);
  return w;
}

std::vector<bool> statics(const World& w) {
  std::vector<bool> is_static(w.bodies.size(), false);
  std::fill(is_static.begin() + std::ptrdiff_t(w.grain_count()), is_static.end(), true);
  return is_static;
}

RestingSettings settings() {
  RestingSettings s{1, 1e-4 * 9.81 * dt, 0.1 * 9.81 * dt, 300, true, 1, 5, Vec3(0, 0, -1), 3 * 9.81 * dt};
  s.largest_reach = 0.6;
  return s;
}

// The booked totals, as doubles.
struct Booked {
  double resting, friction, wall_work;
  std::vector<Vec3> wall_impulse;
  int passes;
  bool operator==(const Booked&) const = default;
};

void PrintTo(const Booked& b, std::ostream* os) {
  *os << std::hexfloat << "resting " << b.resting << ", friction " << b.friction << ", wall work " << b.wall_work << ", passes "
      << b.passes;
}

Booked booked(const RestingTotals& totals, std::size_t walls) {
  World w;
  StepReport report;
  report.wall_impulse.assign(walls, Vec3::Zero());
  totals.book(w, report);
  return {w.energy.resting, w.energy.friction, w.energy.wall_work, report.wall_impulse, totals.passes};
}

// One sweep: the bodies posed with their corrections, contacts found (this rank's part, with
// `share`), resting points built and solved (across the ranks, with `share`); the velocities
// then the world's. With `pace`, the big island's strips are cut by the ranks' paces; with
// `spent`, the sweep's phase times are left there.
Booked sweep(World& w, std::vector<RigidBody>& corrections, const SearchShare* share, const Halo* halo, const Ranks& ranks,
             StripPace* pace = nullptr, PhaseTimes* spent = nullptr) {
  std::vector<RigidBody> posed = w.bodies;
  move_bodies(posed, corrections, dt);
  RestingBodies bodies(posed, corrections);
  const std::vector<bool> is_static = statics(w);
  const FoundContacts found = find_contacts(w, posed, dt, margin, nullptr, 0, nullptr, &w.resting_impulses, share);
  RestingContacts resting;
  const std::vector<bool> collides(found.faces.size(), false);
  build_resting_contacts(w, found.faces, found.points, collides, bodies, is_static, dt, 0.6, share == nullptr, resting);
  PhaseTimes times;
  const RestingTotals totals =
      share ? rest_across_ranks(w, is_static, w.resting_impulses, std::move(resting), bodies, share->owned, *halo, ranks, settings(), times,
                                pace)
            : solve_resting_islands(w, is_static, w.resting_impulses, resting, bodies, settings(), times);
  for (std::size_t i = 0; i < w.grain_count(); ++i) {
    w.bodies[i].velocity = posed[i].velocity;
    w.bodies[i].angular_velocity = posed[i].angular_velocity;
  }
  if (spent) *spent = times;
  return booked(totals, w.walls.size());
}

// The store's entries by ids: (A, B or the wall, plane, node) → impulse and whether this step set it.
using Entries = std::map<std::tuple<std::uint64_t, std::int64_t, std::int32_t, std::int32_t>, std::pair<Eigen::Vector3f, bool>>;

Entries entries_of(const World& w, const std::vector<char>* owned) {
  Entries out;
  for (const auto& [key, impulse] : w.resting_impulses) {
    if (owned && !(*owned)[key.a]) continue;
    const std::int64_t b = key.b < w.grain_count() ? std::int64_t(w.id[key.b]) : -1 - std::int64_t(key.b - w.grain_count());
    out[{w.id[key.a], b, key.plane, key.node}] = {impulse, w.resting_impulses.find(key).this_step};
  }
  return out;
}

// A rank's start from a world every rank holds whole: its region's grains and halo (by
// bisection of the grains' places), with their impulses, owning every ranks-th grain.
struct RankStart {
  World world;
  std::vector<char> owned;
  Decomposition regions;
  Halo halo;
  SearchShare share;  // on the members above: a RankStart stays where it was made

  RankStart(const World& start, const Ranks& ranks)
      : world(start), owned(every_ranks_th(start, ranks)), regions(bisected(start, ranks)),
        halo(share_grains(world, owned, regions, 2 * 0.6 + 0.05, ranks)), share{regions, ranks.rank(), owned} {}
  RankStart(const RankStart&) = delete;
  static std::vector<char> every_ranks_th(const World& start, const Ranks& ranks) {
    std::vector<char> owned(start.grain_count(), 0);
    for (std::size_t i = std::size_t(ranks.rank()); i < start.grain_count(); i += std::size_t(ranks.size())) owned[i] = 1;
    return owned;
  }
  static Decomposition bisected(const World& start, const Ranks& ranks) {
    std::vector<Vec3> places;
    for (std::size_t i = 0; i < start.grain_count(); ++i) places.push_back(start.bodies[i].position);
    return Decomposition::bisection(places, std::vector<std::int64_t>(places.size(), 1), ranks.size());
  }
};

// With `fast`, that grain of the stack moves faster than the coarse step's speed as the two
// sweeps begin, so that the island takes none in the first. With `paced`, the ranks' strips are
// cut by paces that make each rank twice as slow as the one before it (the first sweep's), then
// by the paces the first sweep measured.
void expect_two_sweeps_as_one_process(std::optional<std::size_t> fast = std::nullopt, bool paced = false, bool columns_apart = false) {
  const Ranks ranks = Ranks::world();
  // One process: a sweep that fills the store, the step ended, then two sweeps.
  World whole = boxes(columns_apart);
  std::vector<RigidBody> corrections = no_corrections(whole);
  sweep(whole, corrections, nullptr, nullptr, ranks);
  whole.resting_impulses.keep_this_step();
  if (fast) whole.bodies[*fast].velocity.z() -= 2 * settings().coarse_speed;
  const World start = whole;
  corrections = no_corrections(whole);
  const Booked expected_first = sweep(whole, corrections, nullptr, nullptr, ranks);
  const Booked expected_second = sweep(whole, corrections, nullptr, nullptr, ranks);
  EXPECT_GT(expected_second.passes, 3);
  EXPECT_GT(whole.resting_impulses.size(), 2000u);

  // The ranks, from the same start: each its region's grains and halo, with their impulses.
  RankStart ranked(start, ranks);
  World& mine = ranked.world;
  const std::vector<char>& owned = ranked.owned;
  const Halo& halo = ranked.halo;
  const SearchShare& share = ranked.share;
  std::vector<RigidBody> mine_corrections = no_corrections(mine);
  const double given_pace = 1e-8 * double(1 << ranks.rank());
  StripPace pace{given_pace};
  EXPECT_EQ(sweep(mine, mine_corrections, &share, &halo, ranks, paced ? &pace : nullptr), expected_first);
  if (paced) {  // this rank's pace kept up: the mean of the given and what its strips took
    EXPECT_GT(pace.seconds_per_work, 0.5 * given_pace);
    EXPECT_NE(pace.seconds_per_work, given_pace);
  }
  EXPECT_EQ(sweep(mine, mine_corrections, &share, &halo, ranks, paced ? &pace : nullptr), expected_second);

  std::map<std::uint64_t, std::uint32_t> index;
  for (std::uint32_t i = 0; i < whole.grain_count(); ++i) index[whole.id[i]] = i;
  for (std::uint32_t i = 0; i < mine.grain_count(); ++i) {
    const std::uint32_t j = index.at(mine.id[i]);
    EXPECT_EQ(mine.bodies[i].velocity, whole.bodies[j].velocity) << "grain " << mine.id[i];
    EXPECT_EQ(mine.bodies[i].angular_velocity, whole.bodies[j].angular_velocity) << "grain " << mine.id[i];
    EXPECT_EQ(mine_corrections[i].velocity, corrections[j].velocity) << "grain " << mine.id[i];
    EXPECT_EQ(mine_corrections[i].angular_velocity, corrections[j].angular_velocity) << "grain " << mine.id[i];
  }
  const Entries got = entries_of(mine, &owned), all = entries_of(whole, nullptr);
  std::size_t compared = 0;
  for (const auto& [key, value] : all)
    if (std::binary_search(mine.id.begin(), mine.id.end(), std::get<0>(key)) &&
        owned[std::size_t(std::lower_bound(mine.id.begin(), mine.id.end(), std::get<0>(key)) - mine.id.begin())]) {
      ++compared;
      const auto it = got.find(key);
      ASSERT_NE(it, got.end()) << "grain " << std::get<0>(key);
      EXPECT_EQ(it->second.first, value.first) << "grain " << std::get<0>(key);
      EXPECT_EQ(it->second.second, value.second) << "grain " << std::get<0>(key);
    }
  EXPECT_EQ(compared, got.size());
}

TEST(RestingAcrossRanks, TwoSweepsOfAStackAndABoxAloneSolveAsOnOneProcess) { expect_two_sweeps_as_one_process(); }

// Whether an island takes coarse steps hangs on every grain's speed: the ranks that solve
// none of a fast grain's units see its speed too, and skip them as the rank that solves it.
TEST(RestingAcrossRanks, AFastGrainStopsTheCoarseStepOnEveryRank) { expect_two_sweeps_as_one_process(stack().grain_count() / 2); }

// Strips cut unevenly, as the ranks' paces ask, and by the paces measured: who solves a tile
// changes no bit.
TEST(RestingAcrossRanks, StripsCutByTheRanksPacesSolveAsOnOneProcess) { expect_two_sweeps_as_one_process(std::nullopt, true); }

// A rank's strip pace is what its strips' passes took: the smaller islands it solves after
// them (the lone box, the columns) are no part of it. Counted in, a rank that solves many of
// them made itself slow and its strips thin (docs/benchmarks.md, "Strips paced by the strips
// alone"). On one rank, which solves them all, the pace's seconds are less than the passes'.
TEST(RestingAcrossRanks, AStripPaceCountsTheStripsAloneNotTheSmallerIslandsAfterThem) {
  const Ranks ranks = Ranks::world();
  World whole = boxes(true);
  std::vector<RigidBody> corrections = no_corrections(whole);
  sweep(whole, corrections, nullptr, nullptr, ranks);
  whole.resting_impulses.keep_this_step();
  RankStart ranked(whole, ranks);
  std::vector<RigidBody> mine_corrections = no_corrections(ranked.world);
  StripPace pace;
  PhaseTimes spent;
  sweep(ranked.world, mine_corrections, &ranked.share, &ranked.halo, ranks, &pace, &spent);
  const double passes = spent.work(Phase::velocity_passes) + spent.work(Phase::correction_passes);
  EXPECT_LE(pace.last_seconds, passes + 1e-12);  // a part of them, taken as differences of running sums: to round-off
  if (ranks.size() == 1) {
    EXPECT_GT(pace.last_seconds, 0.0);
    EXPECT_LT(pace.last_seconds, passes);
    EXPECT_GT(pace.seconds_per_work, 0.0);
  }
}

// Islands handed from the rank that owns them to others (island_solvers.h) solve as their
// owner would.
TEST(RestingAcrossRanks, IslandsHandedToOtherRanksSolveAsOnOneProcess) { expect_two_sweeps_as_one_process(std::nullopt, false, true); }

// Two threads a rank (MPI + OpenMP): the threads share the rank's strips of the big island,
// its first thread exchanging the seams after each phase, with the same bits.
TEST(RestingAcrossRanks, TwoThreadsARankSolveAsOnOneProcess) {
  const int threads = omp_get_max_threads();
  omp_set_num_threads(2);
  expect_two_sweeps_as_one_process();
  omp_set_num_threads(threads);
}

}  // namespace
}  // namespace scree::solver
