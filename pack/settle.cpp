#include "pack/settle.h"

#include <algorithm>

#include "solver/simulation.h"

namespace scree::pack {

namespace {
constexpr double settling_damping = 5;  // ξ, 1/s
}  // namespace

SettleResult settle_assembly(formats::Case setup, const formats::State& packed, const Eigen::AlignedBox3d& hold,
                             double duration, const std::function<void(double, double)>& progress) {
  formats::Wall box;
  box.name = "settling_box";
  box.type = formats::WallType::box;
  box.min = {hold.min().x(), hold.min().y(), hold.min().z()};
  box.max = {hold.max().x(), hold.max().y(), hold.max().z()};
  box.material = setup.terrain ? setup.terrain->material : setup.materials.at(0).name;
  setup.walls.push_back(box);
  setup.time.duration = duration;
  // Global damping brings the heap to rest within about a second of slumping; the run
  // itself starts undamped (or with the case's own damping) from where it came to.
  setup.global_damping = std::max(setup.global_damping, settling_damping);
  if (setup.global_damping * setup.time.step >= 1) setup.global_damping = 0.5 / setup.time.step;
  setup.membranes.clear();

  solver::Simulation sim = solver::load_simulation(setup, packed);
  const double potential_before = solver::potential_energy(sim.world, sim.settings.gravity);
  solver::advance_quietly(sim, progress);

  SettleResult result;
  result.kinetic_left = solver::kinetic_energy(sim.world);
  result.potential_drop = potential_before - solver::potential_energy(sim.world, sim.settings.gravity);
  result.bodies = packed.bodies;
  for (std::size_t i = 0; i < sim.world.grain_count(); ++i) {
    const solver::RigidBody& b = sim.world.bodies[i];
    result.top_speed = std::max(result.top_speed, b.velocity.norm());
    result.bodies.position[i] = {b.position.x(), b.position.y(), b.position.z()};
    result.bodies.orientation[i] = {b.orientation.w(), b.orientation.x(), b.orientation.y(), b.orientation.z()};
    result.bodies.velocity[i] = result.bodies.angular_velocity[i] = {0, 0, 0};
  }
  return result;
}

}  // namespace scree::pack
