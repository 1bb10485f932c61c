// A big resting island's tiles shared by ranks (solver/ranks/tile_share.h) and its coarse step
// summed across them (solver/impulse/coarse_step.h, CoarseShare), on 1, 2, 3 and 4 ranks: each
// rank given its strips alone, each tile solved by one rank, each body reported by one, the
// bodies a phase moved handed to every rank that holds them, and the coarse step's scales and
// work the bits one process gets.
#include <algorithm>

#include <gtest/gtest.h>

#include "solver/impulse/coarse_step.h"
#include "solver/ranks/tile_share.h"

namespace scree::solver {
namespace {

// A row of 40 grains on a floor (body 40, static): unit (i, floor) and unit (i, i + 1) in cell
// i / 2, so that a tile holds grains 2c .. 2c + 2; the even cells are phase 0, the odd phase 1
// (no two tiles of a phase share a grain). Unit u has 1 + u % 4 points.
struct Row {
  static constexpr std::uint32_t grains = 40;
  std::vector<std::uint32_t> phase_start, tile_start, unit_start;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> unit_bodies;
  std::vector<bool> is_static = std::vector<bool>(grains + 1, false);
  std::vector<std::uint32_t> tile_phase;

  Row() {
    is_static[grains] = true;
    phase_start = {0};
    tile_start = {0};
    unit_start = {0};
    for (std::uint32_t phase = 0; phase < 2; ++phase) {
      for (std::uint32_t cell = phase; cell < grains / 2; cell += 2) {
        for (std::uint32_t i = 2 * cell; i < 2 * cell + 2; ++i) {
          unit_bodies.emplace_back(i, grains);
          if (i + 1 < grains) unit_bodies.emplace_back(i, i + 1);
        }
        while (unit_start.size() <= unit_bodies.size()) {
          const std::uint32_t u = std::uint32_t(unit_start.size() - 1);
          unit_start.push_back(unit_start.back() + 1 + u % 4);
        }
        tile_start.push_back(std::uint32_t(unit_bodies.size()));
        tile_phase.push_back(phase);
      }
      phase_start.push_back(std::uint32_t(tile_start.size() - 1));
    }
    phase_start.push_back(phase_start.back());  // two phases without tiles, as tiles.h has four
    phase_start.push_back(phase_start.back());
  }
  // Each phase's tiles cut into strips by their points (cut_strips), by phase: rank r's
  // tiles cut[f][r] .. cut[f][r + 1].
  std::vector<std::vector<std::uint32_t>> cut(int ranks) const {
    std::vector<std::vector<std::uint32_t>> cut;
    for (std::size_t f = 0; f + 1 < phase_start.size(); ++f) {
      std::vector<std::uint64_t> tile_points;
      for (std::uint32_t t = phase_start[f]; t < phase_start[f + 1]; ++t)
        tile_points.push_back(unit_start[tile_start[t + 1]] - unit_start[tile_start[t]]);
      cut.push_back(cut_strips(tile_points, ranks));
      for (std::uint32_t& t : cut.back()) t += phase_start[f];
    }
    return cut;
  }
  // Rank r's strips as a schedule of their own, and each grain's other ranks.
  struct Strips {
    std::vector<std::uint32_t> phase_start{0}, tile_start{0};
    std::vector<std::uint32_t> tiles;  // by tile here: the row's
    std::vector<std::pair<std::uint32_t, std::uint32_t>> unit_bodies;
    BodySharers sharers;
  };
  Strips strips(const Ranks& ranks) const {
    const std::vector<std::vector<std::uint32_t>> cuts = cut(ranks.size());
    std::vector<std::vector<std::uint32_t>> phases_of(grains + 1, std::vector<std::uint32_t>(std::size_t(ranks.size()), 0));
    Strips mine;
    for (std::size_t f = 0; f < cuts.size(); ++f) {
      for (int r = 0; r < ranks.size(); ++r)
        for (std::uint32_t t = cuts[f][std::size_t(r)]; t < cuts[f][std::size_t(r) + 1]; ++t) {
          for (std::uint32_t b = 0; b < grains; ++b)
            if (touches(t, b)) phases_of[b][std::size_t(r)] |= 1u << f;
          if (r != ranks.rank()) continue;
          mine.tiles.push_back(t);
          for (std::uint32_t u = tile_start[t]; u < tile_start[t + 1]; ++u) mine.unit_bodies.push_back(unit_bodies[u]);
          mine.tile_start.push_back(std::uint32_t(mine.unit_bodies.size()));
        }
      mine.phase_start.push_back(std::uint32_t(mine.tiles.size()));
    }
    mine.sharers.start.push_back(0);
    for (std::uint32_t b = 0; b <= grains; ++b) {
      if (b < grains && phases_of[b][std::size_t(ranks.rank())])
        for (int r = 0; r < ranks.size(); ++r)
          if (r != ranks.rank() && phases_of[b][std::size_t(r)]) mine.sharers.list.push_back({r, phases_of[b][std::size_t(r)]});
      mine.sharers.start.push_back(std::uint32_t(mine.sharers.list.size()));
    }
    return mine;
  }
  std::uint32_t tiles() const { return std::uint32_t(tile_start.size() - 1); }
  // Whether a unit of tile t moves body b.
  bool touches(std::uint32_t t, std::uint32_t b) const {
    for (std::uint32_t u = tile_start[t]; u < tile_start[t + 1]; ++u)
      if (unit_bodies[u].first == b || unit_bodies[u].second == b) return true;
    return false;
  }
};

// A strip ends at the tile edge nearest its share of the points: a tile goes to the strip that
// holds its middle, not always to the earlier one (which gave rank 0 the most work).
TEST(CutStrips, EachStripEndsAtTheEdgeNearestItsShare) {
  using Cut = std::vector<std::uint32_t>;
  EXPECT_EQ(cut_strips(std::vector<std::uint64_t>{5, 5, 5, 5}, 2), (Cut{0, 2, 4}));
  EXPECT_EQ(cut_strips(std::vector<std::uint64_t>{4, 4, 1, 1}, 2), (Cut{0, 1, 4}));  // 4 | 6, not 8 | 2
  EXPECT_EQ(cut_strips(std::vector<std::uint64_t>{1, 1, 4, 4}, 2), (Cut{0, 3, 4}));  // 6 | 4
  EXPECT_EQ(cut_strips(std::vector<std::uint64_t>{3, 3, 3}, 3), (Cut{0, 1, 2, 3}));
  EXPECT_EQ(cut_strips(std::vector<std::uint64_t>{9}, 3), (Cut{0, 0, 1, 1}));  // the middle rank's
  EXPECT_EQ(cut_strips(std::vector<std::uint64_t>{}, 2), (Cut{0, 0, 0}));
}

// Shares other than even: each strip ends at the tile edge nearest where its rank's share of
// the work ends (a rank's pace, resting_across_ranks.h).
TEST(CutStrips, EachRankGetsItsShareOfTheWork) {
  using Cut = std::vector<std::uint32_t>;
  const std::vector<std::uint64_t> eight(8, 5);
  EXPECT_EQ(cut_strips(eight, std::vector<double>{1, 3}), (Cut{0, 2, 8}));  // 10 | 30
  EXPECT_EQ(cut_strips(eight, std::vector<double>{3, 1}), (Cut{0, 6, 8}));
  EXPECT_EQ(cut_strips(eight, std::vector<double>{0.5, 0.5}), (Cut{0, 4, 8}));  // the units of the shares do not count
  EXPECT_EQ(cut_strips(eight, std::vector<double>{1, 2, 1}), (Cut{0, 2, 6, 8}));
  EXPECT_EQ(cut_strips(std::vector<std::uint64_t>{4, 4, 1, 1}, std::vector<double>{1, 1}), cut_strips(std::vector<std::uint64_t>{4, 4, 1, 1}, 2));
}

TEST(TileShare, EachTileHasOneRankAndEachBodyOneReporter) {
  const Ranks ranks = Ranks::world();
  const Row row;
  const Row::Strips mine = row.strips(ranks);
  const TileShare share(ranks, mine.phase_start, mine.tile_start, mine.unit_bodies, row.is_static, mine.sharers);
  std::vector<std::int64_t> solvers(row.tiles(), 0), reporters(Row::grains, 0);
  // This rank's tiles of a phase: one run of it, about its share of the phase's points.
  for (std::size_t f = 0; f < 4; ++f) {
    EXPECT_EQ(share.tiles(f), mine.phase_start[f + 1] - mine.phase_start[f]);
    EXPECT_LE(share.ready(f), share.tiles(f));
    std::vector<std::uint32_t> listed;
    for (std::uint32_t k = 0; k < share.tiles(f); ++k) listed.push_back(mine.tiles[share.tile(f, k)]);
    std::sort(listed.begin(), listed.end());
    std::uint32_t points = 0, total = 0, widest = 0;
    for (std::uint32_t t = row.phase_start[f]; t < row.phase_start[f + 1]; ++t) {
      const std::uint32_t tile_points = row.unit_start[row.tile_start[t + 1]] - row.unit_start[row.tile_start[t]];
      total += tile_points;
      widest = std::max(widest, tile_points);
      if (std::binary_search(listed.begin(), listed.end(), t)) points += tile_points, ++solvers[t];
    }
    if (!listed.empty()) {
      EXPECT_EQ(listed.back() - listed.front() + 1, listed.size()) << "phase " << f;
      EXPECT_GE(listed.front(), row.phase_start[f]);
      EXPECT_LT(listed.back(), row.phase_start[f + 1]);
    }
    EXPECT_LE(std::abs(double(points) - double(total) / ranks.size()), double(widest)) << "phase " << f;
  }
  for (std::uint32_t b = 0; b < Row::grains; ++b) {
    reporters[b] = share.keeps(b);
    bool touched = false;
    for (std::uint32_t t : mine.tiles) touched = touched || row.touches(t, b);
    EXPECT_TRUE(!share.keeps(b) || touched) << "grain " << b;
  }
  ranks.sum(solvers);
  ranks.sum(reporters);
  for (std::uint32_t t = 0; t < row.tiles(); ++t) EXPECT_EQ(solvers[t], 1) << "tile " << t;
  for (std::uint32_t b = 0; b < Row::grains; ++b) EXPECT_EQ(reporters[b], 1) << "grain " << b;
}

// Each phase, the rank of each tile writes the grains it touches (the velocities, the pass,
// the group impulses of the grains that have them), the next phase's ready tiles first, while
// the last phase's bodies travel: they read what their grains' last tiles wrote already; after
// finish_phase() every rank that holds a grain reads what its tile wrote. On more than one
// rank, some tiles wait for the bodies (a test that sent nothing would pass the rest).
TEST(TileShare, APhasesBodiesReachEveryRankThatHoldsThem) {
  const Ranks ranks = Ranks::world();
  const Row row;
  const Row::Strips mine = row.strips(ranks);
  const TileShare share(ranks, mine.phase_start, mine.tile_start, mine.unit_bodies, row.is_static, mine.sharers);
  std::vector<char> holds(Row::grains + 1, 0);  // a tile here moves it
  for (std::uint32_t t : mine.tiles)
    for (std::uint32_t b = 0; b < Row::grains; ++b) holds[b] = holds[b] || row.touches(t, b);
  constexpr int slots = CoarseLayers::slots;
  std::vector<RigidBody> bodies(Row::grains + 1);
  std::vector<int> moved(Row::grains + 1, -1);
  std::vector<std::uint32_t> place(Row::grains + 1, CoarseLayers::none);
  for (std::uint32_t b = 0; b < Row::grains; b += 2) place[b] = b / 2;  // every other grain has group impulses
  std::vector<GroupImpulse> impulses(Row::grains / 2 * slots);
  auto written = [](std::uint32_t b, std::size_t f) { return Vec3(double(b), double(f), 0.5 * double(b * f)); };
  // The phase whose tile last wrote grain b before phase f (−1: none).
  auto last_written = [&](std::uint32_t b, std::size_t f) {
    int last = -1;
    for (std::size_t g = 0; g < f; ++g)
      for (std::uint32_t t = row.phase_start[g]; t < row.phase_start[g + 1]; ++t)
        if (row.touches(t, b)) last = int(g);
    return last;
  };
  std::int64_t waiting = 0;
  for (std::size_t f = 0; f < 2; ++f) {
    auto write = [&](std::uint32_t t) {
      for (std::uint32_t b = 0; b < Row::grains; ++b)
        if (row.touches(t, b)) {
          if (const int last = last_written(b, f); last >= 0) {
            EXPECT_EQ(bodies[b].velocity, written(b, std::size_t(last))) << "grain " << b << " read in phase " << f;
          }
          bodies[b].velocity = written(b, f);
          bodies[b].angular_velocity = -written(b, f);
          moved[b] = int(f) + 7;
          if (place[b] != CoarseLayers::none) impulses[place[b] * slots + 2].normal_angular = written(b, f);
        }
    };
    const std::uint32_t ready = share.under_way() ? share.ready(f) : share.tiles(f);
    for (std::uint32_t k = 0; k < ready; ++k) write(mine.tiles[share.tile(f, k)]);
    share.finish_phase(bodies, moved);
    for (std::uint32_t k = ready; k < share.tiles(f); ++k) write(mine.tiles[share.tile(f, k)]);
    waiting += share.tiles(f) - ready;
    share.start_phase(f, bodies, moved, &impulses, &place);
  }
  share.finish_phase(bodies, moved);
  EXPECT_FALSE(share.under_way());
  for (std::uint32_t b = 0; b < Row::grains; ++b)
    if (const int last = last_written(b, 2); last >= 0 && holds[b]) {
      EXPECT_EQ(bodies[b].velocity, written(b, std::size_t(last))) << "grain " << b;
      EXPECT_EQ(bodies[b].angular_velocity, -written(b, std::size_t(last))) << "grain " << b;
      EXPECT_EQ(moved[b], last + 7) << "grain " << b;
      if (place[b] != CoarseLayers::none) {
        EXPECT_EQ(impulses[place[b] * slots + 2].normal_angular, written(b, std::size_t(last))) << "grain " << b;
      }
    }
  ranks.sum(std::span<std::int64_t>(&waiting, 1));
  if (ranks.size() > 1) {
    EXPECT_GT(waiting, 0);
  }
}

// A column of 12 grains on a floor and its coarse step from uneven impulses: the scales, the
// grains' new velocities and the booked work the same bits on every rank as one process, with
// each rank adding the grains it keeps and the units it solved.
TEST(TileShare, ACoarseStepSharedByRanksGivesOneProcessBits) {
  const Ranks ranks = Ranks::world();
  constexpr std::uint32_t n = 12;
  constexpr int slots = CoarseLayers::slots;
  std::vector<bool> is_static(n + 1, false);
  is_static[n] = true;
  std::vector<CoarseUnit> units{{0, n, true}};
  for (std::uint32_t k = 1; k < n; ++k) units.push_back({k, k - 1, false});
  const CoarseLayers layers = coarse_layers(units, is_static);
  std::vector<RigidBody> bodies(n + 1);
  std::vector<Mat3> inverse_inertia(n + 1, Mat3::Zero());
  std::vector<GroupImpulse> impulses(n * slots);
  std::vector<double> reached(n);
  for (std::uint32_t k = 0; k < n; ++k) {
    bodies[k].inverse_mass = 1 / (0.01 + 0.003 * k);
    bodies[k].velocity = Vec3(0.001 * k, -0.002, -9.81e-3 * (1 + 0.1 * k));
    bodies[k].angular_velocity = Vec3(0.01, 0.02 * k, -0.003);
    inverse_inertia[k] = (1e3 + 10.0 * k) * Mat3::Identity();
    reached[k] = -1e-6 * (k + 1);
    for (int s = 0; s < slots && layers.grain_groups[k * slots + std::size_t(s)] >= 0; ++s) {
      GroupImpulse& x = impulses[k * slots + std::size_t(s)];
      x.linear = Vec3(1e-5 * s, 2e-6 * k, (s == 0 ? 1 : -1) * 1e-4 * (1 + 0.07 * k));
      x.angular = Vec3(3e-7 * k, -1e-7 * s, 2e-8);
      x.normal_linear = Vec3(0, 0, x.linear.z());
      x.normal_angular = 0.5 * x.angular;
    }
  }
  std::vector<RigidBody> alone = bodies;
  std::vector<GroupImpulse> alone_impulses = impulses;
  const std::vector<double> scales = coarse_scales(layers, alone_impulses, alone, inverse_inertia, reached);
  std::vector<VelocityChange> changes(layers.grains.size());
  const ContactWork work = move_grains(layers, scales, alone_impulses, alone, inverse_inertia, changes);

  // Grain k kept by rank k % R; unit u solved by rank (u + 1) % R (the others' reached terms
  // are none here).
  const std::size_t r = std::size_t(ranks.rank()), size = std::size_t(ranks.size());
  CoarseShare share{ranks, {}, coarse_entries(layers)};
  for (std::uint32_t i = 0; i < layers.grains.size(); ++i) share.keeps.push_back(layers.grains[i] % size == r);
  std::vector<double> reached_here = reached;
  for (std::size_t u = 0; u < units.size(); ++u)
    if ((u + 1) % size != r) reached_here[u] = 0;
  const std::vector<double> shared_scales = coarse_scales(layers, impulses, bodies, inverse_inertia, reached_here, &share);
  EXPECT_EQ(shared_scales, scales);
  std::vector<VelocityChange> shared_changes(layers.grains.size());
  const ContactWork shared_work = move_grains(layers, shared_scales, impulses, bodies, inverse_inertia, shared_changes, &share);
  EXPECT_EQ(shared_work.normal, work.normal);
  EXPECT_EQ(shared_work.friction, work.friction);
  EXPECT_NE(work.normal, 0.0);
  for (std::uint32_t i = 0; i < layers.grains.size(); ++i) {
    EXPECT_EQ(bodies[layers.grains[i]].velocity, alone[layers.grains[i]].velocity) << "grain " << layers.grains[i];
    EXPECT_EQ(bodies[layers.grains[i]].angular_velocity, alone[layers.grains[i]].angular_velocity) << "grain " << layers.grains[i];
  }
}

}  // namespace
}  // namespace scree::solver
