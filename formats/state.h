#pragma once
// State, frame and checkpoint files (.h5), and membrane files (.h5): one HDF5 layout for all,
// specified in docs/formats.md. Writing is atomic (temporary file, then rename).
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace scree::formats {

using Vec3 = std::array<double, 3>;
using Quat = std::array<double, 4>;  // (w, x, y, z), unit norm, body-to-world

// Rigid grains as parallel arrays (one entry per body, in any order).
struct Bodies {
  std::vector<std::uint64_t> id;              // unique, below first_reserved_id
  std::vector<std::uint32_t> template_index;  // into State::templates
  std::vector<double> scale;                  // uniform scale of the template, > 0
  std::vector<Vec3> position;                 // centroid, world frame, m
  std::vector<Quat> orientation;
  std::vector<Vec3> velocity;          // of the centroid, m/s
  std::vector<Vec3> angular_velocity;  // world frame, rad/s

  size_t size() const { return id.size(); }
  void resize(size_t n);
};

// Ids from 2^62 up name bodies that are not grains: membrane balls and static bodies, so that
// one id names either side of any contact.
constexpr std::uint64_t first_reserved_id = std::uint64_t(1) << 62;
constexpr std::uint64_t membrane_ball_id(std::uint32_t membrane, std::uint32_t ball) {
  return first_reserved_id + (std::uint64_t(membrane) << 32) + ball;
}
constexpr std::uint64_t terrain_id = std::uint64_t(1) << 63;
// Plane p of wall k (walls in case-file order; a box's planes 0–5, a plane wall's 0).
constexpr std::uint64_t first_wall_id = terrain_id + 1;
constexpr std::uint64_t wall_id(std::uint32_t wall, std::uint32_t plane = 0) {
  return first_wall_id + 8 * std::uint64_t(wall) + plane;
}

// A flexible net: balls joined by linear springs; anchored balls never move.
struct Membrane {
  std::string name;
  std::vector<Vec3> position;  // m
  std::vector<Vec3> velocity;  // m/s
  std::vector<double> radius;  // m, > 0
  std::vector<double> mass;    // kg, > 0
  std::vector<std::uint8_t> anchored;               // 1 = clamped
  std::vector<std::array<std::uint32_t, 2>> springs;  // ball indices
  std::vector<double> rest_length;                  // m, >= 0
  std::vector<double> stiffness;                    // N/m, >= 0
};

// Persistent contacts carried from one step to the next (warm start, spring history).
struct ContactCache {
  std::vector<std::uint64_t> body_a, body_b;  // ids; the normal points from B to A
  std::vector<std::int32_t> node;             // boundary node of A, -1 if none
  std::vector<Vec3> impulse;                  // last step's impulse on A, world, N·s
  std::vector<Vec3> tangential_displacement;  // penalty spring history, world, m
  size_t size() const { return body_a.size(); }
};

// What a checkpoint adds so that a run continues bit for bit.
struct SolverState {
  ContactCache contacts;
  std::string rng_state;  // the generator's own text serialisation
  std::int64_t next_frame_index = 0;
  double next_frame_time = 0;
  double next_log_time = 0;
  double next_checkpoint_time = 0;
  // The run's cumulative energy books by name (J), so that a restarted log continues them.
  std::map<std::string, double> energy_books;
};

// Where a run's simulation coordinates lie on the map: the terrain's origin offset and
// coordinate system, as the run found them (frames carry it so that a rebuilt terrain is
// noticed by whatever reads them against it).
struct Georeference {
  std::array<double, 3> offset{};  // map = simulation + offset, m
  std::string crs_wkt;             // may be empty
  bool operator==(const Georeference&) const = default;
};

enum class StateKind { state, frame, checkpoint };
const char* to_string(StateKind kind);

struct State {
  StateKind kind = StateKind::state;
  double time = 0;         // s
  std::int64_t step = 0;   // time steps taken
  // Names the run that wrote a frame or checkpoint (scree-solve draws one at a fresh start; a
  // restart carries it on), so that frames of different runs are never read as one; empty
  // in states and in files from before run ids.
  std::string run;
  std::optional<Georeference> georeference;  // runs on a terrain
  std::vector<std::string> templates;  // avatar paths as given in the case file
  Bodies bodies;
  std::vector<Membrane> membranes;
  std::optional<SolverState> solver;  // checkpoints only
};

// Throw FileError naming the file and what is wrong; write_* checks before writing, so a
// file it refuses is never created, and an old file of that name is left untouched.
void write_state(const std::filesystem::path& file, const State& state);
State read_state(const std::filesystem::path& file);

// A state file written a block of grains at a time, so that no process holds them all: a
// frame or checkpoint of many ranks merged by id on one (docs/parallel.md, "Output"). `head`
// is the state without its grains (and, in a checkpoint, without its contact cache); the file
// will hold `bodies` grains and `contacts` cached contacts, written in file order by
// write_bodies and write_contacts, each block checked as write_state checks a state and its
// ids above every earlier block's. Nothing appears under `file` before commit(), and an old
// file of that name is left untouched until then; throws FileError as write_state does.
class StateWriter {
 public:
  StateWriter(const std::filesystem::path& file, const State& head, size_t bodies, size_t contacts);
  ~StateWriter();
  StateWriter(const StateWriter&) = delete;
  StateWriter& operator=(const StateWriter&) = delete;
  void write_bodies(const Bodies& block);
  void write_contacts(const ContactCache& block);
  void commit();  // every row written: the file appears under its name

 private:
  struct Open;
  std::unique_ptr<Open> open_;
};

// A state file read a block of grains at a time (a restart on many ranks, each reading a part):
// the head (the state without grains and contact cache) at once, then blocks of rows, each
// checked as read_state checks a state.
class StateReader {
 public:
  explicit StateReader(const std::filesystem::path& file);
  ~StateReader();
  StateReader(const StateReader&) = delete;
  StateReader& operator=(const StateReader&) = delete;
  const State& head() const;
  const std::filesystem::path& file() const;
  size_t body_count() const;
  size_t contact_count() const;
  Bodies read_bodies(size_t first, size_t count) const;
  ContactCache read_contacts(size_t first, size_t count) const;

 private:
  struct Open;
  std::unique_ptr<Open> open_;
};

// A membrane file holds one membrane (scree-membrane builds them).
void write_membrane(const std::filesystem::path& file, const Membrane& membrane);
Membrane read_membrane(const std::filesystem::path& file);

}  // namespace scree::formats
