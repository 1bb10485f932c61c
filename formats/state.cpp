#include "formats/state.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "formats/atomic_file.h"
#include "formats/error.h"
#include "formats/hdf5_io.h"

namespace scree::formats {

namespace {

constexpr std::int64_t format_version = 1;
constexpr double quaternion_tolerance = 1e-6;  // allowed | |q| - 1 |

bool finite(const Vec3& v) {
  return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}

// Empty when every array has n entries, else which one does not.
template <class... Arrays>
std::string check_lengths(const std::string& group, size_t n,
                          const std::pair<const char*, size_t>& first, const Arrays&... rest) {
  for (const auto& [name, size] : {first, rest...})
    if (size != n)
      return group + "/" + name + " has " + std::to_string(size) + " entries, expected " +
             std::to_string(n);
  return {};
}

// `values`, the first of them row `first` of the file's.
std::string check_vectors(const std::string& what, const std::vector<Vec3>& values, size_t first = 0) {
  for (size_t i = 0; i < values.size(); ++i)
    if (!finite(values[i])) return what + "[" + std::to_string(first + i) + "] is not finite";
  return {};
}

// The rows of `b`, the first of them row `first` of the file's.
std::string check_bodies(const Bodies& b, size_t template_count, size_t first = 0) {
  size_t n = b.id.size();
  if (auto e = check_lengths("/bodies", n, {"template", b.template_index.size()},
                             std::pair{"scale", b.scale.size()},
                             std::pair{"position", b.position.size()},
                             std::pair{"orientation", b.orientation.size()},
                             std::pair{"velocity", b.velocity.size()},
                             std::pair{"angular_velocity", b.angular_velocity.size()});
      !e.empty())
    return e;
  std::set<std::uint64_t> ids;
  for (size_t i = 0; i < n; ++i) {
    std::string at = "body " + std::to_string(first + i) + ": ";
    if (b.id[i] >= first_reserved_id) return at + "id must be below 2^62";
    if (!ids.insert(b.id[i]).second) return at + "duplicate id " + std::to_string(b.id[i]);
    if (b.template_index[i] >= template_count)
      return at + "template index " + std::to_string(b.template_index[i]) + " but only " +
             std::to_string(template_count) + " templates";
    if (!(std::isfinite(b.scale[i]) && b.scale[i] > 0)) return at + "scale must be > 0";
    const Quat& q = b.orientation[i];
    double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(std::abs(norm - 1) <= quaternion_tolerance))
      return at + "orientation is not a unit quaternion (norm " + std::to_string(norm) + ")";
  }
  for (auto [what, values] : {std::pair{"position", &b.position}, {"velocity", &b.velocity},
                              {"angular_velocity", &b.angular_velocity}})
    if (auto e = check_vectors(std::string("/bodies/") + what, *values, first); !e.empty()) return e;
  return {};
}

std::string check_membrane(const Membrane& m) {
  std::string group = "/membranes/" + m.name;
  if (m.name.empty() || m.name.find('/') != std::string::npos || m.name == "." || m.name == "..")
    return "membrane name '" + m.name + "' must be non-empty and contain no '/'";
  size_t n = m.position.size();
  if (auto e = check_lengths(group, n, {"velocity", m.velocity.size()},
                             std::pair{"radius", m.radius.size()},
                             std::pair{"mass", m.mass.size()},
                             std::pair{"anchored", m.anchored.size()});
      !e.empty())
    return e;
  if (auto e = check_lengths(group, m.springs.size(), {"rest_length", m.rest_length.size()},
                             std::pair{"stiffness", m.stiffness.size()});
      !e.empty())
    return e;
  if (auto e = check_vectors(group + "/position", m.position); !e.empty()) return e;
  if (auto e = check_vectors(group + "/velocity", m.velocity); !e.empty()) return e;
  for (size_t i = 0; i < n; ++i)
    if (!(m.radius[i] > 0 && std::isfinite(m.radius[i]) && m.mass[i] > 0 &&
          std::isfinite(m.mass[i])))
      return group + ": ball " + std::to_string(i) + " needs radius > 0 and mass > 0";
  for (size_t s = 0; s < m.springs.size(); ++s) {
    if (m.springs[s][0] >= n || m.springs[s][1] >= n || m.springs[s][0] == m.springs[s][1])
      return group + ": spring " + std::to_string(s) + " joins balls that do not exist";
    if (!(m.rest_length[s] >= 0 && std::isfinite(m.rest_length[s]) && m.stiffness[s] >= 0 &&
          std::isfinite(m.stiffness[s])))
      return group + ": spring " + std::to_string(s) + " needs rest_length and stiffness >= 0";
  }
  return {};
}

std::string check_contacts(const ContactCache& c, size_t first = 0) {
  if (auto e = check_lengths("/solver/contacts", c.size(), {"body_b", c.body_b.size()},
                             std::pair{"node", c.node.size()},
                             std::pair{"impulse", c.impulse.size()},
                             std::pair{"tangential_displacement",
                                       c.tangential_displacement.size()});
      !e.empty())
    return e;
  for (auto [what, values] : {std::pair{"impulse", &c.impulse}, {"tangential_displacement", &c.tangential_displacement}})
    if (auto e = check_vectors(std::string("/solver/contacts/") + what, *values, first); !e.empty()) return e;
  return {};
}

std::string check_state(const State& s) {
  if (!std::isfinite(s.time)) return "time is not finite";
  if (s.step < 0) return "step must be >= 0";
  if (auto e = check_bodies(s.bodies, s.templates.size()); !e.empty()) return e;
  std::set<std::string> names;
  for (const auto& m : s.membranes) {
    if (auto e = check_membrane(m); !e.empty()) return e;
    if (!names.insert(m.name).second) return "two membranes named '" + m.name + "'";
  }
  if ((s.kind == StateKind::checkpoint) != s.solver.has_value())
    return s.solver ? "solver state is only stored in checkpoints"
                    : "a checkpoint needs the solver state (/solver)";
  if (s.solver) return check_contacts(s.solver->contacts);
  return {};
}

// One list of (dataset name, member) per group, used for writing and for reading alike, so
// the two can never disagree. The struct is const when writing.
constexpr auto body_fields = [](auto& b, auto&& field) {
  field("id", b.id);
  field("template", b.template_index);
  field("scale", b.scale);
  field("position", b.position);
  field("orientation", b.orientation);
  field("velocity", b.velocity);
  field("angular_velocity", b.angular_velocity);
};

constexpr auto membrane_fields = [](auto& m, auto&& field) {
  field("position", m.position);
  field("velocity", m.velocity);
  field("radius", m.radius);
  field("mass", m.mass);
  field("anchored", m.anchored);
  field("springs", m.springs);
  field("rest_length", m.rest_length);
  field("stiffness", m.stiffness);
};

constexpr auto contact_fields = [](auto& c, auto&& field) {
  field("body_a", c.body_a);
  field("body_b", c.body_b);
  field("node", c.node);
  field("impulse", c.impulse);
  field("tangential_displacement", c.tangential_displacement);
};

// Writes the fields of `fields(value, ...)` into a new group `name` below `parent`.
template <class T, class Fields>
void write_group(const h5::Location& parent, const std::string& name, const T& value,
                 Fields&& fields) {
  h5::Handle g = h5::create_group(parent, name);
  h5::Location at{parent.file, g.get(), parent.child(name)};
  fields(value, [&](const char* field, const auto& data) { h5::write_dataset(at, field, data); });
}

template <class T, class Fields>
void read_group(const h5::Location& parent, const std::string& name, T& value, Fields&& fields) {
  h5::Handle g = h5::open_group(parent, name);
  h5::Location at{parent.file, g.get(), parent.child(name)};
  fields(value, [&](const char* field, auto& data) { h5::read_into(at, field, data); });
}


void write_membranes(const h5::Location& root, const std::vector<Membrane>& membranes) {
  h5::Handle g = h5::create_group(root, "membranes");
  h5::Location at{root.file, g.get(), "/membranes"};
  for (const auto& m : membranes) write_group(at, m.name, m, membrane_fields);
}

std::vector<Membrane> read_membranes(const h5::Location& root) {
  std::vector<Membrane> out;
  if (!h5::exists(root, "membranes")) return out;
  h5::Handle g = h5::open_group(root, "membranes");
  h5::Location at{root.file, g.get(), "/membranes"};
  for (const auto& name : h5::children(at)) {
    Membrane& m = out.emplace_back();
    m.name = name;
    read_group(at, name, m, membrane_fields);
  }
  return out;
}

void write_header(const h5::Location& root, const std::string& format) {
  h5::write_attribute(root, "format", format);
  h5::write_attribute(root, "version", format_version);
}

// Checks the root's format name and version; returns nothing, throws on mismatch.
void read_header(const h5::Location& root, const std::string& format) {
  if (!h5::has_attribute(root, "format"))
    throw FileError(root.file, "not a scree file: no 'format' attribute on /");
  std::string found = h5::read_string_attribute(root, "format");
  if (found != format)
    throw FileError(root.file, "is a '" + found + "' file, expected '" + format + "'");
  std::int64_t version = h5::read_int_attribute(root, "version");
  if (version != format_version)
    throw FileError(root.file, "format version " + std::to_string(version) +
                                   " is not supported (this scree reads version " +
                                   std::to_string(format_version) + ")");
}

// Writes through an AtomicFile: nothing appears under `file` unless all of it was written.
template <class WriteBody>
void write_atomically(const std::filesystem::path& file, WriteBody&& body) {
  AtomicFile out(file);
  {
    h5::Handle f = h5::create_file(out.temp_path());
    h5::Location root{file, f.get(), "/"};
    body(root);
    if (H5Fflush(f.get(), H5F_SCOPE_GLOBAL) < 0) throw FileError(file, "cannot flush");
  }
  out.commit();
}

}  // namespace

