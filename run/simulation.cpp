#include "run/simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <utility>
#include <random>
#include <unordered_map>

#include <omp.h>

#include "formats/csv_log.h"
#include "formats/error.h"
#include "formats/terrain_file.h"
#include "geometry/flat_shapes.h"
#include "geometry/template_from_level_set.h"
#include "geometry/terrain_from_level_set.h"
#include "solver/contacts/contact_finding.h"
#include "solver/impulse/tiles.h"
#include "run/state_across_ranks.h"

namespace scree::run {

using namespace solver;

namespace {

// 64 random bits as 16 hex digits: the system's entropy mixed with the clock, so that two
// runs started together still differ.
std::string new_run_name() {
  std::random_device entropy;
  const auto now = std::chrono::high_resolution_clock::now().time_since_epoch().count();
  std::seed_seq seed{entropy(), entropy(), std::uint32_t(now), std::uint32_t(std::uint64_t(now) >> 32)};
  std::mt19937_64 draw(seed);
  char name[17];
  std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(draw()));
  return name;
}

Vec3 vec(const formats::Vec3& v) { return Vec3(v[0], v[1], v[2]); }

// Grains may start this far inside each other (or a wall), as a fraction of the thinner
// one's half-width: packing tolerances, not grains placed on top of each other.
constexpr double overlap_fraction = 0.05;

// The energy books by name: columns of the log and entries of a checkpoint's books.
constexpr std::pair<const char*, double EnergyBooks::*> books[] = {
    {"restitution", &EnergyBooks::restitution}, {"friction", &EnergyBooks::friction},
    {"resting", &EnergyBooks::resting},         {"damping", &EnergyBooks::damping},
    {"wall_work", &EnergyBooks::wall_work},     {"integration", &EnergyBooks::integration}};

// The resting impulses of the grains `owned` marks (all when null), by ids.
formats::ContactCache contact_cache(const World& w, const std::vector<char>* owned) {
  formats::ContactCache cache;
  for (const auto& [key, impulse] : w.resting_impulses) {
    if (owned && !(*owned)[key.a]) continue;
    cache.body_a.push_back(w.id[key.a]);
    if (key.b < w.grain_count())
      cache.body_b.push_back(w.id[key.b]);
    else if (key.b == w.terrain_body())
      cache.body_b.push_back(formats::terrain_id);
    else
      cache.body_b.push_back(formats::wall_id(key.b - std::uint32_t(w.grain_count()), std::uint32_t(key.plane)));
    cache.node.push_back(key.node);
    cache.impulse.push_back({impulse.x(), impulse.y(), impulse.z()});
    cache.tangential_displacement.push_back({0, 0, 0});
  }
  return cache;
}

// The store's key of a checkpoint's cached contact k (bodies by their index in `w`), or none
// where B is a grain `w` does not hold (a rank's world holds every grain its own grains touch,
// and what no rank holds was refused before: contacts_of_own_grains). Throws FileError for a
// grain, wall or plane the world has not.
std::optional<RestingKey> contact_key(const World& w, const std::unordered_map<std::uint64_t, std::uint32_t>& grain_of_id,
                                      const formats::ContactCache& cache, std::size_t k, const std::filesystem::path& file,
                                      bool b_may_be_elsewhere) {
  auto grain = [&](std::uint64_t id, bool may_be_elsewhere) -> std::optional<std::uint32_t> {
    const auto it = grain_of_id.find(id);
    if (it != grain_of_id.end()) return it->second;
    if (may_be_elsewhere) return std::nullopt;
    throw formats::FileError(file, "/solver/contacts names body " + std::to_string(id) + ", which is not a grain");
  };
  RestingKey key{*grain(cache.body_a[k], false), 0, 0, cache.node[k]};
  if (cache.body_b[k] >= formats::first_wall_id) {
    const std::uint64_t code = cache.body_b[k] - formats::first_wall_id;
    if (code / 8 >= w.walls.size())
      throw formats::FileError(file, "/solver/contacts names wall " + std::to_string(code / 8) + ", but the case has " +
                                         std::to_string(w.walls.size()) + (w.walls.size() == 1 ? " wall" : " walls"));
    const std::uint64_t planes = w.walls[code / 8].shape == WallShape::box ? 6 : 1;
    if (code % 8 >= planes)
      throw formats::FileError(file, "/solver/contacts names plane " + std::to_string(code % 8) + " of wall " +
                                         std::to_string(code / 8) + ", which has " + std::to_string(planes));
    key.b = std::uint32_t(w.grain_count() + code / 8);
    key.plane = std::int32_t(code % 8);
  } else if (cache.body_b[k] == formats::terrain_id) {
    if (!w.terrain) throw formats::FileError(file, "/solver/contacts names the terrain, but the case has none");
    key.b = w.terrain_body();
  } else {
    const std::optional<std::uint32_t> b = grain(cache.body_b[k], b_may_be_elsewhere);
    if (!b) return std::nullopt;
    key.b = *b;
  }
  return key;
}

std::unordered_map<std::uint64_t, std::uint32_t> grain_of_id(const World& w) {
  std::unordered_map<std::uint64_t, std::uint32_t> index;
  index.reserve(w.grain_count());
  for (std::uint32_t i = 0; i < w.grain_count(); ++i) index.emplace(w.id[i], i);
  return index;
}

void restore_contact_cache(World& w, const formats::ContactCache& cache, const std::filesystem::path& file) {
  const auto index = grain_of_id(w);
  std::vector<RestingImpulses::Entry> restored;
  restored.reserve(cache.size());
  for (std::size_t k = 0; k < cache.size(); ++k)
    restored.push_back({*contact_key(w, index, cache, k, file, false), vec(cache.impulse[k]).cast<float>()});
  w.resting_impulses = RestingImpulses(std::move(restored));
}

// The same across ranks: each rank its own grains' contacts (contacts_of_own_grains), and every
// rank refuses the first bad row any rank met.
void restore_contact_cache(World& w, const OwnContacts& own, const std::filesystem::path& file, const Ranks& ranks) {
  const auto index = grain_of_id(w);
  std::vector<RestingImpulses::Entry> restored;
  std::optional<RankFailure> failure = own.failure;
  for (std::size_t k = 0; k < own.contacts.size(); ++k) {
    try {
      if (const auto key = contact_key(w, index, own.contacts, k, file, true))
        restored.push_back({*key, vec(own.contacts.impulse[k]).cast<float>()});
    } catch (const formats::FileError& e) {
      const std::pair<std::uint64_t, std::uint64_t> order{3 * own.rows[k] + 1, 0};
      if (!failure || order < failure->order) failure = RankFailure{order, e.file(), e.reason()};
      break;  // the rows come in the file's order
    }
  }
  throw_first_failure(failure, ranks);
  w.resting_impulses = RestingImpulses(std::move(restored));
}

// Columns of cumulative impulse on each wall, x, y, z: a mean force over any stretch of the
// log is their difference over the time between the rows. Checkpoints keep them by name.
std::vector<std::string> wall_impulse_names(const formats::Case& setup) {
  std::vector<std::string> names;
  for (const formats::Wall& wall : setup.walls)
    for (const char* axis : {"x", "y", "z"}) names.push_back("impulse_" + wall.name + "_" + axis);
  return names;
}

std::uint32_t material_index(const formats::Case& c, const std::string& name) {
  for (std::size_t m = 0; m < c.materials.size(); ++m)
    if (c.materials[m].name == name) return std::uint32_t(m);
  throw std::out_of_range("no material " + name);
}

// The case template a state template names: by name, or by its avatar path.
std::size_t case_template(const formats::Case& c, const std::filesystem::path& state_file, const std::string& entry) {
  for (std::size_t t = 0; t < c.templates.size(); ++t) {
    if (c.templates[t].name == entry) return t;
    if (!c.templates[t].file.empty() &&
        c.templates[t].file == (c.file.parent_path() / entry).lexically_normal())
      return t;
  }
  throw formats::FileError(state_file, "template '" + entry + "' is not among the case's templates (" +
                                           c.file.string() + ")");
}


// How far from an output time a step may end and still meet it: half a fixed step;
// automatic steps land on them, to round-off.
double time_round_off(const formats::TimeSettings& t) { return t.automatic_step ? 1e-9 * t.step : 0.5 * t.step; }

// The case's step, or the Courant step shortened to land on the next output time without
// leaving a sliver of a step before it. What is left counts as one step when it exceeds the
// step by round-off only (time_round_off): the output times are sums of intervals, a hair
// off their multiples, and an exact comparison split the last step of nearly every interval
// in two (a settled heap at the 2 ms limit took 6 steps to a 10 ms log interval instead of
// 5, docs/benchmarks.md).
double next_time_step(const Simulation& sim) {
  const formats::TimeSettings& t = sim.setup.time;
  if (!t.automatic_step) return t.step;
  double step = courant_time_step(sim.world, sim.settings.gravity, t.courant_limit, t.step);
  if (sim.share) step = sim.share->ranks.min(step);
  double next_output = std::min({sim.next_log_time, sim.next_frame_time, t.duration});
  if (sim.setup.output.checkpoint_interval) next_output = std::min(next_output, sim.next_checkpoint_time);
  const double left = next_output - sim.world.time;
  if (left <= step + time_round_off(t)) return left;
  return left < 2 * step ? 0.5 * left : step;
}

std::string frame_name(std::int64_t index) {
  char name[32];
  std::snprintf(name, sizeof name, "frame_%06lld.h5", static_cast<long long>(index));
  return name;
}

}  // namespace

