#include "formats/case.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "formats/error.h"
#include "formats/grain_library.h"
#include "formats/yaml_schema.h"

namespace scree::formats {

namespace {

using yaml::Map;

std::filesystem::path resolve(const std::filesystem::path& case_file, const std::string& path) {
  std::filesystem::path p(path);
  if (p.is_absolute()) return p;
  return (case_file.parent_path() / p).lexically_normal();
}

// An interval that must be positive and at least one time step long.
double read_interval(Map& m, const std::string& key, double step) {
  double v = m.real(key, yaml::positive);
  if (v < step) m.fail(key, "must be at least time.step (" + yaml::number_text(step) + " s)");
  return v;
}

TimeSettings read_time(Map m) {
  TimeSettings t;
  // `step: auto` with `max_step`, or a fixed step.
  if (m.has("step") && m.node("step").IsScalar() && m.node("step").Scalar() == "auto") {
    t.automatic_step = true;
    t.step = m.real("max_step", yaml::positive);
  } else {
    if (m.has("max_step")) m.fail("max_step", "goes with 'step: auto' only");
    t.step = m.real("step", yaml::positive);
  }
  t.duration = m.real("duration", yaml::positive);
  if (t.duration < t.step) m.fail("duration", "must be at least one time.step");
  t.courant_limit = m.real_or("courant_limit", t.courant_limit, yaml::positive);
  t.allow_above_courant_limit = m.boolean_or("allow_above_courant_limit", false);
  m.finish();
  return t;
}

OutputSettings read_output(Map m, const Case& c) {
  OutputSettings o;
  o.directory = resolve(c.file, m.text_or("directory", "out"));
  o.frame_interval = read_interval(m, "frame_interval", c.time.step);
  if (m.has("checkpoint_interval"))
    o.checkpoint_interval = read_interval(m, "checkpoint_interval", c.time.step);
  o.log_interval = m.has("log_interval") ? read_interval(m, "log_interval", c.time.step)
                                         : o.frame_interval;
  std::filesystem::path log(m.text_or("log", "log.csv"));
  o.log = log.is_absolute() ? log : (o.directory / log).lexically_normal();
  m.finish();
  return o;
}

std::string below_one(double v) {
  return (v >= 0 && v < 1) ? "" : "must lie in [0, 1), got " + yaml::number_text(v);
}

std::string zero_to_one(double v) {
  return (v >= 0 && v <= 1) ? "" : "must lie in [0, 1], got " + yaml::number_text(v);
}

Scheme read_scheme(Map m) {
  Scheme s;
  const std::string type = m.choice("type", {"impulse", "penalty", "pgs"});
  if (type != "impulse")
    m.fail("type", "'" + type + "' is not available yet: scree runs the impulse scheme only (scheme.type: impulse)");
  if (m.has("impulse")) {
    Map p = m.map("impulse");
    auto& q = s.impulse;
    q.increments = int(p.integer_or("increments", q.increments, 1, 1'000'000));
    q.group_tolerance = p.real_or("group_tolerance", q.group_tolerance, below_one);
    q.max_rounds = int(p.integer_or("max_rounds", q.max_rounds, 1, INT_MAX));
    q.boundary_iterations = int(p.integer_or("boundary_iterations", q.boundary_iterations, 0, INT_MAX));
    q.warm_start = p.real_or("warm_start", q.warm_start, zero_to_one);
    q.resting_tolerance = p.real_or("resting_tolerance", q.resting_tolerance, yaml::positive);
    q.resting_passes = int(p.integer_or("resting_passes", q.resting_passes, 1, INT_MAX));
    q.resting_passes_per_layer = int(p.integer_or("resting_passes_per_layer", q.resting_passes_per_layer, 1, INT_MAX));
    q.resting_conjugate = p.boolean_or("resting_conjugate", q.resting_conjugate);
    q.resting_coarse_every = int(p.integer_or("resting_coarse_every", q.resting_coarse_every, 0, INT_MAX));
    p.finish();
  }
  m.finish();
  return s;
}

// Names of a list must be unique; returns the name.
std::string unique_name(Map& item, std::set<std::string>& names) {
  std::string name = item.text("name");
  if (!names.insert(name).second) item.fail("name", "duplicate name '" + name + "'");
  return name;
}

// A reference to a material by name; `need_density` for things that move.
std::string material_ref(Map& item, const Case& c, bool need_density) {
  std::string name = item.text("material");
  auto it = std::find_if(c.materials.begin(), c.materials.end(),
                         [&](const Material& mat) { return mat.name == name; });
  if (it == c.materials.end()) {
    std::string known;
    for (const auto& mat : c.materials) known += (known.empty() ? "" : ", ") + mat.name;
    item.fail("material", "unknown material '" + name + "' (materials: " + known + ")");
  }
  if (need_density && !it->density)
    item.fail("material", "material '" + name + "' has no density, which moving bodies need");
  return name;
}

void read_materials(Map& top, Case& c) {
  std::set<std::string> names;
  for (Map m : top.list("materials")) {
    Material mat;
    mat.name = unique_name(m, names);
    mat.density = m.optional_real("density", yaml::positive);
    mat.friction = m.real("friction", yaml::non_negative);
    mat.restitution = m.real("restitution", yaml::unit_interval);
    m.finish();
    c.materials.push_back(mat);
  }
  if (c.materials.empty()) top.fail("materials", "needs at least one material");

  if (!top.has("interactions")) return;
  std::set<std::pair<std::string, std::string>> pairs;
  for (Map m : top.list("interactions")) {
    YAML::Node names_node = m.node("materials");
    if (!names_node.IsSequence() || names_node.size() != 2)
      m.fail("materials", "expected a list of two material names");
    Interaction in;
    for (int k = 0; k < 2; ++k) {
      std::string name = names_node[k].Scalar();
      if (!std::any_of(c.materials.begin(), c.materials.end(),
                       [&](const Material& mat) { return mat.name == name; }))
        m.fail("materials", "unknown material '" + name + "'");
      (k == 0 ? in.material_a : in.material_b) = name;
    }
    if (!pairs.insert(std::minmax(in.material_a, in.material_b)).second)
      m.fail("materials", "this pair of materials is given twice");
    in.friction = m.real("friction", yaml::non_negative);
    in.restitution = m.real("restitution", yaml::unit_interval);
    m.finish();
    c.interactions.push_back(in);
  }
}

// Templates: an avatar `file`, an analytic `sphere` of the given radius, or a grain
// `library` (scree-ct's index of avatars) that stands for one template per grain, named as
// the library names them.
std::vector<GrainTemplate> read_templates(Map& top, const Case& c) {
  std::vector<GrainTemplate> entries;
  std::set<std::string> names;
  for (Map m : top.list("templates")) {
    if (m.has("library")) {
      if (m.has("name") || m.has("file") || m.has("sphere"))
        m.fail("library", "a library entry names its grains itself: give library and material only");
      const std::filesystem::path file = resolve(c.file, m.text("library"));
      const std::string material = material_ref(m, c, true);
      m.finish();
      for (const LibraryGrain& g : read_grain_library(file).grains) {
        if (!names.insert(g.name).second)
          m.fail("library", "the library's grain '" + g.name + "' has the name of another template");
        entries.push_back({g.name, g.file, std::nullopt, material, file});
      }
      continue;
    }
    GrainTemplate e;
    e.name = unique_name(m, names);
    if (m.has("sphere") == m.has("file")) m.fail("file", "give either file (an avatar), sphere (a radius) or library");
    if (m.has("file"))
      e.file = resolve(c.file, m.text("file"));
    else
      e.sphere_radius = m.real("sphere", yaml::positive);
    e.material = material_ref(m, c, true);
    m.finish();
    entries.push_back(e);
  }
  return entries;
}

Vec3 unit_vector(Map& m, const std::string& key) {
  Vec3 v = m.vec3(key);
  double n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (!(n > 0)) m.fail(key, "must not be the zero vector");
  return {v[0] / n, v[1] / n, v[2] / n};
}

void require_ordered_box(Map& m, const Vec3& min, const Vec3& max) {
  for (int k = 0; k < 3; ++k)
    if (!(min[k] < max[k])) m.fail("max", "must exceed min in every coordinate");
}

void read_walls(Map& top, Case& c) {
  std::set<std::string> names;
  for (Map m : top.list("walls")) {
    Wall w;
    w.name = unique_name(m, names);
    // The name goes into the log's column names.
    if (w.name.empty() || !std::all_of(w.name.begin(), w.name.end(), [](char ch) {
          return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
        }))
      m.fail("name", "wall name '" + w.name + "' must be lower case letters, digits and '_' (it names log columns)");
    w.type = m.choice("type", {"plane", "box"}) == "plane" ? WallType::plane : WallType::box;
    if (w.type == WallType::plane) {
      w.point = m.vec3("point");
      w.normal = unit_vector(m, "normal");
    } else {
      w.min = m.vec3("min");
      w.max = m.vec3("max");
      require_ordered_box(m, w.min, w.max);
    }
    w.velocity = m.vec3_or("velocity", w.velocity);
    w.material = material_ref(m, c, false);
    m.finish();
    c.walls.push_back(w);
  }
}


ParallelSettings read_parallel(Map m) {
  ParallelSettings p;
  if (m.has("ranks")) {
    YAML::Node r = m.node("ranks");
    if (!(r.IsScalar() && r.Scalar() == "auto")) {
      long long n[3] = {0, 0, 0};
      if (!r.IsSequence() || r.size() != 3)
        m.fail("ranks", "expected 'auto' or a list of 3 positive integers [nx, ny, nz]");
      for (int k = 0; k < 3; ++k)
        if (!YAML::convert<long long>::decode(r[k], n[k]) || n[k] < 1 || n[k] > 65536)
          m.fail("ranks", "expected 'auto' or a list of 3 positive integers [nx, ny, nz]");
      p.ranks = std::array<int, 3>{int(n[0]), int(n[1]), int(n[2])};
    }
  }
  m.finish();
  return p;
}

}  // namespace

const Material& Case::material(const std::string& name) const {
  for (const auto& m : materials)
    if (m.name == name) return m;
  throw std::out_of_range("no material named '" + name + "'");
}

ContactLaw contact_law(const Case& c, const std::string& a, const std::string& b) {
  for (const auto& in : c.interactions)
    if ((in.material_a == a && in.material_b == b) || (in.material_a == b && in.material_b == a))
      return {in.friction, in.restitution};
  const Material& ma = c.material(a);
  const Material& mb = c.material(b);
  return {std::min(ma.friction, mb.friction), std::min(ma.restitution, mb.restitution)};
}

Case read_case(const std::filesystem::path& file) {
  YAML::Node root = yaml::load_file(file);
  if (root.IsNull()) throw FileError(file, "empty case file: expected a mapping of sections");
  Case c;
  c.file = file;
  Map top(file, root, "");
  c.time = read_time(top.map("time"));
  c.output = read_output(top.map("output"), c);
  c.scheme = read_scheme(top.map("scheme"));
  c.gravity = top.vec3_or("gravity", c.gravity);
  c.global_damping = top.real_or("global_damping", 0.0, yaml::non_negative);
  if (c.global_damping * c.time.step >= 1)
    top.fail("global_damping", "global_damping × time.step must be < 1");
  c.seed = std::uint64_t(top.integer_or("seed", 1, 0, LLONG_MAX));
  read_materials(top, c);
  c.templates = read_templates(top, c);
  if (c.templates.empty()) top.fail("templates", "needs at least one grain template");
  c.initial_state = resolve(file, top.text("initial_state"));
  if (top.has("terrain")) {
    Map m = top.map("terrain");
    c.terrain = TerrainSettings{resolve(file, m.text("file")), material_ref(m, c, false)};
    m.finish();
  }
  if (top.has("walls")) read_walls(top, c);
  if (top.has("membranes")) top.fail("membranes", "flexible nets are not available yet: remove the key to run without them");
  if (top.has("domain"))
    top.fail("domain", "removing the grains that leave a box is not available yet: remove the key to keep every grain");
  if (top.has("parallel")) c.parallel = read_parallel(top.map("parallel"));
  top.finish();
  return c;
}

}  // namespace scree::formats