void Bodies::resize(size_t n) {
  id.resize(n);
  template_index.resize(n);
  scale.resize(n, 1.0);
  position.resize(n);
  orientation.resize(n, Quat{1, 0, 0, 0});
  velocity.resize(n);
  angular_velocity.resize(n);
}

const char* to_string(StateKind kind) {
  switch (kind) {
    case StateKind::state: return "state";
    case StateKind::frame: return "frame";
    case StateKind::checkpoint: return "checkpoint";
  }
  return "?";
}

namespace {

// The state but its grains and contact cache: what StateWriter takes at once.
State head_of(const State& s) {
  State head;
  head.kind = s.kind;
  head.time = s.time;
  head.step = s.step;
  head.run = s.run;
  head.georeference = s.georeference;
  head.templates = s.templates;
  head.membranes = s.membranes;
  if (s.solver) {
    const SolverState& from = *s.solver;
    head.solver = SolverState{{}, from.rng_state, from.next_frame_index, from.next_frame_time, from.next_log_time,
                              from.next_checkpoint_time, from.energy_books};
  }
  return head;
}

}  // namespace

struct StateWriter::Open {
  Open(const std::filesystem::path& to, size_t templates, size_t body_rows, size_t contact_rows)
      : file(to), out(to), template_count(templates), bodies(body_rows), contacts(contact_rows) {}
  std::filesystem::path file;
  AtomicFile out;
  h5::Handle handle, bodies_group, contacts_group;
  size_t template_count, bodies, contacts, bodies_written = 0, contacts_written = 0;
  std::optional<std::uint64_t> greatest_id;  // of the blocks written so far

