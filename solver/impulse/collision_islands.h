#pragma once
// A sweep's collisions resolved island by island (docs/theory.md, "Collisions"): the contacts
// that approach faster than the resting speed, joined into islands through the grains they
// share (walls and the terrain join nothing), each island resolved alone by the energy
// tracking method (energy_tracking.h), side by side on the threads; what they lose summed
// exactly, so that islands resolved on several ranks add up the same (docs/parallel.md).
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "solver/contacts/contact_finding.h"
#include "solver/exact_sum.h"
#include "solver/impulse/energy_tracking.h"
#include "solver/step.h"
#include "solver/wall_books.h"
#include "solver/world.h"

namespace scree::solver {

class Ranks;

// A colliding contact as the islands take it: its collision and the wall B is (−1: a grain or
// the terrain), for the walls' books.
struct CollidingContact {
  Collision collision;
  std::int32_t wall;
};

// A contact the search found (`world`'s bodies), with the law of its two materials.
CollidingContact colliding_contact(const World& world, const Contact& contact);

// Islands resolved and the increments they took, by size (contacts): what an island is
// expected to take before it is resolved. An island's increments per contact grow with its
// size (on the dc7 dense flow 91 for one contact, 145 for three, 200-250 from eight on,
// docs/benchmarks.md, "Collisions weighed by their islands' sizes").
struct IslandIncrements {
  // Sizes 1 .. sizes − 1 each a class of their own; the last holds every larger island, counted
  // by its contacts.
  static constexpr std::size_t sizes = 16;
  std::array<std::int64_t, sizes> islands{}, increments{};

  void add(std::size_t contacts, std::int64_t island_increments);
  IslandIncrements& operator+=(const IslandIncrements& other);
  // The mean increments of the islands of this size so far; of the islands of every size per
  // contact where none was that size; `contacts` where none is known.
  double expected(std::size_t contacts) const;
};

// What a sweep's islands add to the step's books and report.
struct CollisionTotals {
  explicit CollisionTotals(std::size_t walls) : walls(walls) {}
  ExactSum restitution, friction;
  WallBooks walls;
  std::int64_t islands = 0, increments = 0;
  double stored_peak = 0;
  IslandIncrements by_size;

  // Another set of islands' totals added to these.
  CollisionTotals& operator+=(const CollisionTotals& other);
  // The totals of every rank's islands, on every rank.
  void sum_across(const Ranks& ranks);
  // Into the world's books and the step's report.
  void book(World& world, StepReport& report) const;
};

// Resolves `contacts` (in the order one process finds them) island by island on `bodies`,
// `is_static` by body; the walls' velocities from `walls`.
CollisionTotals resolve_collision_islands(std::vector<RigidBody>& bodies, std::span<const CollidingContact> contacts,
                                          const std::vector<bool>& is_static, const std::vector<Wall>& walls,
                                          const EnergyTrackingSettings& settings);

}  // namespace scree::solver
