#include "solver/world.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "solver/exact_sum.h"

namespace scree::solver {

std::uint32_t World::add_grain(std::uint64_t grain_id, std::uint32_t shape_index, std::uint32_t material_index,
                               double density, double grain_scale, const Vec3& position, const Quat& orientation) {
  const GrainShape& s = shapes.at(shape_index);
  RigidBody b = RigidBody::from_template(density, s.volume, s.inertia_per_density, grain_scale);
  b.position = position;
  b.orientation = orientation;
  const std::uint32_t index = std::uint32_t(id.size());
  id.push_back(grain_id);
  shape.push_back(shape_index);
  material.push_back(material_index);
  scale.push_back(grain_scale);
  bodies.insert(bodies.begin() + index, b);
  // The static bodies after it move up by one, and so do the resting contacts that name them.
  if (bodies.size() > id.size()) {
    std::vector<RestingImpulses::Entry> moved;
    for (const auto& [key, impulse] : resting_impulses)
      moved.push_back({RestingKey{key.a, key.b >= index ? key.b + 1 : key.b, key.plane, key.node}, impulse});
    resting_impulses = RestingImpulses(std::move(moved));
  }
  return index;
}

void World::replace_grains(std::vector<Grain> grains) {
  for (std::size_t k = 1; k < grains.size(); ++k)
    if (!(grains[k - 1].id < grains[k].id)) throw std::invalid_argument("replace_grains: grains not in ascending ids");
  // Each old body's new index (none: gone); grains kept keep their order, as both lists
  // ascend by id, and the static bodies keep theirs after the grains.
  constexpr std::uint32_t none = ~std::uint32_t(0);
  const std::size_t old_grains = grain_count();
  std::vector<std::uint32_t> new_index(bodies.size(), none);
  for (std::size_t i = 0, k = 0; i < old_grains && k < grains.size();) {
    if (id[i] < grains[k].id) ++i;
    else if (grains[k].id < id[i]) ++k;
    else new_index[i++] = std::uint32_t(k++);
  }
  for (std::size_t b = old_grains; b < bodies.size(); ++b) new_index[b] = std::uint32_t(grains.size() + (b - old_grains));

  std::vector<RigidBody> new_bodies;
  new_bodies.reserve(grains.size() + bodies.size() - old_grains);
  id.clear();
  shape.clear();
  material.clear();
  scale.clear();
  for (Grain& g : grains) {
    id.push_back(g.id);
    shape.push_back(g.shape);
    material.push_back(g.material);
    scale.push_back(g.scale);
    new_bodies.push_back(g.body);
  }
  new_bodies.insert(new_bodies.end(), bodies.begin() + std::ptrdiff_t(old_grains), bodies.end());
  bodies = std::move(new_bodies);

  std::vector<RestingImpulses::Entry> kept;
  for (const auto& [key, impulse] : resting_impulses)
    if (new_index[key.a] != none && new_index[key.b] != none)
      kept.push_back({RestingKey{new_index[key.a], new_index[key.b], key.plane, key.node}, impulse});
  resting_impulses = RestingImpulses(std::move(kept));
  // What the contact cache keeps goes into arrays of its size: grown by doubling, they would
  // stand beside the next search's at a rank's peak (docs/benchmarks.md, "Arrays at their
  // size").
  const auto kept_pair = [&](std::uint64_t pair) { return new_index[pair >> 32] != none && new_index[pair & 0xffffffffu] != none; };
  NearNodeCache near;
  const auto kept_pairs = std::size_t(std::count_if(near_nodes.pairs.begin(), near_nodes.pairs.end(), kept_pair));
  near.pairs.reserve(kept_pairs);
  near.near.reserve(kept_pairs);
  for (std::size_t p = 0; p < near_nodes.pairs.size(); ++p) {
    if (!kept_pair(near_nodes.pairs[p])) continue;
    const std::uint32_t first = new_index[near_nodes.pairs[p] >> 32], second = new_index[near_nodes.pairs[p] & 0xffffffffu];
    near.pairs.push_back(std::uint64_t(first) << 32 | second);
    near.near.push_back(std::move(near_nodes.near[p]));
  }
  if (!near_nodes.terrain.empty()) {
    near.terrain.resize(grains.size());
    for (std::size_t i = 0; i < near_nodes.terrain.size() && i < old_grains; ++i)
      if (new_index[i] != none) near.terrain[new_index[i]] = std::move(near_nodes.terrain[i]);
  }
  near_nodes = std::move(near);
  neighbours = NeighbourList();
}

void Wall::place(double t) {
  point = point_at_zero + velocity * t;
  min = min_at_zero + velocity * t;
  max = max_at_zero + velocity * t;
}

void World::add_wall(const Wall& at_zero) {
  if (terrain) throw std::logic_error("add walls before the terrain");
  Wall& wall = walls.emplace_back(at_zero);
  wall.point_at_zero = at_zero.point;
  wall.min_at_zero = at_zero.min;
  wall.max_at_zero = at_zero.max;
  wall.place(time);
  RigidBody b = RigidBody::fixed();
  b.velocity = wall.velocity;
  b.position = wall.shape == WallShape::plane ? wall.point : 0.5 * (wall.min + wall.max);
  bodies.push_back(b);
}

void World::set_terrain(std::shared_ptr<const TerrainField> field, std::uint32_t material_index) {
  if (terrain) throw std::logic_error("a world has one terrain");
  terrain = std::move(field);
  terrain_material = material_index;
  bodies.push_back(RigidBody::fixed());
}

std::uint32_t World::body_material(std::uint32_t body) const {
  if (body < grain_count()) return material[body];
  const std::int64_t wall = wall_of_body(body);
  return wall >= 0 ? walls[std::size_t(wall)].material : terrain_material;
}

// Summed exactly, so that ranks holding some of the grains each add up to the same total
// (docs/parallel.md, "The same bits").
ExactSum kinetic_energy_part(const World& world, const std::vector<char>* owned) {
  ExactSum sum;
  for (std::size_t i = 0; i < world.grain_count(); ++i)
    if (!owned || (*owned)[i]) sum += world.bodies[i].kinetic_energy();
  return sum;
}

ExactSum potential_energy_part(const World& world, const Vec3& gravity, const std::vector<char>* owned) {
  ExactSum sum;
  for (std::size_t i = 0; i < world.grain_count(); ++i) {
    if (owned && !(*owned)[i]) continue;
    const RigidBody& b = world.bodies[i];
    sum -= gravity.dot(b.position) / b.inverse_mass;
  }
  return sum;
}

double kinetic_energy(const World& world) { return kinetic_energy_part(world, nullptr).value(); }

double potential_energy(const World& world, const Vec3& gravity) { return potential_energy_part(world, gravity, nullptr).value(); }

double courant_number(const World& world, double dt, const Vec3& kick) {
  double largest = 0;
  for (std::size_t i = 0; i < world.grain_count(); ++i) {
    const GrainShape& s = world.shapes[world.shape[i]];
    const RigidBody& b = world.bodies[i];
    const double reach = ((b.velocity + kick).norm() + b.angular_velocity.norm() * s.bounding_radius * world.scale[i]) * dt;
    largest = std::max(largest, reach / (s.smallest_half_extent * world.scale[i]));
  }
  return largest;
}

double courant_time_step(const World& world, const Vec3& gravity, double courant_limit, double max_step) {
  double step = max_step;
  for (std::size_t i = 0; i < world.grain_count(); ++i) {
    const GrainShape& s = world.shapes[world.shape[i]];
    const RigidBody& b = world.bodies[i];
    const double speed = b.velocity.norm() + gravity.norm() * max_step +
                         b.angular_velocity.norm() * s.bounding_radius * world.scale[i];
    if (speed > 0) step = std::min(step, courant_limit * s.smallest_half_extent * world.scale[i] / speed);
  }
  return step;
}

}  // namespace scree::solver