  h5::Location bodies_at() const { return {file, bodies_group.get(), "/bodies"}; }
  h5::Location contacts_at() const { return {file, contacts_group.get(), "/solver/contacts"}; }
  [[noreturn]] void refuse(const std::string& what) const { throw FileError(file, "cannot write: " + what); }
};

StateWriter::StateWriter(const std::filesystem::path& file, const State& s, size_t bodies, size_t contacts) {
  if (!s.bodies.id.empty() || (s.solver && s.solver->contacts.size() > 0))
    throw FileError(file, "cannot write: the head of a state written in blocks holds no grains or contacts");
  if (auto e = check_state(s); !e.empty()) throw FileError(file, "cannot write: " + e);
  if (!s.solver && contacts > 0) throw FileError(file, "cannot write: contacts are only stored in checkpoints");
  open_ = std::make_unique<Open>(file, s.templates.size(), bodies, contacts);
  open_->handle = h5::create_file(open_->out.temp_path());
  h5::Location root{file, open_->handle.get(), "/"};
  write_header(root, "scree-state");
  h5::write_attribute(root, "kind", std::string(to_string(s.kind)));
  h5::write_attribute(root, "time", s.time);
  h5::write_attribute(root, "step", s.step);
  if (!s.run.empty()) h5::write_attribute(root, "run", s.run);
  if (s.georeference) {
    const auto& o = s.georeference->offset;
    h5::write_dataset(root, "map_offset", std::vector<double>{o[0], o[1], o[2]});
    h5::write_attribute(root, "crs", s.georeference->crs_wkt);
  }
  h5::write_strings(root, "templates", s.templates);

  open_->bodies_group = h5::create_group(root, "bodies");
  body_fields(s.bodies, [&](const char* field, const auto& like) { h5::create_rows_like(open_->bodies_at(), field, bodies, like); });

  write_membranes(root, s.membranes);

  if (s.solver) {
    h5::Handle sg = h5::create_group(root, "solver");
    h5::Location solver{file, sg.get(), "/solver"};
    const SolverState& ss = *s.solver;
    h5::write_attribute(solver, "rng_state", ss.rng_state);
    h5::write_attribute(solver, "next_frame_index", ss.next_frame_index);
    h5::write_attribute(solver, "next_frame_time", ss.next_frame_time);
    h5::write_attribute(solver, "next_log_time", ss.next_log_time);
    h5::write_attribute(solver, "next_checkpoint_time", ss.next_checkpoint_time);
    open_->contacts_group = h5::create_group(solver, "contacts");
    contact_fields(ss.contacts, [&](const char* field, const auto& like) {
      h5::create_rows_like(open_->contacts_at(), field, contacts, like);
    });
    std::vector<std::string> names;
    std::vector<double> values;
    for (const auto& [name, value] : ss.energy_books) names.push_back(name), values.push_back(value);
    h5::write_strings(solver, "energy_book_names", names);
    h5::write_dataset(solver, "energy_books", values);
  }
}

