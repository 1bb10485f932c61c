#include "solver/impulse/collision_islands.h"

#include <algorithm>
#include <array>

#include "solver/contacts/islands.h"
#include "solver/parallel_loops.h"
#include "solver/ranks/communicator.h"

namespace scree::solver {

CollidingContact colliding_contact(const World& world, const Contact& contact) {
  const ContactLaw& law = world.law(world.material[contact.a], world.body_material(contact.b));
  return {{contact.a, contact.b, contact.point, contact.normal, law.friction, law.restitution}, contact.wall};
}

void IslandIncrements::add(std::size_t contacts, std::int64_t island_increments) {
  const std::size_t k = std::min(contacts, sizes) - 1;
  islands[k] += k + 1 < sizes ? 1 : std::int64_t(contacts);
  increments[k] += island_increments;
}

IslandIncrements& IslandIncrements::operator+=(const IslandIncrements& other) {
  for (std::size_t k = 0; k < sizes; ++k) islands[k] += other.islands[k], increments[k] += other.increments[k];
  return *this;
}

double IslandIncrements::expected(std::size_t contacts) const {
  const std::size_t k = std::min(contacts, sizes) - 1;
  if (islands[k] > 0) return double(increments[k]) / double(islands[k]) * (k + 1 < sizes ? 1.0 : double(contacts));
  std::int64_t all_contacts = 0, all_increments = 0;
  for (std::size_t j = 0; j < sizes; ++j)
    all_contacts += j + 1 < sizes ? std::int64_t(j + 1) * islands[j] : islands[j], all_increments += increments[j];
  return all_contacts > 0 ? double(all_increments) / double(all_contacts) * double(contacts) : double(contacts);
}

CollisionTotals& CollisionTotals::operator+=(const CollisionTotals& other) {
  restitution += other.restitution;
  friction += other.friction;
  walls += other.walls;
  islands += other.islands;
  increments += other.increments;
  stored_peak = std::max(stored_peak, other.stored_peak);
  by_size += other.by_size;
  return *this;
}

void CollisionTotals::sum_across(const Ranks& ranks) {
  std::array<ExactSum, 2> losses{restitution, friction};
  ranks.sum(losses);
  restitution = losses[0];
  friction = losses[1];
  walls.sum_across(ranks);
  // The counts and the islands by size in one reduction.
  std::array<std::int64_t, 2 + 2 * IslandIncrements::sizes> counts{islands, increments};
  std::copy(by_size.islands.begin(), by_size.islands.end(), counts.begin() + 2);
  std::copy(by_size.increments.begin(), by_size.increments.end(), counts.begin() + 2 + IslandIncrements::sizes);
  ranks.sum(counts);
  islands = counts[0];
  increments = counts[1];
  std::copy_n(counts.begin() + 2, IslandIncrements::sizes, by_size.islands.begin());
  std::copy_n(counts.begin() + 2 + IslandIncrements::sizes, IslandIncrements::sizes, by_size.increments.begin());
  stored_peak = ranks.max(stored_peak);
}

void CollisionTotals::book(World& world, StepReport& report) const {
  report.islands += std::size_t(islands);
  report.increments += increments;
  report.stored_peak = std::max(report.stored_peak, stored_peak);
  if (islands == 0) return;
  world.energy.restitution += restitution.value();
  world.energy.friction += friction.value();
  walls.book(world.energy, report.wall_impulse);
}

CollisionTotals resolve_collision_islands(std::vector<RigidBody>& bodies, std::span<const CollidingContact> contacts,
                                          const std::vector<bool>& is_static, const std::vector<Wall>& walls,
                                          const EnergyTrackingSettings& settings) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (const CollidingContact& c : contacts) pairs.emplace_back(c.collision.a, c.collision.b);
  // Islands share no moving body, so they are resolved side by side, each as alone.
  const std::vector<Island> islands = contact_islands(pairs, is_static);
  std::vector<CollisionBooks> island_books(islands.size());
#pragma omp parallel for schedule(dynamic) if (islands.size() > 1 && contacts.size() >= smallest_parallel_loop)
  for (std::size_t k = 0; k < islands.size(); ++k) {
    std::vector<Collision> collisions;
    for (std::uint32_t c : islands[k].contacts) collisions.push_back(contacts[c].collision);
    island_books[k] = resolve_collisions(bodies, collisions, settings);
  }
  CollisionTotals totals(walls.size());
  for (std::size_t i = 0; i < islands.size(); ++i) {
    const CollisionBooks& books = island_books[i];
    ++totals.islands;
    totals.increments += books.increments;
    totals.by_size.add(islands[i].contacts.size(), books.increments);
    totals.stored_peak = std::max(totals.stored_peak, books.stored_peak);
    totals.restitution += books.restitution_loss;
    totals.friction += books.friction_loss;
    for (std::size_t k = 0; k < islands[i].contacts.size(); ++k) {
      const CollidingContact& c = contacts[islands[i].contacts[k]];
      if (c.wall >= 0) totals.walls.add(std::size_t(c.wall), walls[std::size_t(c.wall)].velocity, books.impulses[k]);
    }
  }
  return totals;
}

}  // namespace scree::solver