formats::State snapshot(const Simulation& sim, formats::StateKind kind) {
  formats::State s;
  s.kind = kind;
  s.time = sim.world.time;
  s.step = sim.world.step;
  s.run = sim.run;
  s.georeference = sim.georeference;
  s.templates = sim.template_names;
  const World& w = sim.world;
  for (std::size_t i = 0; i < w.grain_count(); ++i) {
    if (sim.share && !sim.share->owned[i]) continue;
    const RigidBody& b = w.bodies[i];
    s.bodies.id.push_back(w.id[i]);
    s.bodies.template_index.push_back(sim.world.shape[i]);
    s.bodies.scale.push_back(w.scale[i]);
    s.bodies.position.push_back({b.position.x(), b.position.y(), b.position.z()});
    s.bodies.orientation.push_back({b.orientation.w(), b.orientation.x(), b.orientation.y(), b.orientation.z()});
    s.bodies.velocity.push_back({b.velocity.x(), b.velocity.y(), b.velocity.z()});
    s.bodies.angular_velocity.push_back({b.angular_velocity.x(), b.angular_velocity.y(), b.angular_velocity.z()});
  }
  if (kind == formats::StateKind::checkpoint) {
    formats::SolverState solver;
    solver.next_frame_index = sim.next_frame_index;
    solver.next_frame_time = sim.next_frame_time;
    solver.next_log_time = sim.next_log_time;
    solver.next_checkpoint_time = sim.next_checkpoint_time;
    for (const auto& [name, member] : books) solver.energy_books[name] = sim.world.energy.*member;
    solver.energy_books["initial_energy"] = sim.initial_energy;
    const std::vector<std::string> impulse_names = wall_impulse_names(sim.setup);
    for (std::size_t k = 0; k < impulse_names.size(); ++k) solver.energy_books[impulse_names[k]] = sim.wall_impulse[k / 3][k % 3];
    solver.contacts = contact_cache(w, sim.share ? &sim.share->owned : nullptr);
    s.solver = solver;
  }
  return s;
}

