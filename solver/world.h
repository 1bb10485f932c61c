#pragma once
// The simulated world and its time step (seed 000 §3.4, §4.1, Fig. 5). State lives in arrays
// indexed by grain (and, after the grains, one static body per wall and one for the terrain),
// with no global state, so that a domain decomposition can later hand each rank its own World.
//
// One step: gravity and global damping act on the velocities; then, up to
// `boundary_iterations` sweeps, every body is moved to where its current velocity would take
// it, contacts are found there, approaching contacts (faster than the resting speed) are
// resolved by the energy tracking method island by island, and slow contacts that would end
// penetrated are corrected (the predict–correct treatment of resting contact); the last of
// several sweeps treats every contact as resting, so that no step ends penetrated; finally
// positions advance with the corrected velocities (symplectic Euler).
#include <compare>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "solver/broad_phase.h"
#include "solver/energy_tracking.h"
#include "solver/rigid_body.h"
#include "solver/shape_template.h"
#include "solver/terrain_field.h"

namespace scree::solver {

// A grain shape as the world uses it: a level-set template, or an analytic sphere.
struct GrainShape {
  std::optional<ShapeTemplate> level_set;  // none: a sphere of `sphere_radius`
  double sphere_radius = 0;
  double volume = 0;                  // m³ at scale 1
  Vec3 inertia_per_density = Vec3::Zero();  // principal I/ρ, body axes, m⁵
  double bounding_radius = 0;         // about the centroid, m
  double smallest_half_extent = 0;    // half the thinnest width along a principal axis, m
  double glue_distance = 0;           // contact nodes closer than this form one contact, m

  static GrainShape sphere(double radius);
  // Extents and glue distance (2.5 node spacings) from the nodes.
  static GrainShape from_level_set(ShapeTemplate level_set, double volume, const Vec3& inertia_per_density);
};

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

struct StepSettings {
  double time_step = 1e-3;
  Vec3 gravity{0, 0, -9.81};
  double global_damping = 0;  // ξ, 1/s
  EnergyTrackingSettings collisions;
  int boundary_iterations = 10;
  // Wall contacts approaching slower than this are resting (corrected, not collided);
  // below zero: three steps of gravity, 3 |g| Δt.
  double resting_speed = -1;
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

struct StepReport {
  std::size_t contacts = 0;       // contact points found in the last sweep
  std::size_t islands = 0;        // islands resolved, all sweeps
  std::int64_t increments = 0;    // ETM impulses applied
  int sweeps = 0;                 // predict–correct sweeps used
  double stored_peak = 0;         // largest energy stored in one island, J
  double courant = 0;             // max over grains of the distance moved / smallest half-extent
  std::vector<Vec3> wall_impulse; // impulse on each wall during the step (from the grains), N·s
};

// One support point of a resting contact, the same from step to step: grain A, body B (a
// grain, or a wall's static body), the plane of B's wall (0 for a grain) and A's boundary node
// (−1 for a sphere).
struct RestingKey {
  std::uint32_t a, b;
  std::int32_t plane, node;
  auto operator<=>(const RestingKey&) const = default;
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
  std::map<RestingKey, Vec3> resting_impulses;
  // Candidate pairs kept from step to step. A cache only: the pairs it gives are the broad
  // phase's exactly, so checkpoints leave it out.
  NeighbourList neighbours;

  std::size_t grain_count() const { return id.size(); }
  // Appends a grain of `density` (kg/m³); returns its index.
  std::uint32_t add_grain(std::uint64_t grain_id, std::uint32_t shape_index, std::uint32_t material_index,
                          double density, double grain_scale, const Vec3& position, const Quat& orientation);
  void add_wall(const Wall& wall);  // after the grains; `wall` as it is at t = 0, placed at `time`
  void set_terrain(std::shared_ptr<const TerrainField> field, std::uint32_t material_index);  // after the walls
  std::uint32_t terrain_body() const { return std::uint32_t(grain_count() + walls.size()); }
  // The material of a grain, a wall's static body or the terrain's.
  std::uint32_t body_material(std::uint32_t body) const;  const ContactLaw& law(std::uint32_t a, std::uint32_t b) const { return laws[a * material_count + b]; }
};

double kinetic_energy(const World& world);
double potential_energy(const World& world, const Vec3& gravity);  // −Σ m g·x

// The largest distance a grain moves in `dt`, over its smallest half-extent: the Courant
// number the time step is chosen by (seed 000 §3.4: the step is limited by penetration only).
double courant_number(const World& world, double dt);

// The largest step up to `max_step` whose Courant number stays within `courant_limit` after
// one step of gravity: Δt = C h / (|v| + |g| Δt_max + |ω| R), the least over grains.
double courant_time_step(const World& world, const Vec3& gravity, double courant_limit, double max_step);

// Contacts in the current configuration deeper than `fraction` of the smaller half-width
// of the grain(s) involved: initial states must not start with grains inside each other.
struct Overlap {
  std::uint32_t grain;
  std::int64_t other_grain;  // −1 for a wall or the terrain
  std::int32_t wall;         // −1 for a grain or the terrain
  double depth;              // m
};
std::vector<Overlap> overlaps(const World& world, double fraction);

// One time step.
StepReport advance(World& world, const StepSettings& settings);

}  // namespace scree::solver
