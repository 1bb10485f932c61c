#pragma once
// The simulated world: its bodies and what a step carries over to the next (docs/architecture.md).
// State lives in arrays indexed by body, with no global state, so that a rank can hold a World
// of its own. Bodies are the grains first, then one static body per wall, then the terrain's:
// a grain added after walls or the terrain goes before them, and every body index that a
// carried cache holds moves with it (add_grain). The step that advances it: solver/step.h.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "geometry/grain_shape.h"
#include "geometry/terrain_field.h"
#include "solver/contacts/broad_phase.h"
#include "solver/contacts/narrow_phase.h"
#include "solver/exact_sum.h"
#include "solver/resting_impulses.h"
#include "solver/rigid_body.h"

namespace scree::solver {

using geometry::GrainShape;
using geometry::TerrainField;

enum class WallShape { plane, box };

struct Wall {
  WallShape shape = WallShape::plane;
  Vec3 point = Vec3::Zero(), normal = Vec3::UnitZ();  // plane: grains on the side n points to
  Vec3 min = Vec3::Zero(), max = Vec3::Zero();       // box: grains inside
  Vec3 velocity = Vec3::Zero();                     // prescribed, m/s
  std::uint32_t material = 0;

  // Where it is at t = 0. place(t) moves it to where its velocity has taken it by t, from
  // there rather than step by step, so that a restart at any time finds it at the same place
  // to the last bit.
  Vec3 point_at_zero = Vec3::Zero(), min_at_zero = Vec3::Zero(), max_at_zero = Vec3::Zero();
  void place(double t);
};

struct ContactLaw {
  double friction = 0;     // μ
  double restitution = 0;  // e
};

// Energy that left the grains' kinetic and potential energy, by cause, J (cumulative).
struct EnergyBooks {
  double restitution = 0;  // (1 − e²) of the stored energy, in collisions
  double friction = 0;     // work of tangential impulses, collisions and resting contacts
  double resting = 0;      // work of the normal impulses that stop resting contacts
  double damping = 0;      // global damping
  double wall_work = 0;    // work done ON the grains by moving walls (enters with a minus)
  double integration = 0;  // what symplectic Euler adds: ½ m |g|² Δt² a free step, and so on
  double total() const { return restitution + friction + resting + damping - wall_work - integration; }
};


// A grain as the world holds it, apart from the caches: what ranks hand each other
// (solver/ranks/share_grains.h).
struct Grain {
  std::uint64_t id = 0;
  std::uint32_t shape = 0, material = 0;
  double scale = 1;
  RigidBody body;
};

struct World {
  std::vector<GrainShape> shapes;
  // Grains, by index.
  std::vector<std::uint64_t> id;
  std::vector<std::uint32_t> shape, material;
  std::vector<double> scale;
  std::vector<RigidBody> bodies;  // grains, one static body per wall, the terrain's
  std::vector<Wall> walls;
  // The ground, a static body after the walls'; copies of the world share it.
  std::shared_ptr<const TerrainField> terrain;
  std::uint32_t terrain_material = 0;
  // Contact laws between materials: laws[a · material_count + b].
  std::uint32_t material_count = 1;
  std::vector<ContactLaw> laws{ContactLaw{}};
  double time = 0;
  std::int64_t step = 0;
  EnergyBooks energy;
  // The impulse on A of each resting support point over the last step: the next step's
  // Gauss–Seidel passes start from it (warm start, seed 002), so that a heap at rest needs
  // few passes. Checkpoints keep it.
  RestingImpulses resting_impulses;
  // Candidate pairs kept from step to step. A cache only: the pairs it gives are the broad
  // phase's exactly, so checkpoints leave it out.
  NeighbourList neighbours;
  // The nodes of each grain pair near touching, kept from step to step: a cache likewise.
  NearNodeCache near_nodes;

  std::size_t grain_count() const { return id.size(); }
  // Adds a grain of `density` (kg/m³) with a unit quaternion, taken as it is, after the other
  // grains and before the static bodies; returns its index.
  std::uint32_t add_grain(std::uint64_t grain_id, std::uint32_t shape_index, std::uint32_t material_index,
                          double density, double grain_scale, const Vec3& position, const Quat& orientation);
  // The grains replaced by `grains` (ascending ids, as every world keeps them: docs/parallel.md).
  // What the world carries of a grain it keeps (its resting impulses and its pairs' near
  // nodes) follows it to its new index, and the static bodies' indices move with the grain
  // count; what names a grain it no longer holds is dropped. The neighbour list starts afresh
  // (a cache: the same pairs either way).
  void replace_grains(std::vector<Grain> grains);
  Grain grain(std::uint32_t index) const { return {id[index], shape[index], material[index], scale[index], bodies[index]}; }
  void add_wall(const Wall& wall);  // `wall` as it is at t = 0, placed at `time`
  void set_terrain(std::shared_ptr<const TerrainField> field, std::uint32_t material_index);  // after the walls
  std::uint32_t terrain_body() const { return std::uint32_t(grain_count() + walls.size()); }
  // The material of a grain, a wall's static body or the terrain's.
  std::uint32_t body_material(std::uint32_t body) const;
  // The wall whose static body `body` is, or −1 (a grain or the terrain).
  std::int64_t wall_of_body(std::uint32_t body) const {
    return body >= grain_count() && body < terrain_body() ? std::int64_t(body - grain_count()) : -1;
  }  const ContactLaw& law(std::uint32_t a, std::uint32_t b) const { return laws[a * material_count + b]; }
};

double kinetic_energy(const World& world);
double potential_energy(const World& world, const Vec3& gravity);  // −Σ m g·x
// The same sums over the grains `owned` marks (all when null), exactly: a rank's part of the
// sum the ranks add up (solver/ranks/rank_share.h).
ExactSum kinetic_energy_part(const World& world, const std::vector<char>* owned);
ExactSum potential_energy_part(const World& world, const Vec3& gravity, const std::vector<char>* owned);

// The largest distance a grain moves in `dt`, over its smallest half-extent: the Courant
// number the time step is chosen by (seed 000 §3.4: the step is limited by penetration only).
// With `kick`, as the grains would move with it added to their velocities (the start's first
// step: one step of gravity).
double courant_number(const World& world, double dt, const Vec3& kick = Vec3::Zero());

// The largest step up to `max_step` whose Courant number stays within `courant_limit` after
// one step of gravity: Δt = C h / (|v| + |g| Δt_max + |ω| R), the least over grains.
double courant_time_step(const World& world, const Vec3& gravity, double courant_limit, double max_step);



}  // namespace scree::solver
