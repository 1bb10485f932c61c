#include "formats/level_set_file.h"

#include <cmath>

#include "formats/atomic_file.h"
#include "formats/avatar.h"

namespace scree::formats {

openvdb::Coord node_coord(std::size_t i) {
  return openvdb::Coord(int(i / 64), int((i / 8) % 8), int(i % 8));
}

}  // namespace scree::formats

namespace scree::formats::vdb {

namespace {
constexpr int format_version = 1;
}

void initialize() { openvdb::initialize(); }

openvdb::GridPtrVecPtr read_grids(const std::filesystem::path& file) {
  initialize();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) throw FileError(file, "cannot open: no such file");
  try {
    openvdb::io::File f(file.string());
    f.open(false);  // no delayed loading: read everything now, so errors surface here
    auto grids = f.getGrids();
    f.close();
    return grids;
  } catch (const openvdb::Exception& e) {
    throw FileError(file, std::string("not a readable OpenVDB file (") + e.what() + ")");
  } catch (const std::exception& e) {
    throw FileError(file, std::string("cannot read OpenVDB file (truncated?): ") + e.what());
  }
}

openvdb::GridBase::Ptr find_grid(const openvdb::GridPtrVec& grids, const std::string& name) {
  for (const auto& g : grids)
    if (g && g->getName() == name) return g;
  return nullptr;
}

bool cubic_voxels(const openvdb::math::Transform& xform) {
  // Not Transform::hasUniformScale(): it takes a map with voxels below ~1 mm (det < 1e-8)
  // for singular, and sand grains have such voxels. Cubic: the columns of the linear part
  // are orthogonal and of one length, relative to that length.
  if (!xform.isLinear()) return false;
  const openvdb::Mat3d m = xform.baseMap()->getAffineMap()->getMat4().getMat3();
  openvdb::Vec3d column[3];
  for (int j = 0; j < 3; ++j) column[j] = openvdb::Vec3d(m(0, j), m(1, j), m(2, j));
  const double scale2 = column[0].lengthSqr();
  if (!(scale2 > 0) || !std::isfinite(scale2)) return false;
  for (int i = 0; i < 3; ++i)
    for (int j = i; j < 3; ++j)
      if (std::abs(column[i].dot(column[j]) - (i == j ? scale2 : 0)) > 1e-6 * scale2) return false;
  return true;
}

std::string level_set_problem(const openvdb::FloatGrid& phi) {
  if (phi.getGridClass() != openvdb::GRID_LEVEL_SET)
    return "grid 'phi' is not a level set (grid class " +
           openvdb::GridBase::gridClassToString(phi.getGridClass()) + ")";
  if (!cubic_voxels(phi.transform())) return "grid 'phi' needs a linear transform with cubic voxels";
  float background = phi.background();
  if (!std::isfinite(background) || background <= 0)
    return "grid 'phi' needs a positive finite background (outside), got " +
           std::to_string(background);
  if (phi.tree().activeVoxelCount() == 0) return "grid 'phi' has no active voxels";
  bool inside = false;
  for (auto it = phi.tree().cbeginValueAll(); it; ++it) {
    float v = *it;
    if (!std::isfinite(v))
      return "grid 'phi' has a non-finite value at " + it.getCoord().asVec3i().str();
    inside = inside || v < 0;
  }
  if (!inside) return "grid 'phi' has no negative (inside) values";
  return {};
}

openvdb::FloatGrid::Ptr read_level_set(const std::filesystem::path& file,
                                       const openvdb::GridPtrVec& grids, const std::string& kind) {
  auto base = find_grid(grids, "phi");
  if (!base) throw FileError(file, "no grid named 'phi'");
  auto phi = openvdb::gridPtrCast<openvdb::FloatGrid>(base);
  if (!phi) throw FileError(file, "grid 'phi' must hold float values, not " + base->valueType());
  std::string found = metadata<std::string>(file, *phi, "scree_format");
  if (found != kind) throw FileError(file, "is a scree '" + found + "' file, expected '" + kind + "'");
  int version = metadata<openvdb::Int32>(file, *phi, "scree_version");
  if (version != format_version)
    throw FileError(file, "format version " + std::to_string(version) +
                              " is not supported (this scree reads version " +
                              std::to_string(format_version) + ")");
  if (auto problem = level_set_problem(*phi); !problem.empty()) throw FileError(file, problem);
  return phi;
}

openvdb::FloatGrid::Ptr stamped_copy(const openvdb::FloatGrid& phi, const std::string& kind) {
  // A new grid object (own name and metadata) over the same, unmodified tree.
  auto out = std::const_pointer_cast<openvdb::FloatGrid>(phi.copy());
  out->setName("phi");
  out->insertMeta("scree_format", openvdb::StringMetadata(kind));
  out->insertMeta("scree_version", openvdb::Int32Metadata(format_version));
  return out;
}

std::string nodes_problem(const std::vector<std::array<float, 3>>& nodes) {
  for (size_t i = 0; i < nodes.size(); ++i)
    for (float c : nodes[i])
      if (!std::isfinite(c)) return "boundary node " + std::to_string(i) + " is not finite";
  return {};
}

openvdb::Vec3SGrid::Ptr nodes_grid(const std::vector<std::array<float, 3>>& nodes) {
  auto grid = openvdb::Vec3SGrid::create(openvdb::Vec3s(0, 0, 0));
  grid->setName("nodes");
  auto acc = grid->getAccessor();
  for (size_t i = 0; i < nodes.size(); ++i)
    acc.setValue(node_coord(i), openvdb::Vec3s(nodes[i][0], nodes[i][1], nodes[i][2]));
  return grid;
}

std::vector<std::array<float, 3>> read_nodes(const std::filesystem::path& file,
                                             const openvdb::GridPtrVec& grids,
                                             const openvdb::FloatGrid& phi) {
  openvdb::Int64 count = metadata<openvdb::Int64>(file, phi, "node_count");
  auto base = find_grid(grids, "nodes");
  if (!base) throw FileError(file, "lacks boundary nodes (no grid named 'nodes')");
  auto grid = openvdb::gridPtrCast<openvdb::Vec3SGrid>(base);
  if (!grid) throw FileError(file, "grid 'nodes' must hold vec3s values, not " + base->valueType());
  if (count < 0 || openvdb::Index64(count) != grid->activeVoxelCount())
    throw FileError(file, "node_count is " + std::to_string(count) + " but grid 'nodes' holds " +
                              std::to_string(grid->activeVoxelCount()) + " nodes");
  std::vector<std::array<float, 3>> nodes(static_cast<size_t>(count));
  auto acc = grid->getConstAccessor();
  for (size_t i = 0; i < nodes.size(); ++i) {
    openvdb::Vec3s v;
    if (!acc.probeValue(node_coord(i), v))
      throw FileError(file, "boundary node " + std::to_string(i) + " is missing from grid 'nodes'");
    nodes[i] = {v[0], v[1], v[2]};
  }
  if (auto problem = nodes_problem(nodes); !problem.empty()) throw FileError(file, problem);
  return nodes;
}

void write_grids(const std::filesystem::path& file, const openvdb::GridPtrVec& grids) {
  initialize();
  AtomicFile out(file);
  try {
    openvdb::io::File f(out.temp_path().string());
    f.write(grids);
    f.close();
  } catch (const std::exception& e) {
    throw FileError(file, std::string("cannot write: ") + e.what());
  }
  out.commit();
}

}  // namespace scree::formats::vdb
