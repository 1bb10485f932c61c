#include <yaml-cpp/yaml.h>

#include <charconv>
#include <fstream>

#include "formats/atomic_file.h"
#include "formats/case.h"
#include "formats/error.h"

namespace scree::formats {

namespace {

// The shortest decimal that reads back to the same double.
std::string number(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

class CaseEmitter {
 public:
  explicit CaseEmitter(std::filesystem::path folder) : folder_(std::move(folder)) {}

  void key(const char* k) { out_ << YAML::Key << k << YAML::Value; }
  void real(const char* k, double v) { key(k), out_ << number(v); }
  void integer(const char* k, long long v) { key(k), out_ << std::to_string(v); }
  void text(const char* k, const std::string& v) { key(k), out_ << v; }
  void vec3(const char* k, const Vec3& v) {
    key(k);
    out_ << YAML::Flow << YAML::BeginSeq << number(v[0]) << number(v[1]) << number(v[2])
         << YAML::EndSeq;
  }
  // Relative to `base` where possible, so the case stays valid when its folder moves.
  void path(const char* k, const std::filesystem::path& p, const std::filesystem::path& base) {
    std::filesystem::path rel = p.lexically_relative(base);
    text(k, rel.empty() ? p.string() : rel.string());
  }
  void path(const char* k, const std::filesystem::path& p) { path(k, p, folder_); }
  void begin_map(const char* k) { key(k), out_ << YAML::BeginMap; }
  void begin_list(const char* k) { key(k), out_ << YAML::BeginSeq; }
  YAML::Emitter& out() { return out_; }

 private:
  std::filesystem::path folder_;
  YAML::Emitter out_;
};

void emit_scheme(CaseEmitter& e, const Scheme& s) {
  e.begin_map("scheme");
  switch (s.type) {
    case SchemeType::impulse:
      e.text("type", "impulse");
      e.begin_map("impulse");
      e.integer("increments", s.impulse.increments);
      e.real("group_tolerance", s.impulse.group_tolerance);
      e.integer("max_rounds", s.impulse.max_rounds);
      e.integer("boundary_iterations", s.impulse.boundary_iterations);
      e.real("warm_start", s.impulse.warm_start);
      e.real("resting_tolerance", s.impulse.resting_tolerance);
      e.integer("resting_passes", s.impulse.resting_passes);
      e.integer("resting_passes_per_layer", s.impulse.resting_passes_per_layer);
      e.text("resting_conjugate", s.impulse.resting_conjugate ? "true" : "false");
      e.integer("resting_coarse_every", s.impulse.resting_coarse_every);
      break;
  }
  e.out() << YAML::EndMap << YAML::EndMap;
}

void emit_case(CaseEmitter& e, const Case& c) {
  e.out() << YAML::BeginMap;
  e.begin_map("time");
  if (c.time.automatic_step) {
    e.text("step", "auto");
    e.real("max_step", c.time.step);
  } else {
    e.real("step", c.time.step);
  }
  e.real("duration", c.time.duration);
  e.real("courant_limit", c.time.courant_limit);
  e.text("allow_above_courant_limit", c.time.allow_above_courant_limit ? "true" : "false");
  e.out() << YAML::EndMap;

  e.begin_map("output");
  e.path("directory", c.output.directory);
  e.real("frame_interval", c.output.frame_interval);
  if (c.output.checkpoint_interval) e.real("checkpoint_interval", *c.output.checkpoint_interval);
  e.real("log_interval", c.output.log_interval);
  e.path("log", c.output.log, c.output.directory);
  e.out() << YAML::EndMap;

  emit_scheme(e, c.scheme);
  e.vec3("gravity", c.gravity);
  e.real("global_damping", c.global_damping);
  e.integer("seed", static_cast<long long>(c.seed));

  e.begin_list("materials");
  for (const auto& m : c.materials) {
    e.out() << YAML::BeginMap;
    e.text("name", m.name);
    if (m.density) e.real("density", *m.density);
    e.real("friction", m.friction);
    e.real("restitution", m.restitution);
    e.out() << YAML::EndMap;
  }
  e.out() << YAML::EndSeq;
  if (!c.interactions.empty()) {
    e.begin_list("interactions");
    for (const auto& in : c.interactions) {
      e.out() << YAML::BeginMap;
      e.key("materials");
      e.out() << YAML::Flow << YAML::BeginSeq << in.material_a << in.material_b << YAML::EndSeq;
      e.real("friction", in.friction);
      e.real("restitution", in.restitution);
      e.out() << YAML::EndMap;
    }
    e.out() << YAML::EndSeq;
  }
  e.begin_list("templates");
  for (const auto& t : c.templates) {
    e.out() << YAML::BeginMap;
    e.text("name", t.name);
    if (t.sphere_radius)
      e.real("sphere", *t.sphere_radius);
    else
      e.path("file", t.file);
    e.text("material", t.material);
    e.out() << YAML::EndMap;
  }
  e.out() << YAML::EndSeq;
  e.path("initial_state", c.initial_state);
  if (c.terrain) {
    e.begin_map("terrain");
    e.path("file", c.terrain->file);
    e.text("material", c.terrain->material);
    e.out() << YAML::EndMap;
  }
  if (!c.walls.empty()) {
    e.begin_list("walls");
    for (const auto& w : c.walls) {
      e.out() << YAML::BeginMap;
      e.text("name", w.name);
      if (w.type == WallType::plane) {
        e.text("type", "plane");
        e.vec3("point", w.point);
        e.vec3("normal", w.normal);
      } else {
        e.text("type", "box");
        e.vec3("min", w.min);
        e.vec3("max", w.max);
      }
      e.vec3("velocity", w.velocity);
      e.text("material", w.material);
      e.out() << YAML::EndMap;
    }
    e.out() << YAML::EndSeq;
  }
  if (c.parallel.ranks) {
    const std::array<int, 3>& r = *c.parallel.ranks;
    e.begin_map("parallel");
    e.key("ranks");
    e.out() << YAML::Flow << YAML::BeginSeq << r[0] << r[1] << r[2] << YAML::EndSeq;
    e.out() << YAML::EndMap;
  }
  e.out() << YAML::EndMap;
}

}  // namespace

void write_case(const std::filesystem::path& file, const Case& c) {
  CaseEmitter e(file.parent_path());
  emit_case(e, c);
  if (!e.out().good()) throw FileError(file, "cannot write: " + e.out().GetLastError());
  AtomicFile out(file);
  {
    std::ofstream stream(out.temp_path());
    stream << "# scree case file (docs/formats.md)\n" << e.out().c_str() << "\n";
    if (!stream.flush()) throw FileError(file, "cannot write (disk full?)");
  }
  // What the reader would refuse is never written: read the new file back before it appears.
  try {
    read_case(out.temp_path());
  } catch (const FileError& e) {
    throw FileError(file, "cannot write: " + e.reason());
  }
  out.commit();
}

}  // namespace scree::formats
