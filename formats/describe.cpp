#include "formats/describe.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "formats/avatar.h"
#include "formats/case.h"
#include "formats/csv_log.h"
#include "formats/error.h"
#include "formats/hdf5_io.h"
#include "formats/level_set_file.h"
#include "formats/shape.h"
#include "formats/state.h"
#include "formats/terrain.h"

namespace scree::formats {

namespace {

std::string vec(const std::array<double, 3>& v) {
  std::ostringstream s;
  s << "(" << v[0] << ", " << v[1] << ", " << v[2] << ")";
  return s.str();
}

std::string file_status(const std::filesystem::path& p) {
  std::error_code ec;
  return p.string() + (std::filesystem::exists(p, ec) ? "" : "  (missing)");
}

const char* scheme_name(SchemeType t) {
  switch (t) {
    case SchemeType::impulse: return "impulse (energy tracking)";
  }
  return "?";
}

std::string describe_case(const std::filesystem::path& file) {
  Case c = read_case(file);
  std::ostringstream s;
  s << file.string() << ": case\n"
    << "  scheme        " << scheme_name(c.scheme.type) << "\n"
    << "  time          step " << c.time.step << " s, duration " << c.time.duration << " s ("
    << std::llround(c.time.duration / c.time.step) << " steps)\n"
    << "  output        " << c.output.directory.string() << ", frame every "
    << c.output.frame_interval << " s";
  if (c.output.checkpoint_interval) s << ", checkpoint every " << *c.output.checkpoint_interval << " s";
  s << ", log " << c.output.log.string() << "\n"
    << "  gravity       " << vec(c.gravity) << " m/s^2, global damping " << c.global_damping
    << " 1/s\n"
    << "  materials     ";
  for (size_t i = 0; i < c.materials.size(); ++i) s << (i ? ", " : "") << c.materials[i].name;
  s << "\n  initial state " << file_status(c.initial_state) << "\n";
  // A library's grains in one line (a scan gives hundreds), with any missing file named.
  for (std::size_t i = 0; i < c.templates.size();) {
    const GrainTemplate& t = c.templates[i];
    if (t.sphere_radius) {
      s << "  template      " << t.name << ": sphere of radius " << *t.sphere_radius << " m\n";
      ++i;
      continue;
    }
    if (t.library.empty()) {
      s << "  template      " << t.name << ": " << file_status(t.file) << "\n";
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < c.templates.size() && c.templates[end].library == t.library) ++end;
    s << "  templates     " << end - i << " from library " << t.library.string() << " (" << t.name;
    if (end - i > 1) s << " to " << c.templates[end - 1].name;
    s << ")\n";
    std::error_code ec;
    for (; i < end; ++i)
      if (!std::filesystem::exists(c.templates[i].file, ec))
        s << "                " << c.templates[i].name << ": " << file_status(c.templates[i].file) << "\n";
  }
  if (c.terrain) s << "  terrain       " << file_status(c.terrain->file) << "\n";
  for (const auto& w : c.walls)
    s << "  wall          " << w.name << " (" << (w.type == WallType::plane ? "plane" : "box") << ")\n";
  return s.str();
}

std::string describe_state(const std::filesystem::path& file) {
  State st = read_state(file);
  std::ostringstream s;
  s << file.string() << ": " << to_string(st.kind) << " at t = " << st.time << " s, step "
    << st.step << (st.run.empty() ? "" : ", run " + st.run) << "\n"
    << "  bodies        " << st.bodies.size() << " of " << st.templates.size() << " templates\n";
  if (st.bodies.size() > 0) {
    std::array<double, 3> lo = st.bodies.position[0], hi = lo;
    double vmax = 0;
    for (size_t i = 0; i < st.bodies.size(); ++i) {
      const auto& p = st.bodies.position[i];
      const auto& v = st.bodies.velocity[i];
      for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
      vmax = std::max(vmax, std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
    }
    s << "  centroids     " << vec(lo) << " to " << vec(hi) << " m\n"
      << "  fastest       " << vmax << " m/s\n";
  }
  for (const auto& m : st.membranes)
    s << "  membrane      " << m.name << ": " << m.position.size() << " balls, "
      << m.springs.size() << " springs\n";
  if (st.solver) s << "  contacts      " << st.solver->contacts.size() << " cached\n";
  return s.str();
}

std::string describe_membrane(const std::filesystem::path& file) {
  Membrane m = read_membrane(file);
  size_t anchored = size_t(std::count(m.anchored.begin(), m.anchored.end(), 1));
  std::ostringstream s;
  s << file.string() << ": membrane '" << m.name << "': " << m.position.size() << " balls ("
    << anchored << " anchored), " << m.springs.size() << " springs\n";
  return s.str();
}

std::string level_set_summary(const openvdb::FloatGrid& phi) {
  std::ostringstream s;
  openvdb::CoordBBox box = phi.evalActiveVoxelBoundingBox();
  // The world box of the active voxels' corners (an avatar's transform may rotate).
  openvdb::Vec3d lo(std::numeric_limits<double>::infinity()), hi = -lo;
  for (int corner = 0; corner < 8; ++corner) {
    openvdb::Vec3d p = phi.indexToWorld(openvdb::Vec3d(corner & 4 ? box.max()[0] : box.min()[0],
                                                       corner & 2 ? box.max()[1] : box.min()[1],
                                                       corner & 1 ? box.max()[2] : box.min()[2]));
    lo = openvdb::math::minComponent(lo, p);
    hi = openvdb::math::maxComponent(hi, p);
  }
  s << "  level set     " << phi.activeVoxelCount() << " active voxels of " << phi.voxelSize()[0]
    << " m, " << phi.memUsage() << " bytes in memory\n"
    << "  extent        " << vec({lo[0], lo[1], lo[2]}) << " to " << vec({hi[0], hi[1], hi[2]})
    << " m\n";
  return s.str();
}

std::string describe_avatar(const std::filesystem::path& file) {
  Avatar a = read_avatar(file);
  const auto& p = a.properties;
  std::ostringstream s;
  s << file.string() << ": avatar\n"
    << "  volume        " << p.volume << " m^3\n"
    << "  inertia / rho " << vec(p.inertia_per_density) << " m^5\n"
    << "  nodes         " << a.nodes.size() << "\n"
    << level_set_summary(*a.phi) << "  provenance    " << p.provenance << "\n";
  return s.str();
}

std::string describe_shape(const std::filesystem::path& file) {
  Shape shape = read_shape(file);
  std::ostringstream s;
  s << file.string() << ": shape (source frame; scree-nodes and scree-inertia make it an avatar)\n"
    << "  nodes         " << shape.nodes.size() << "\n"
    << "  source scale  " << shape.source_scale << " m per source unit\n"
    << level_set_summary(*shape.phi) << "  provenance    " << shape.provenance << "\n";
  return s.str();
}

std::string describe_terrain(const std::filesystem::path& file) {
  Terrain t = read_terrain(file);
  std::ostringstream s;
  s << file.string() << ": terrain\n"
    << level_set_summary(*t.phi) << "  origin offset " << vec(t.origin_offset) << " m\n"
    << "  CRS           " << (t.crs_wkt.empty() ? "(none)" : t.crs_wkt.substr(0, 60)) << "\n"
    << "  provenance    " << t.provenance << "\n";
  return s.str();
}

std::string describe_log(const std::filesystem::path& file) {
  CsvTable t = read_csv_log(file);
  std::ostringstream s;
  s << file.string() << ": CSV log, " << t.rows.size() << " rows\n  columns       "
    << csv_header(t.columns) << "\n";
  return s.str();
}

std::string describe_h5(const std::filesystem::path& file) {
  std::string format;
  {
    h5::Handle f = h5::open_file(file);
    h5::Location root{file, f.get(), "/"};
    if (!h5::has_attribute(root, "format"))
      throw FileError(file, "not a scree file: no 'format' attribute on /");
    format = h5::read_string_attribute(root, "format");
  }
  if (format == "scree-state") return describe_state(file);
  if (format == "scree-membrane") return describe_membrane(file);
  throw FileError(file, "unknown scree HDF5 format '" + format + "'");
}

std::string describe_vdb(const std::filesystem::path& file) {
  const std::vector<VdbGrid> grids = read_vdb_grids(file);
  const VdbGrid* phi = vdb::find_grid(grids, "phi");
  if (!phi) throw FileError(file, "no grid named 'phi'");
  const std::string kind = vdb::metadata<std::string>(file, *phi, "scree_format");
  if (kind == "avatar") return describe_avatar(file);
  if (kind == "terrain") return describe_terrain(file);
  if (kind == "shape") return describe_shape(file);
  throw FileError(file, "unknown scree VDB format '" + kind + "'");
}

}  // namespace

std::string describe_file(const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == ".yaml" || ext == ".yml") return describe_case(file);
  if (ext == ".h5" || ext == ".hdf5") return describe_h5(file);
  if (ext == ".vdb") return describe_vdb(file);
  if (ext == ".csv") return describe_log(file);
  throw FileError(file, "unknown kind of file (expected .yaml, .h5, .vdb or .csv)");
}

}  // namespace scree::formats
