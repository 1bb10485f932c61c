#include "pack/settle.h"

#include <algorithm>

#include "run/simulation.h"

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

  run::Simulation sim = run::load_simulation(setup, packed);
  const double potential_before = solver::potential_energy(sim.world, sim.settings.gravity);
  run::advance_quietly(sim, progress);

  SettleResult result;
  result.kinetic_left = solver::kinetic_energy(sim.world);
  result.potential_drop = potential_before - solver::potential_energy(sim.world, sim.settings.gravity);
  result.bodies = run::snapshot(sim, formats::StateKind::state).bodies;
  for (std::size_t i = 0; i < result.bodies.size(); ++i) {
    result.top_speed = std::max(result.top_speed, sim.world.bodies[i].velocity.norm());
    result.bodies.velocity[i] = result.bodies.angular_velocity[i] = {0, 0, 0};
  }
  return result;
}

Eigen::AlignedBox3d holding_box(const ReleaseRegion& region, const formats::Bodies& bodies,
                                const std::vector<geometry::GrainShape>& shapes) {
  double reach = 0;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    reach = std::max(reach, shapes[bodies.template_index[i]].bounding_radius * bodies.scale[i]);
  Eigen::AlignedBox3d hold = region.bounds();
  hold.min().array() -= 1.01 * reach;
  hold.max().array() += 1.01 * reach;
  return hold;
}

}  // namespace scree::pack
