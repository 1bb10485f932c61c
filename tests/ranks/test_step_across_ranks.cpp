// The step shared among ranks (advance() with a RankShare, solver/ranks/rank_share.h), on 1,
// 2, 3 and 4 ranks: a stack of level-set boxes on a floor struck from above at 30 m/s where
// the regions meet, and a box flying across the regions at 30 m/s (handed from rank to rank on
// its way): every step's report and books, and every grain at the end, bit for bit as one
// process steps them, on regions cut by bisection and on a grid.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "ranks/box_stack.h"
#include "solver/impulse/tiles.h"
#include "solver/ranks/rank_share.h"
#include "solver/step.h"

namespace scree::solver {
namespace {

constexpr int steps = 30;

World struck_stack() {
  World w = stack();
  w.laws = {ContactLaw{0.5, 0.3}};
  const Quat tilted = (Quat(Eigen::AngleAxisd(0.3, Vec3(1, 2, 0).normalized())) * w.bodies[0].orientation).normalized();
  w.add_grain(9000, 0, 0, 2650, 1, Vec3(1.4, 0.75, 0.94), tilted);       // falls onto the stack's middle
  w.add_grain(9001, 0, 0, 2650, 1, Vec3(1.25, 0.8, 1.4), tilted);        // flies across it
  w.bodies[w.grain_count() - 2].velocity = Vec3(0, 0, -30);
  w.bodies[w.grain_count() - 1].velocity = Vec3(30, 0, 0);
  return w;
}

StepSettings settings() {
  StepSettings s;
  s.time_step = 2e-4;
  return s;
}

void expect_same_report(const StepReport& got, const StepReport& expected, int step) {
  EXPECT_EQ(got.contacts, expected.contacts) << "step " << step;
  EXPECT_EQ(got.islands, expected.islands) << "step " << step;
  EXPECT_EQ(got.increments, expected.increments) << "step " << step;
  EXPECT_EQ(got.sweeps, expected.sweeps) << "step " << step;
  EXPECT_EQ(got.passes, expected.passes) << "step " << step;
  EXPECT_EQ(got.stored_peak, expected.stored_peak) << "step " << step;
  EXPECT_EQ(got.courant, expected.courant) << "step " << step;
  EXPECT_EQ(got.wall_impulse, expected.wall_impulse) << "step " << step;
}

// With `recut_above`, the regions are cut anew when uneven (RankShare::keep_up).
void expect_steps_as_one_process(const Decomposition& regions, const Ranks& ranks, double recut_above = 0) {
  World whole = struck_stack();
  std::vector<StepReport> expected;
  for (int k = 0; k < steps; ++k) expected.push_back(advance(whole, settings()));
  EXPECT_GT(expected[5].islands, 0u);   // the stack struck
  EXPECT_GT(expected[5].passes, 3);     // and resting

  World mine = struck_stack();
  RankShare share;
  share.ranks = ranks;
  share.regions = regions;
  share.reach = largest_reach(mine.shapes[0].bounding_radius, 1e-3);
  share.skin = 0.5 * mine.shapes[0].bounding_radius;
  share.recut_above = recut_above;
  share.owned.resize(mine.grain_count());
  for (std::size_t i = 0; i < mine.grain_count(); ++i) share.owned[i] = regions.owner(mine.bodies[i].position) == ranks.rank();
  share.hand_over(mine);
  for (int k = 0; k < steps; ++k) expect_same_report(advance(mine, settings(), &share), expected[std::size_t(k)], k);
  EXPECT_GE(share.hand_overs, 2);  // the first, and the flying box's
  EXPECT_EQ(mine.time, whole.time);
  EXPECT_EQ(mine.energy.restitution, whole.energy.restitution);
  EXPECT_EQ(mine.energy.friction, whole.energy.friction);
  EXPECT_EQ(mine.energy.resting, whole.energy.resting);
  EXPECT_EQ(mine.energy.damping, whole.energy.damping);
  EXPECT_EQ(mine.energy.wall_work, whole.energy.wall_work);
  EXPECT_EQ(mine.energy.integration, whole.energy.integration);
  std::map<std::uint64_t, std::uint32_t> index;
  for (std::uint32_t i = 0; i < whole.grain_count(); ++i) index[whole.id[i]] = i;
  std::vector<std::int64_t> owned_count{0};
  for (std::uint32_t i = 0; i < mine.grain_count(); ++i) {
    const RigidBody& b = mine.bodies[i];
    const RigidBody& expected_body = whole.bodies[index.at(mine.id[i])];
    EXPECT_EQ(b.position, expected_body.position) << "grain " << mine.id[i];
    EXPECT_EQ(b.orientation.coeffs(), expected_body.orientation.coeffs()) << "grain " << mine.id[i];
    EXPECT_EQ(b.velocity, expected_body.velocity) << "grain " << mine.id[i];
    EXPECT_EQ(b.angular_velocity, expected_body.angular_velocity) << "grain " << mine.id[i];
    owned_count[0] += share.owned[i];
  }
  ranks.sum(owned_count);
  EXPECT_EQ(owned_count[0], std::int64_t(whole.grain_count()));
  if (recut_above > 0 && ranks.size() > 1) {
    EXPECT_GE(share.recuts, 1);
    // Each rank then owns about its share of the grains.
    const std::int64_t mine_count = std::count(share.owned.begin(), share.owned.end(), 1);
    EXPECT_GE(double(mine_count), 0.5 * double(whole.grain_count()) / ranks.size());
  }
}

TEST(StepAcrossRanks, AStruckStackAndAFlyingBoxStepAsOnOneProcess) {
  const Ranks ranks = Ranks::world();
  std::vector<Vec3> places;
  const World start = struck_stack();
  for (std::uint32_t i = 0; i < start.grain_count(); ++i) places.push_back(start.bodies[i].position);
  {
    SCOPED_TRACE("bisection");
    expect_steps_as_one_process(
        Decomposition::bisection(places, std::vector<std::int64_t>(places.size(), 1), ranks.size()), ranks);
  }
  {
    // Every grain in the first region of two along x: cut anew after the first step.
    SCOPED_TRACE("lopsided, cut anew");
    expect_steps_as_one_process(
        Decomposition::cartesian(Box(Vec3(-0.2, -0.2, 0), Vec3(30, 1.8, 1.6)), {ranks.size(), 1, 1}), ranks, 1.2);
  }
  {
    SCOPED_TRACE("grid");
    expect_steps_as_one_process(
        Decomposition::cartesian(Box(Vec3(-0.2, -0.2, 0), Vec3(3, 1.8, 1.6)), {1, ranks.size(), 1}), ranks);
  }
}

}  // namespace
}  // namespace scree::solver