namespace {

// A frame or checkpoint file: of the whole world, or of every rank's grains merged by id.
void write_snapshot(const Simulation& sim, const std::filesystem::path& file, formats::StateKind kind) {
  formats::State s = snapshot(sim, kind);
  if (!sim.share) return formats::write_state(file, s);
  const formats::Bodies own = std::move(s.bodies);
  s.bodies = formats::Bodies();
  formats::ContactCache contacts;
  if (s.solver) contacts = std::exchange(s.solver->contacts, formats::ContactCache());
  write_state_across_ranks(file, s, own, contacts, sim.share->ranks);
}

}  // namespace

std::vector<std::string> log_column_names(const formats::Case& setup) {
  std::vector<std::string> names{"step", "time", "kinetic", "potential", "stored"};
  for (const auto& book : books) names.push_back(book.first);
  for (const char* name : {"energy_error", "contacts", "islands", "increments", "sweeps", "passes", "courant"}) names.push_back(name);
  for (const std::string& name : wall_impulse_names(setup)) names.push_back(name);
  return names;
}

namespace {

// What a world holds besides its grains: the case's shapes and the terrain with its
// georeference. Shared among `ranks`, they lie once on each node (the node's first rank reads
// them). Made before the grains are added: the node's first rank's peak of memory as a run
// starts is the terrain file's grid and the field it makes (docs/parallel.md, "Memory").
struct Fixtures {
  std::vector<GrainShape> shapes;
  std::shared_ptr<const TerrainField> terrain;
  std::optional<formats::Georeference> georeference;
};

Fixtures read_fixtures(const formats::Case& setup, const Ranks* ranks) {
  Fixtures fixtures;
  if (!ranks) {
    fixtures.shapes = geometry::grain_shapes(setup);
  } else {  // the templates' values where the node's ranks share them
    const Ranks::NodeBlock block = ranks->share_on_node([&] { return geometry::flat_shapes(geometry::grain_shapes(setup)); });
    fixtures.shapes = geometry::shapes_in_place(block.bytes, block.keep);
  }
  if (!setup.terrain) return fixtures;
  const std::filesystem::path& file = setup.terrain->file;
  if (!ranks) {
    const formats::TerrainFile terrain = formats::read_terrain_file(file);
    fixtures.georeference = formats::Georeference{terrain.georeference.origin_offset, terrain.georeference.crs_wkt};
    fixtures.terrain = std::make_shared<const TerrainField>(geometry::terrain_field(terrain.phi, file));
    return fixtures;
  }
  // The node's first rank reads the file and lays out the field (the file's grid let go
  // first), then the georeference, where every rank of the node reads them.
  formats::Vec3 offset;  // the first rank's, as read
  std::string crs;
  const Ranks::NodeBlock block = ranks->share_on_node([&] {
    std::optional<TerrainField> field;
    {
      const formats::TerrainFile terrain = formats::read_terrain_file(file);
      field.emplace(geometry::terrain_field(terrain.phi, file));
      offset = terrain.georeference.origin_offset;
      crs = terrain.georeference.crs_wkt;
    }
    return field->flat();
  });
  const Ranks::NodeBlock placed = ranks->share_on_node([&] {
    Bytes laid(sizeof offset + crs.size());
    std::copy_n(reinterpret_cast<const std::byte*>(offset.data()), sizeof offset, laid.data());
    std::copy_n(reinterpret_cast<const std::byte*>(crs.data()), crs.size(), laid.data() + sizeof offset);
    return laid;
  });
  formats::Georeference georeference;
  std::memcpy(georeference.offset.data(), placed.bytes.data(), sizeof(formats::Vec3));
  georeference.crs_wkt.assign(reinterpret_cast<const char*>(placed.bytes.data()) + sizeof(formats::Vec3),
                              placed.bytes.size() - sizeof(formats::Vec3));
  fixtures.georeference = std::move(georeference);
  fixtures.terrain = std::make_shared<const TerrainField>(TerrainField::in_place(block.bytes, block.keep));
  return fixtures;
}

// The world of `bodies` (a state's grains, or a rank's slice of them) with the case's templates,
// walls, terrain and settings, at the time of the state `head`; nothing checked across the
// grains yet, no books or contacts restored.
// Shared among `ranks`, the templates and the terrain lie once on each node.
Simulation assemble_simulation(const formats::Case& setup, const formats::State& head, const formats::Bodies& bodies,
                               const Ranks* ranks = nullptr) {
  Simulation sim;
  sim.setup = setup;
  World& w = sim.world;

  if (!head.membranes.empty())
    throw formats::FileError(setup.initial_state, "/membranes: flexible nets are not available yet: a state with nets (" +
                                                      head.membranes.front().name + ") cannot be run");
  // One shape per case template, and the state's templates mapped onto them.
  std::vector<std::size_t> shape_of_state_template;
  for (const std::string& entry : head.templates)
    shape_of_state_template.push_back(case_template(setup, setup.initial_state, entry));
  Fixtures fixtures = read_fixtures(setup, ranks);
  w.shapes = std::move(fixtures.shapes);
  sim.template_names.clear();
  for (const formats::GrainTemplate& t : setup.templates) sim.template_names.push_back(t.name);
  // A restart continues its run; anything else starts a new one.
  sim.run = head.kind == formats::StateKind::checkpoint && !head.run.empty() ? head.run : new_run_name();

  // Contact laws between every pair of materials.
  w.material_count = std::uint32_t(setup.materials.size());
  w.laws.assign(std::size_t(w.material_count) * w.material_count, {});
  for (std::uint32_t a = 0; a < w.material_count; ++a)
    for (std::uint32_t b = 0; b < w.material_count; ++b) {
      const formats::ContactLaw law = formats::contact_law(setup, setup.materials[a].name, setup.materials[b].name);
      w.laws[a * w.material_count + b] = {law.friction, law.restitution};
    }

  // Grains in the order of their ids, whatever the state's order: every order the step takes
  // (pairs, islands, units, tiles) follows body indices, so a rank holding some of the grains
  // takes them in the same order as one holding all (docs/parallel.md).
  std::vector<std::size_t> by_id(bodies.size());
  std::iota(by_id.begin(), by_id.end(), std::size_t(0));
  std::sort(by_id.begin(), by_id.end(), [&](std::size_t x, std::size_t y) { return bodies.id[x] < bodies.id[y]; });
  for (const std::size_t i : by_id) {
    const std::size_t t = shape_of_state_template[bodies.template_index[i]];
    const formats::Material& material = setup.material(setup.templates[t].material);
    const auto& q = bodies.orientation[i];
    // A state's orientations are unit to 1e-6 (docs/formats.md) and normalised here; a
    // checkpoint's are the run's own, taken bit for bit: normalising a unit quaternion again
    // moves its last bits, and a restart then drifts from the run it continues.
    Quat orientation(q[0], q[1], q[2], q[3]);
    if (head.kind != formats::StateKind::checkpoint) orientation.normalize();
    const std::uint32_t g = w.add_grain(bodies.id[i], std::uint32_t(t), material_index(setup, material.name),
                                        *material.density, bodies.scale[i], vec(bodies.position[i]), orientation);
    w.bodies[g].velocity = vec(bodies.velocity[i]);
    w.bodies[g].angular_velocity = vec(bodies.angular_velocity[i]);
  }
  w.time = head.time;
  w.step = head.step;
  for (const formats::Wall& cw : setup.walls) {
    Wall wall;
    wall.shape = cw.type == formats::WallType::plane ? WallShape::plane : WallShape::box;
    // Where the case has it, at t = 0: add_wall places it at the run's time.
    wall.point = vec(cw.point);
    wall.normal = vec(cw.normal);
    wall.min = vec(cw.min);
    wall.max = vec(cw.max);
    wall.velocity = vec(cw.velocity);
    wall.material = material_index(setup, cw.material);
    w.add_wall(wall);
  }
  if (fixtures.terrain) w.set_terrain(std::move(fixtures.terrain), material_index(setup, setup.terrain->material));
  sim.georeference = std::move(fixtures.georeference);

  sim.settings.time_step = setup.time.step;
  sim.settings.gravity = vec(setup.gravity);
  sim.settings.global_damping = setup.global_damping;
  sim.settings.scheme = setup.scheme.type;
  sim.settings.impulse.collisions = {setup.scheme.impulse.increments, setup.scheme.impulse.group_tolerance,
                             setup.scheme.impulse.max_rounds};
  sim.settings.impulse.boundary_iterations = setup.scheme.impulse.boundary_iterations;
  sim.settings.impulse.warm_start = setup.scheme.impulse.warm_start;
  sim.settings.impulse.resting_tolerance = setup.scheme.impulse.resting_tolerance;
  sim.settings.impulse.resting_passes = setup.scheme.impulse.resting_passes;
  sim.settings.impulse.resting_passes_per_layer = setup.scheme.impulse.resting_passes_per_layer;
  sim.settings.impulse.resting_conjugate = setup.scheme.impulse.resting_conjugate;
  sim.settings.impulse.resting_coarse_every = setup.scheme.impulse.resting_coarse_every;

  return sim;
}

// Refuses grains that start inside each other or a wall and a first step above the Courant
// limit, and keeps the energy the run starts with. Shared among ranks, each rank checks its
// part of the contacts (SearchShare) and its grains, and every rank refuses what one process
// would: the first overlap in the search's order, and how many there are. A checkpoint's
// grains are not checked for overlaps (`restarting`).
void check_start(Simulation& sim, bool restarting) {
  const formats::Case& setup = sim.setup;
  const World& w = sim.world;
  const RankShare* share = sim.share.get();
  std::optional<SearchShare> search;
  if (share) search.emplace(share->search());
  // A checkpoint is the run's own state: grains pressed into each other in a dense flow are
  // how the run left them, and it continues from them.
  const std::vector<Overlap> found =
      restarting ? std::vector<Overlap>() : overlaps(w, overlap_fraction, search ? &*search : nullptr);
  std::int64_t count = std::int64_t(found.size());
  if (share) share->ranks.sum(std::span(&count, 1));
  if (count > 0) {
    std::optional<RankFailure> first;
    if (!found.empty()) {
      const Overlap& o = found.front();
      const std::string other = o.other_grain >= 0 ? "grain " + std::to_string(w.id[o.other_grain])
                                : o.wall >= 0      ? "wall '" + setup.walls[o.wall].name + "'"
                                                   : "the terrain";
      // The search's order: grain pairs by their ids, then each grain's walls and the terrain.
      const std::uint64_t id = w.id[o.grain];
      first = RankFailure{o.other_grain >= 0 ? std::pair{id, std::uint64_t(w.id[o.other_grain])}
                                             : std::pair{formats::first_reserved_id | id,
                                                         std::uint64_t(o.wall >= 0 ? o.wall : std::int64_t(w.walls.size()))},
                          setup.initial_state,
                          "grain " + std::to_string(id) + " starts " + std::to_string(o.depth) + " m inside " + other +
                              " (more than 5 % of its half-width); " + std::to_string(count) + " such overlaps"};
    }
    if (share) throw_first_failure(first, share->ranks);
    throw formats::FileError(first->file, first->reason);
  }
  // The Courant number of the first step, with the velocity one step of gravity adds.
  const Vec3 kick = sim.settings.gravity * setup.time.step;
  double courant = courant_number(w, setup.time.step, kick);
  if (share) courant = share->ranks.max(courant);
  if (!setup.time.automatic_step && courant > setup.time.courant_limit && !setup.time.allow_above_courant_limit)
    throw formats::FileError(setup.file, "time.step " + std::to_string(setup.time.step) + " s gives Courant number " +
                                             std::to_string(courant) + " at the start, above time.courant_limit " +
                                             std::to_string(setup.time.courant_limit) +
                                             ": lower the step, or set time.allow_above_courant_limit: true");
  const std::vector<char>* owned = share ? &share->owned : nullptr;
  const ExactSum kinetic = kinetic_energy_part(w, owned), potential = potential_energy_part(w, sim.settings.gravity, owned);
  sim.initial_energy = share ? share->total(kinetic) + share->total(potential) : kinetic.value() + potential.value();
  sim.wall_impulse.assign(w.walls.size(), Vec3::Zero());
}

// A checkpoint's books and times of the next outputs; a new run's first outputs.
void restore_books(Simulation& sim, const formats::State& head) {
  World& w = sim.world;
  const formats::Case& setup = sim.setup;
  if (!head.solver) {
    sim.next_frame_time = sim.next_log_time = w.time;
    sim.next_checkpoint_time = w.time + setup.output.checkpoint_interval.value_or(0);
    return;
  }
  const auto& stored = head.solver->energy_books;
  auto restore = [&](const char* name, double& value) {
    if (const auto it = stored.find(name); it != stored.end()) value = it->second;
  };
  for (const auto& [name, member] : books) restore(name, w.energy.*member);
  restore("initial_energy", sim.initial_energy);
  const std::vector<std::string> impulse_names = wall_impulse_names(setup);
  for (std::size_t k = 0; k < impulse_names.size(); ++k) restore(impulse_names[k].c_str(), sim.wall_impulse[k / 3][k % 3]);
  sim.next_frame_index = head.solver->next_frame_index;
  sim.next_frame_time = head.solver->next_frame_time;
  sim.next_log_time = head.solver->next_log_time;
  sim.next_checkpoint_time = head.solver->next_checkpoint_time;
}

}  // namespace

