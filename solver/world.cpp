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
double kinetic_energy(const World& world) {
  ExactSum sum;
  for (std::size_t i = 0; i < world.grain_count(); ++i) sum += world.bodies[i].kinetic_energy();
  return sum.value();
}

double potential_energy(const World& world, const Vec3& gravity) {
  ExactSum sum;
  for (std::size_t i = 0; i < world.grain_count(); ++i) {
    const RigidBody& b = world.bodies[i];
    sum -= gravity.dot(b.position) / b.inverse_mass;
  }
  return sum.value();
}

double courant_number(const World& world, double dt) {
  double largest = 0;
  for (std::size_t i = 0; i < world.grain_count(); ++i) {
    const GrainShape& s = world.shapes[world.shape[i]];
    const RigidBody& b = world.bodies[i];
    const double reach = (b.velocity.norm() + b.angular_velocity.norm() * s.bounding_radius * world.scale[i]) * dt;
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
