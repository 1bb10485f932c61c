// Collisions when ranks share the grains (solver/ranks/collisions_across_ranks.h), on 1, 2, 3
// and 4 ranks: every grain's velocities after a sweep's collisions, and the books, bit for bit
// as one process resolves them, for a row of balls whose one island crosses every seam at up
// to 30 m/s and a cloud of balls striking each other and a moving floor; on a grid of regions
// cut across the row and on regions cut by bisection; and with islands handed by pace.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "solver/ranks/collisions_across_ranks.h"

namespace scree::solver {
namespace {

constexpr double dt = 1e-4, margin = 1e-6, radius = 0.05;

// A row of 12 balls along x, each touching the next, the first at 30 m/s and each after it
// 2.5 m/s slower (every pair closing: one island); and 200 balls in a 2 × 1 × 0.5 m box at up
// to 5 m/s, some on the floor, which moves at 0.1 m/s. Ids 1000, 1003, … in a shuffled order.
World everything() {
  World w;
  w.shapes.push_back(GrainShape::sphere(radius));
  w.laws = {ContactLaw{0.5, 0.5}};
  std::mt19937_64 random(17);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<std::uint64_t> ids;
  for (std::uint64_t k = 0; k < 212; ++k) ids.push_back(1000 + 3 * k);
  std::shuffle(ids.begin(), ids.end(), random);
  std::vector<Grain> grains;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    Grain g{ids[k], 0, 0, 1, RigidBody::from_template(2650, 4.18879e-3 / 8, Vec3::Constant(1e-3), 1)};
    if (k < 12) {
      g.body.position = Vec3(0.05 + 0.1 * double(k), 0.5, 1.0);
      g.body.velocity = Vec3(30 - 2.5 * double(k), 0, 0);
    } else {
      g.body.position = Vec3(2 * unit(random), unit(random), k % 5 == 0 ? radius : 0.4 * unit(random) + radius);
      g.body.velocity = Vec3(5 * unit(random) - 2.5, 5 * unit(random) - 2.5, 5 * unit(random) - 2.5);
      g.body.angular_velocity = Vec3(unit(random), unit(random), unit(random));
    }
    grains.push_back(g);
  }
  std::sort(grains.begin(), grains.end(), [](const Grain& x, const Grain& y) { return x.id < y.id; });
  w.replace_grains(grains);
  Wall floor;
  floor.velocity = Vec3(0.1, 0, 0);
  w.add_wall(floor);
  return w;
}

std::vector<Contact> colliding_of(const FoundContacts& found, std::vector<RigidBody>& posed) {
  std::vector<Contact> colliding;
  const double resting_speed = 3 * 9.81 * dt;
  for (const Contact& c : found.contacts)
    if (c.normal.dot(contact_point(posed, c).relative_velocity()) < -resting_speed) colliding.push_back(c);
  return colliding;
}

std::vector<bool> statics(const World& w) {
  std::vector<bool> is_static(w.bodies.size(), false);
  std::fill(is_static.begin() + std::ptrdiff_t(w.grain_count()), is_static.end(), true);
  return is_static;
}

struct Books {
  EnergyBooks energy;
  StepReport report;
};

Books books_of(const CollisionTotals& totals, std::size_t walls) {
  Books b;
  b.report.wall_impulse.assign(walls, Vec3::Zero());
  World w;
  totals.book(w, b.report);
  b.energy = w.energy;
  return b;
}

void expect_resolved_as_one_process(const Decomposition& regions, const Ranks& ranks, CollisionPace* pace = nullptr) {
  const World whole = everything();
  std::vector<RigidBody> posed_whole = whole.bodies;
  const std::vector<Contact> colliding_whole = colliding_of(find_contacts(whole, posed_whole, dt, margin), posed_whole);
  EXPECT_GT(colliding_whole.size(), 40u);
  std::vector<CollidingContact> contacts;
  for (const Contact& c : colliding_whole)
    contacts.push_back({{c.a, c.b, c.point, c.normal, 0.5, 0.5}, c.wall});
  const Books expected =
      books_of(resolve_collision_islands(posed_whole, contacts, statics(whole), whole.walls, {}), whole.walls.size());

  World mine = everything();
  std::vector<Grain> first;
  for (std::size_t i = std::size_t(ranks.rank()); i < whole.grain_count(); i += std::size_t(ranks.size()))
    first.push_back(whole.grain(std::uint32_t(i)));
  mine.replace_grains(first);
  std::vector<char> owned(mine.grain_count(), 1);
  const Halo halo = share_grains(mine, owned, regions, 4 * radius + 0.01, ranks);
  std::vector<RigidBody> posed = mine.bodies;
  const SearchShare share{regions, ranks.rank(), owned};
  const std::vector<Contact> colliding =
      colliding_of(find_contacts(mine, posed, dt, margin, nullptr, 0, nullptr, nullptr, &share), posed);
  const Books got = books_of(resolve_collisions_across_ranks(mine, posed, colliding, statics(mine), owned, halo, ranks, {}, pace),
                             mine.walls.size());

  std::map<std::uint64_t, std::uint32_t> whole_index;
  for (std::uint32_t i = 0; i < whole.grain_count(); ++i) whole_index[whole.id[i]] = i;
  for (std::uint32_t i = 0; i < mine.grain_count(); ++i) {
    const RigidBody& expected_body = posed_whole[whole_index.at(mine.id[i])];
    EXPECT_EQ(posed[i].velocity, expected_body.velocity) << "grain " << mine.id[i];
    EXPECT_EQ(posed[i].angular_velocity, expected_body.angular_velocity) << "grain " << mine.id[i];
  }
  EXPECT_EQ(got.energy.restitution, expected.energy.restitution);
  EXPECT_EQ(got.energy.friction, expected.energy.friction);
  EXPECT_EQ(got.energy.wall_work, expected.energy.wall_work);
  EXPECT_NE(got.energy.wall_work, 0.0);
  EXPECT_EQ(got.report.wall_impulse, expected.report.wall_impulse);
  EXPECT_EQ(got.report.islands, expected.report.islands);
  EXPECT_EQ(got.report.increments, expected.report.increments);
  EXPECT_EQ(got.report.stored_peak, expected.report.stored_peak);
}

TEST(CollisionsAcrossRanks, ARowAcrossEverySeamAndACloudResolveAsOnOneProcess) {
  const Ranks ranks = Ranks::world();
  const Box bounds(Vec3(0, 0, 0), Vec3(2, 1, 1.5));
  expect_resolved_as_one_process(Decomposition::cartesian(bounds, {ranks.size(), 1, 1}), ranks);
  std::vector<Vec3> places;
  const World whole = everything();
  for (std::uint32_t i = 0; i < whole.grain_count(); ++i) places.push_back(whole.bodies[i].position);
  expect_resolved_as_one_process(
      Decomposition::bisection(places, std::vector<std::int64_t>(places.size(), 1), ranks.size()), ranks);
}

// Islands handed by pace (CollisionPace): rank 0 a thousand times slower an increment than the
// others hands islands it would resolve in place to them, the last rank's pace not yet known
// (taken as the mean of the others'); every grain and book the same bits. Each rank's pace then
// holds what it measured.
TEST(CollisionsAcrossRanks, IslandsHandedByPaceResolveAsOnOneProcess) {
  const Ranks ranks = Ranks::world();
  std::vector<Vec3> places;
  const World whole = everything();
  for (std::uint32_t i = 0; i < whole.grain_count(); ++i) places.push_back(whole.bodies[i].position);
  CollisionPace pace;
  pace.seconds_an_increment = ranks.rank() == 0 ? 1e-3 : ranks.rank() + 1 == ranks.size() ? 0 : 1e-6;
  const double before = pace.seconds_an_increment;
  expect_resolved_as_one_process(
      Decomposition::bisection(places, std::vector<std::int64_t>(places.size(), 1), ranks.size()), ranks, &pace);
  if (ranks.size() > 1) {
    EXPECT_EQ(pace.islands_handed > 0, ranks.rank() == 0);
  }
  EXPECT_GT(pace.seconds_an_increment, 0);
  EXPECT_NE(pace.seconds_an_increment, before);
}

// Islands handed by work where ranks share cores (CollisionPace::timed false): their times
// measure their turns on the cores, so every pace is taken alike, even where none is known yet or
// rank 0's reads a thousand times slower. Rank 0's region holds every grain (a grid whose first
// column is wider than the cloud), so it is expected to resolve every island and hands some to
// the others by their expected increments; every grain and book the same bits.
TEST(CollisionsAcrossRanks, IslandsHandedByWorkWhereRanksShareCores) {
  const Ranks ranks = Ranks::world();
  const Box bounds(Vec3(0, 0, 0), Vec3(4.0 * ranks.size(), 1, 1.5));
  for (const double rank_0 : {0.0, 1e-3}) {
    CollisionPace pace;
    pace.timed = false;
    pace.seconds_an_increment = ranks.rank() == 0 ? rank_0 : rank_0 / 1000;
    expect_resolved_as_one_process(Decomposition::cartesian(bounds, {ranks.size(), 1, 1}), ranks, &pace);
    EXPECT_EQ(pace.islands_handed > 0, ranks.rank() == 0 && ranks.size() > 1);
    EXPECT_EQ(pace.seconds_an_increment, ranks.rank() == 0 ? rank_0 : rank_0 / 1000) << "not timed: left as it was";
  }
}

}  // namespace
}  // namespace scree::solver