Simulation load_simulation(const formats::Case& setup, const formats::State& state) {
  Simulation sim = assemble_simulation(setup, state, state.bodies);
  check_start(sim, state.kind == formats::StateKind::checkpoint);
  restore_books(sim, state);
  if (state.solver) restore_contact_cache(sim.world, state.solver->contacts, setup.initial_state);
  return sim;
}

void advance_quietly(Simulation& sim, const std::function<void(double, double)>& progress) {
  const double duration = sim.setup.time.duration;
  sim.next_log_time = sim.next_frame_time = sim.next_checkpoint_time = duration;  // no output before the end
  const double half = time_round_off(sim.setup.time);
  while (sim.world.time < duration - half) {
    sim.settings.time_step = next_time_step(sim);
    advance(sim.world, sim.settings, sim.share.get());
    if (progress) progress(sim.world.time, duration);
  }
}

bool run_simulation(Simulation& sim, bool restarting, const std::function<void(double, double)>& progress,
                    const std::function<bool()>& stop_requested) {
  const formats::Case& c = sim.setup;
  World& w = sim.world;
  std::filesystem::create_directories(c.output.directory);
  std::vector<formats::CsvColumn> columns;
  const std::vector<std::string> names = log_column_names(c);
  std::map<std::string, std::string> units{{"step", "1"},     {"time", "s"},    {"contacts", "1"},
                                                 {"islands", "1"},  {"increments", "1"}, {"sweeps", "1"},
                                                 {"passes", "1"},   {"courant", "1"}};
  for (const std::string& name : wall_impulse_names(c)) units[name] = "N*s";
  for (const std::string& name : names) columns.push_back({name, units.count(name) ? units.at(name) : "J"});
  // Rank 0 writes the log (every rank holds the same sums).
  std::optional<formats::CsvLogWriter> log;
  if (!sim.share || sim.share->ranks.rank() == 0) log.emplace(c.output.log, columns, restarting);

  const double half = time_round_off(c.time);
  StepReport report;
  auto write_log = [&] {
    const EnergyBooks& e = w.energy;
    const std::vector<char>* owned = sim.share ? &sim.share->owned : nullptr;
    ExactSum kinetic_part = kinetic_energy_part(w, owned), potential_part = potential_energy_part(w, sim.settings.gravity, owned);
    const double kinetic = sim.share ? sim.share->total(kinetic_part) : kinetic_part.value();
    const double potential = sim.share ? sim.share->total(potential_part) : potential_part.value();
    if (!log) return;
    std::vector<double> row{double(w.step), w.time, kinetic, potential, 0};
    for (const auto& book : books) row.push_back(e.*book.second);
    for (double v : {kinetic + potential + e.total() - sim.initial_energy, double(report.contacts),
                     double(report.islands), double(report.increments), double(report.sweeps), double(report.passes), report.courant})
      row.push_back(v);
    for (const Vec3& impulse : sim.wall_impulse) row.insert(row.end(), impulse.data(), impulse.data() + 3);
    log->write_row(row);
  };
  auto outputs = [&] {
    if (w.time >= sim.next_log_time - half) {
      write_log();
      sim.next_log_time += c.output.log_interval;
    }
    if (w.time >= sim.next_frame_time - half) {
      write_snapshot(sim, c.output.directory / frame_name(sim.next_frame_index++), formats::StateKind::frame);
      sim.next_frame_time += c.output.frame_interval;
    }
    if (c.output.checkpoint_interval && w.time >= sim.next_checkpoint_time - half && w.step > 0) {
      sim.next_checkpoint_time += *c.output.checkpoint_interval;
      write_snapshot(sim, c.output.directory / "checkpoint.h5", formats::StateKind::checkpoint);
    }
  };
  if (!restarting) outputs();
  using Clock = std::chrono::steady_clock;
  auto seconds_since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  const Clock::time_point stepping_start = Clock::now();
  const double with_others_before = solver::seconds_with_other_ranks;
  while (w.time < c.time.duration - half) {
    sim.settings.time_step = next_time_step(sim);
    report = advance(w, sim.settings, sim.share.get());
    sim.times.phases += report.times;
    ++sim.times.steps;
    for (std::size_t k = 0; k < sim.wall_impulse.size(); ++k) sim.wall_impulse[k] += report.wall_impulse[k];
    const Clock::time_point output_start = Clock::now();
    const double output_with_others_before = solver::seconds_with_other_ranks;
    outputs();
    sim.times.output += seconds_since(output_start);
    sim.times.output_with_others += solver::seconds_with_other_ranks - output_with_others_before;
    sim.times.stepping = seconds_since(stepping_start);
    sim.times.stepping_with_others = solver::seconds_with_other_ranks - with_others_before;
    if (progress) progress(w.time, c.time.duration);
    // A signal to one rank stops every rank after the same step.
    const bool stop = stop_requested && stop_requested();
    if (sim.share ? sim.share->ranks.max(stop ? 1.0 : 0.0) > 0 : stop) break;
  }
  write_snapshot(sim, c.output.directory / "checkpoint.h5", formats::StateKind::checkpoint);
  return w.time >= c.time.duration - half;
}

