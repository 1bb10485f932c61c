#pragma once
// The case file (.yaml): the solver's one input. docs/formats.md documents every key.
// Paths in the file are relative to the case file's folder; read_case() resolves them.
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace scree::formats {

using Vec3 = std::array<double, 3>;

struct TimeSettings {
  // Δt, s; with `automatic_step` the largest step: each step is then chosen so that no grain
  // moves more than `courant_limit` of its smallest half-extent, and lands on output times.
  double step = 0;
  bool automatic_step = false;
  double duration = 0;  // simulated time, s
  // The largest Courant number (distance a grain moves in a step over its smallest
  // half-extent) the run accepts; a step above it at the start is an error unless allowed.
  double courant_limit = 0.25;
  bool allow_above_courant_limit = false;

  bool operator==(const TimeSettings&) const = default;
};

struct OutputSettings {
  std::filesystem::path directory;                 // frames, checkpoint and log go here
  double frame_interval = 0;                       // s between frames
  std::optional<double> checkpoint_interval;       // s between checkpoints; none when empty
  double log_interval = 0;                         // s between log rows
  std::filesystem::path log;                       // CSV log

  bool operator==(const OutputSettings&) const = default;
};

// The collision scheme. Only the impulse-based one runs today; the case file names the
// penalty (seed 004) and nonsmooth (seed 002) schemes and read_case refuses them until they
// land (docs/architecture.md says where they go).
enum class SchemeType { impulse };

// Energy tracking method (seed 003, as modified in seed 000).
struct ImpulseParameters {
  int increments = 50;             // α: a velocity is moved in steps of 1/α of its value
  double group_tolerance = 0.03;   // β: contacts within β of the extreme value act together
  int max_rounds = 300;            // then restitution is set to zero (seed 003)
  int boundary_iterations = 10;    // predict–correct sweeps against static bodies (seed 000)
  // Resting contact's passes (solver/impulse/resting_contact.h): warm start β (seed 002),
  // the velocity change that ends them, as a fraction of one step of gravity, a guard, and
  // the passes an island gets for each contact of its depth.
  double warm_start = 1;
  double resting_tolerance = 1e-4;
  int resting_passes = 300;
  int resting_passes_per_layer = 1;
  bool resting_conjugate = true;  // passes along conjugate directions, or plain Gauss–Seidel
  int resting_coarse_every = 5;   // a coarse step after every this many passes (0: none)

  bool operator==(const ImpulseParameters&) const = default;
};

struct Scheme {
  SchemeType type = SchemeType::impulse;
  ImpulseParameters impulse;

  bool operator==(const Scheme&) const = default;
};

struct Material {
  std::string name;
  std::optional<double> density;  // kg/m³; required for materials of grains
  double friction = 0;            // Coulomb μ
  double restitution = 0;         // Stronge's energetic coefficient e

  bool operator==(const Material&) const = default;
};

// Overrides the contact law between two materials.
struct Interaction {
  std::string material_a, material_b;
  double friction = 0;
  double restitution = 0;

  bool operator==(const Interaction&) const = default;
};

struct GrainTemplate {
  std::string name;
  std::filesystem::path file;           // avatar .vdb; empty for an analytic sphere
  std::optional<double> sphere_radius;  // an analytic sphere of this radius, m
  std::string material;
  std::filesystem::path library;        // the grain library it came from; empty if none

  bool operator==(const GrainTemplate&) const = default;
};

struct TerrainSettings {
  std::filesystem::path file;  // terrain .vdb
  std::string material;

  bool operator==(const TerrainSettings&) const = default;
};

enum class WallType { plane, box };

struct Wall {
  std::string name;
  WallType type = WallType::plane;
  Vec3 point{}, normal{};  // plane: grains live on the side the unit normal points to
  Vec3 min{}, max{};       // box: grains live inside
  Vec3 velocity{};         // prescribed, m/s
  std::string material;

  bool operator==(const Wall&) const = default;
};

// How a run on several MPI ranks shares space among them (docs/parallel.md): a grid of
// nx × ny × nz regions over the grains' box, or (none: `auto`) regions cut by bisection so that
// each holds about as many grains.
struct ParallelSettings {
  std::optional<std::array<int, 3>> ranks;
  bool operator==(const ParallelSettings&) const = default;
};

struct Case {
  std::filesystem::path file;  // where it was read from
  TimeSettings time;
  OutputSettings output;
  Scheme scheme;
  Vec3 gravity{0, 0, -9.81};
  double global_damping = 0;  // ξ, 1/s: v ← v (1 − ξ Δt)
  std::uint64_t seed = 1;     // random number generator seed
  std::vector<Material> materials;
  std::vector<Interaction> interactions;
  std::vector<GrainTemplate> templates;
  std::filesystem::path initial_state;
  std::optional<TerrainSettings> terrain;
  std::vector<Wall> walls;
  ParallelSettings parallel;

  const Material& material(const std::string& name) const;  // throws std::out_of_range
  bool operator==(const Case&) const = default;
};

// The contact law between two materials: an `interactions` entry if there is one, otherwise
// the smaller friction and the smaller restitution of the two.
struct ContactLaw {
  double friction = 0;
  double restitution = 0;

  bool operator==(const ContactLaw&) const = default;
};
ContactLaw contact_law(const Case& c, const std::string& material_a, const std::string& material_b);

// Reads and validates a case file. Throws FileError "<file>:<line>: <key>: <what is wrong>".
// Keys that name what scree does not carry out yet (the penalty and nonsmooth schemes,
// `membranes`, `domain`, more than one MPI rank) are refused the same way, "... is not
// available yet", so that no tool runs a case other than the one it says.
Case read_case(const std::filesystem::path& file);

// Writes every key (defaults included) so that read_case gives back the same Case, numbers
// bit for bit; paths are written relative to the new file's folder. Atomic.
void write_case(const std::filesystem::path& file, const Case& c);

}  // namespace scree::formats