StateWriter::~StateWriter() = default;

void StateWriter::write_bodies(const Bodies& block) {
  Open& o = *open_;
  if (auto e = check_bodies(block, o.template_count, o.bodies_written); !e.empty()) o.refuse(e);
  if (block.size() == 0) return;
  if (o.bodies_written + block.size() > o.bodies)
    o.refuse("/bodies: " + std::to_string(o.bodies_written + block.size()) + " grains, expected " + std::to_string(o.bodies));
  const std::uint64_t least = *std::min_element(block.id.begin(), block.id.end());
  if (o.greatest_id && least <= *o.greatest_id)
    o.refuse("/bodies: id " + std::to_string(least) + " after id " + std::to_string(*o.greatest_id) +
             " of an earlier block (blocks in ascending ids)");
  o.greatest_id = *std::max_element(block.id.begin(), block.id.end());
  body_fields(block, [&](const char* field, const auto& rows) { h5::write_block(o.bodies_at(), field, o.bodies_written, rows); });
  o.bodies_written += block.size();
}

void StateWriter::write_contacts(const ContactCache& block) {
  Open& o = *open_;
  if (auto e = check_contacts(block, o.contacts_written); !e.empty()) o.refuse(e);
  if (block.size() == 0) return;
  if (o.contacts_written + block.size() > o.contacts)
    o.refuse("/solver/contacts: " + std::to_string(o.contacts_written + block.size()) + " contacts, expected " +
             std::to_string(o.contacts));
  contact_fields(block, [&](const char* field, const auto& rows) {
    h5::write_block(o.contacts_at(), field, o.contacts_written, rows);
  });
  o.contacts_written += block.size();
}