void check_rank_count(const formats::Case& c, int ranks) {
  const auto& grid = c.parallel.ranks;
  if (!grid) return;
  const int count = (*grid)[0] * (*grid)[1] * (*grid)[2];
  if (count != ranks)
    throw formats::FileError(c.file, "parallel.ranks [" + std::to_string((*grid)[0]) + ", " + std::to_string((*grid)[1]) +
                                         ", " + std::to_string((*grid)[2]) + "] makes " + std::to_string(count) +
                                         " regions, but " + std::to_string(ranks) + (ranks == 1 ? " rank runs" : " ranks run"));
}

namespace {

// Cuts the regions and hands each rank's grains (those `sim.world` holds, all its own) to the
// ranks that are to hold them (docs/parallel.md, "Starting"): the case's parallel.ranks grid
// over the grains' box, or bisection weighing the grains (bisection_weights; one each, before
// their contacts are restored).
void share_among_ranks(Simulation& sim, const Ranks& ranks) {
  World& w = sim.world;
  const formats::Case& c = sim.setup;
  std::vector<Vec3> places;
  for (std::size_t i = 0; i < w.grain_count(); ++i) places.push_back(w.bodies[i].position);
  Decomposition regions;
  if (const auto& grid = c.parallel.ranks) {
    Box bounds;
    for (const Vec3& at : places) bounds.extend(at);
    std::array<double, 3> low{bounds.min().x(), bounds.min().y(), bounds.min().z()},
        high{bounds.max().x(), bounds.max().y(), bounds.max().z()};
    ranks.min(low);
    ranks.max(high);
    bounds = Box(Vec3(low[0], low[1], low[2]), Vec3(high[0], high[1], high[2]));
    if (bounds.isEmpty()) bounds = Box(Vec3::Zero(), Vec3::Zero());
    regions = Decomposition::cartesian(bounds, *grid);
  } else {
    regions = Decomposition::bisection(places, bisection_weights(w), ranks.size(), ranks);
  }
  // The halo: how far two grains can touch (their bounding radii, the glue distance, the
  // contact search's margin at the case's step), and a skin of half the largest radius that
  // the grains may move between hand-overs.
  double radius = 0;
  for (std::size_t i = 0; i < w.grain_count(); ++i) {
    const GrainShape& shape = w.shapes[w.shape[i]];
    radius = std::max(radius, (shape.bounding_radius + shape.glue_distance) * w.scale[i]);
  }
  radius = ranks.max(radius);
  const double dt = c.time.step;
  const double resting_speed = sim.settings.impulse.resting_speed >= 0 ? sim.settings.impulse.resting_speed
                                                                        : 3 * sim.settings.gravity.norm() * dt;
  auto share = std::make_shared<RankShare>();
  share->ranks = ranks;
  share->regions = regions;
  share->reach = largest_reach(radius, std::max(resting_speed * dt, 1e-6 * radius));
  share->skin = 0.5 * radius;
  // Regions cut by bisection are cut anew as the mass travels, when a rank owns a twentieth
  // more than its share: at a fifth, the demo's avalanche left one of two ranks 14 % more
  // grains to search, and the other waited 1.1 s of 30 (docs/benchmarks.md); a cut is a few
  // reductions, five in its 284 steps. A grid stays as the case has it.
  share->recut_above = c.parallel.ranks ? 0 : 1.05;
  share->paced = !ranks.share_cores(omp_get_max_threads());
  share->collision_pace.timed = share->paced;
  share->owned.assign(w.grain_count(), 1);
  share->hand_over(w);
  sim.share = std::move(share);
}

}  // namespace

Simulation load_simulation_across_ranks(const formats::Case& setup, const formats::StateReader& in, const Ranks& ranks) {
  const formats::State& head = in.head();
  // This rank's slice of the rows; the first bad row of any refused on every rank.
  const auto [first, count] = rows_of_rank(in.body_count(), ranks);
  std::optional<formats::Bodies> slice;
  std::optional<RankFailure> failure;
  try {
    slice = in.read_bodies(first, count);
  } catch (const formats::FileError& e) {
    failure = RankFailure{{first, 0}, e.file(), e.reason()};
  }
  throw_first_failure(failure, ranks);
  check_ids_across_ranks(slice->id, first, in.file(), ranks);
  Simulation sim = assemble_simulation(setup, head, *slice, &ranks);
  slice.reset();
  share_among_ranks(sim, ranks);
  World& w = sim.world;
  RankShare& share = *sim.share;
  if (head.solver) {
    std::vector<std::uint64_t> own_ids;
    for (std::size_t i = 0; i < w.grain_count(); ++i)
      if (share.owned[i]) own_ids.push_back(w.id[i]);
    restore_contact_cache(w, contacts_of_own_grains(in, own_ids, ranks), in.file(), ranks);
    // Bisected regions weigh the grains' contacts too (docs/parallel.md, "Decomposition"):
    // cut anew now that they are known.
    if (!setup.parallel.ranks && in.contact_count() > 0) {
      std::vector<Vec3> own_places;
      for (std::size_t i = 0; i < w.grain_count(); ++i)
        if (share.owned[i]) own_places.push_back(w.bodies[i].position);
      share.regions = Decomposition::bisection(own_places, bisection_weights(w, &share.owned), ranks.size(), ranks);
      share.hand_over(w);
    }
  }
  check_start(sim, head.kind == formats::StateKind::checkpoint);
  restore_books(sim, head);
  return sim;
}

}  // namespace scree::run