void StateWriter::commit() {
  Open& o = *open_;
  if (o.bodies_written != o.bodies)
    o.refuse("/bodies: " + std::to_string(o.bodies_written) + " grains written, expected " + std::to_string(o.bodies));
  if (o.contacts_written != o.contacts)
    o.refuse("/solver/contacts: " + std::to_string(o.contacts_written) + " contacts written, expected " +
             std::to_string(o.contacts));
  o.bodies_group = h5::Handle();
  o.contacts_group = h5::Handle();
  if (H5Fflush(o.handle.get(), H5F_SCOPE_GLOBAL) < 0) throw FileError(o.file, "cannot flush");
  o.handle = h5::Handle();
  o.out.commit();
}

void write_state(const std::filesystem::path& file, const State& s) {
  // One block of grains in any order, checked as a whole by write_bodies.
  const size_t contacts = s.solver ? s.solver->contacts.size() : 0;
  StateWriter out(file, head_of(s), s.bodies.size(), contacts);
  out.write_bodies(s.bodies);
  if (s.solver) out.write_contacts(s.solver->contacts);
  out.commit();
}

struct StateReader::Open {
  std::filesystem::path file;
  h5::Handle handle, bodies_group, contacts_group;
  State head;
  size_t bodies = 0, contacts = 0;

  h5::Location bodies_at() const { return {file, bodies_group.get(), "/bodies"}; }
  h5::Location contacts_at() const { return {file, contacts_group.get(), "/solver/contacts"}; }
};

namespace {

// The rows of every field of a group, which must agree with the first's.
template <class T, class Fields>
size_t count_group_rows(const h5::Location& at, const T& value, Fields&& fields) {
  std::optional<size_t> rows;
  std::string first;
  fields(value, [&](const char* field, const auto& like) {
    const size_t n = h5::count_rows_like(at, field, like);
    if (!rows) rows = n, first = field;
    else if (n != *rows)
      throw FileError(at.file, at.name + "/" + field + " has " + std::to_string(n) + " entries, expected " +
                                   std::to_string(*rows));
  });
  return rows.value_or(0);
}

}  // namespace

StateReader::StateReader(const std::filesystem::path& file) : open_(std::make_unique<Open>()) {
  Open& o = *open_;
  o.file = file;
  o.handle = h5::open_file(file);
  h5::Location root{file, o.handle.get(), "/"};
  read_header(root, "scree-state");
  State& s = o.head;
  std::string kind = h5::read_string_attribute(root, "kind");
  if (kind == "state") s.kind = StateKind::state;
  else if (kind == "frame") s.kind = StateKind::frame;
  else if (kind == "checkpoint") s.kind = StateKind::checkpoint;
  else throw FileError(file, "unknown kind '" + kind + "' (state, frame or checkpoint)");
  s.time = h5::read_double_attribute(root, "time");
  s.step = h5::read_int_attribute(root, "step");
  if (h5::has_attribute(root, "run")) s.run = h5::read_string_attribute(root, "run");
  if (h5::exists(root, "map_offset")) {
    const auto offset = h5::read_dataset<double>(root, "map_offset");
    if (offset.size() != 3) throw FileError(file, "/map_offset holds " + std::to_string(offset.size()) + " numbers, not 3");
    s.georeference =
        Georeference{{offset[0], offset[1], offset[2]}, h5::has_attribute(root, "crs") ? h5::read_string_attribute(root, "crs") : ""};
  }
  s.templates = h5::read_strings(root, "templates");

  o.bodies_group = h5::open_group(root, "bodies");
  o.bodies = count_group_rows(o.bodies_at(), s.bodies, body_fields);

  s.membranes = read_membranes(root);

  if (h5::exists(root, "solver")) {
    h5::Handle sg = h5::open_group(root, "solver");
    h5::Location solver{file, sg.get(), "/solver"};
    SolverState ss;
    ss.rng_state = h5::read_string_attribute(solver, "rng_state");
    ss.next_frame_index = h5::read_int_attribute(solver, "next_frame_index");
    ss.next_frame_time = h5::read_double_attribute(solver, "next_frame_time");
    ss.next_log_time = h5::read_double_attribute(solver, "next_log_time");
    ss.next_checkpoint_time = h5::read_double_attribute(solver, "next_checkpoint_time");
    o.contacts_group = h5::open_group(solver, "contacts");
    o.contacts = count_group_rows(o.contacts_at(), ss.contacts, contact_fields);
    if (h5::exists(solver, "energy_books")) {
      const auto names = h5::read_strings(solver, "energy_book_names");
      const auto values = h5::read_dataset<double>(solver, "energy_books");
      if (names.size() != values.size())
        throw FileError(file, "/solver/energy_books has " + std::to_string(values.size()) + " values for " +
                                  std::to_string(names.size()) + " names");
      for (std::size_t k = 0; k < names.size(); ++k) ss.energy_books[names[k]] = values[k];
    }
    s.solver = std::move(ss);
  }
  if (auto e = check_state(s); !e.empty()) throw FileError(file, e);
}

StateReader::~StateReader() = default;
const State& StateReader::head() const { return open_->head; }
const std::filesystem::path& StateReader::file() const { return open_->file; }
size_t StateReader::body_count() const { return open_->bodies; }
size_t StateReader::contact_count() const { return open_->contacts; }

Bodies StateReader::read_bodies(size_t first, size_t count) const {
  const Open& o = *open_;
  Bodies block;
  body_fields(block, [&](const char* field, auto& rows) { h5::read_block(o.bodies_at(), field, first, count, rows); });
  if (auto e = check_bodies(block, o.head.templates.size(), first); !e.empty()) throw FileError(o.file, e);
  return block;
}

ContactCache StateReader::read_contacts(size_t first, size_t count) const {
  const Open& o = *open_;
  ContactCache block;
  if (!o.head.solver) {
    if (count > 0) throw FileError(o.file, "holds no contacts (not a checkpoint)");
    return block;
  }
  contact_fields(block, [&](const char* field, auto& rows) { h5::read_block(o.contacts_at(), field, first, count, rows); });
  if (auto e = check_contacts(block, first); !e.empty()) throw FileError(o.file, e);
  return block;
}

State read_state(const std::filesystem::path& file) {
  const StateReader in(file);
  State s = in.head();
  s.bodies = in.read_bodies(0, in.body_count());
  if (s.solver) s.solver->contacts = in.read_contacts(0, in.contact_count());
  return s;
}

void write_membrane(const std::filesystem::path& file, const Membrane& m) {
  if (auto e = check_membrane(m); !e.empty()) throw FileError(file, "cannot write: " + e);
  write_atomically(file, [&](const h5::Location& root) {
    write_header(root, "scree-membrane");
    write_membranes(root, {m});
  });
}

Membrane read_membrane(const std::filesystem::path& file) {
  h5::Handle f = h5::open_file(file);
  h5::Location root{file, f.get(), "/"};
  read_header(root, "scree-membrane");
  std::vector<Membrane> ms = read_membranes(root);
  if (ms.size() != 1)
    throw FileError(file, "a membrane file holds exactly one group under /membranes, found " +
                              std::to_string(ms.size()));
  if (auto e = check_membrane(ms[0]); !e.empty()) throw FileError(file, e);
  return ms[0];
}

}  // namespace scree::formats
