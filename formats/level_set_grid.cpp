#include "formats/level_set_grid.h"

#include <cmath>
#include <cstring>

#include "formats/error.h"

namespace scree::formats {

VoxelCoord node_coord(std::size_t i) { return {int(i / 64), int((i / 8) % 8), int(i % 8)}; }

}  // namespace scree::formats

namespace scree::formats::vdb {

namespace {

constexpr int format_version = 1;

std::string coord_text(const VoxelCoord& c) {
  return "[" + std::to_string(c[0]) + ", " + std::to_string(c[1]) + ", " + std::to_string(c[2]) + "]";
}

template <class T>
constexpr const char* type_name() {
  if constexpr (std::is_same_v<T, double>) return "double";
  if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
  if constexpr (std::is_same_v<T, std::string>) return "string";
  if constexpr (std::is_same_v<T, std::array<double, 3>>) return "vec3d";
  if constexpr (std::is_same_v<T, std::array<double, 16>>) return "mat4d";
}

}  // namespace

const VdbGrid* find_grid(const std::vector<VdbGrid>& grids, const std::string& name) {
  for (const VdbGrid& g : grids)
    if (g.name == name) return &g;
  return nullptr;
}

bool cubic_voxels(const std::array<double, 16>& m) {
  // The columns of the linear part are orthogonal and of one length, relative to that length
  // (an absolute test would take sand grains' sub-millimetre voxels for singular).
  for (double v : m)
    if (!std::isfinite(v)) return false;
  if (m[12] != 0 || m[13] != 0 || m[14] != 0 || m[15] != 1) return false;
  auto dot = [&](int i, int j) { return m[i] * m[j] + m[4 + i] * m[4 + j] + m[8 + i] * m[8 + j]; };
  const double scale2 = dot(0, 0);
  if (!(scale2 > 0)) return false;
  for (int i = 0; i < 3; ++i)
    for (int j = i; j < 3; ++j)
      if (std::abs(dot(i, j) - (i == j ? scale2 : 0)) > 1e-6 * scale2) return false;
  return true;
}

double voxel_size(const VdbGrid& g) {
  const auto& m = g.index_to_world;
  return std::sqrt(m[0] * m[0] + m[4] * m[4] + m[8] * m[8]);
}

std::string level_set_problem(const VdbGrid& phi) {
  if (phi.components != 1) return "grid 'phi' must hold float values, not vec3s";
  if (phi.grid_class != "level set") return "grid 'phi' is not a level set (grid class " + phi.grid_class + ")";
  if (!cubic_voxels(phi.index_to_world)) return "grid 'phi' needs a linear transform with cubic voxels";
  const float background = phi.background[0];
  if (!std::isfinite(background) || background <= 0)
    return "grid 'phi' needs a positive finite background (outside), got " + std::to_string(background);
  if (phi.active_voxel_count() == 0) return "grid 'phi' has no active voxels";
  std::string problem;
  bool inside = false;
  phi.for_each_value([&](const VoxelCoord& ijk, const float* v) {
    if (!std::isfinite(*v) && problem.empty()) problem = "grid 'phi' has a non-finite value at " + coord_text(ijk);
    inside = inside || *v < 0;
  });
  if (!problem.empty()) return problem;
  if (!inside) return "grid 'phi' has no negative (inside) values";
  return {};
}

VdbGrid read_level_set(const std::filesystem::path& file, std::vector<VdbGrid>& grids, const std::string& kind) {
  const VdbGrid* found = find_grid(grids, "phi");
  if (!found) throw FileError(file, "no grid named 'phi'");
  if (found->components != 1) throw FileError(file, "grid 'phi' must hold float values, not vec3s");
  VdbGrid phi = std::move(grids[std::size_t(found - grids.data())]);
  const std::string format = metadata<std::string>(file, phi, "scree_format");
  if (format != kind) throw FileError(file, "is a scree '" + format + "' file, expected '" + kind + "'");
  const int version = metadata<std::int32_t>(file, phi, "scree_version");
  if (version != format_version)
    throw FileError(file, "format version " + std::to_string(version) +
                              " is not supported (this scree reads version " + std::to_string(format_version) + ")");
  if (auto problem = level_set_problem(phi); !problem.empty()) throw FileError(file, problem);
  return phi;
}

template <class T>
T metadata(const std::filesystem::path& file, const VdbGrid& grid, const std::string& name) {
  const auto it = grid.metadata.find(name);
  if (it == grid.metadata.end()) throw FileError(file, "grid '" + grid.name + "' lacks metadata '" + name + "'");
  const VdbMetadata& m = it->second;
  if (m.type != type_name<T>())
    throw FileError(file, "metadata '" + name + "' must be of type " + type_name<T>() + ", not " + m.type);
  if constexpr (std::is_same_v<T, std::string>) {
    return m.bytes;
  } else {
    if (m.bytes.size() != sizeof(T))
      throw FileError(file, "metadata '" + name + "' holds " + std::to_string(m.bytes.size()) + " bytes, not " +
                                std::to_string(sizeof(T)));
    T value;
    std::memcpy(&value, m.bytes.data(), sizeof(T));
    return value;
  }
}

template double metadata(const std::filesystem::path&, const VdbGrid&, const std::string&);
template std::int32_t metadata(const std::filesystem::path&, const VdbGrid&, const std::string&);
template std::int64_t metadata(const std::filesystem::path&, const VdbGrid&, const std::string&);
template std::string metadata(const std::filesystem::path&, const VdbGrid&, const std::string&);
template std::array<double, 3> metadata(const std::filesystem::path&, const VdbGrid&, const std::string&);
template std::array<double, 16> metadata(const std::filesystem::path&, const VdbGrid&, const std::string&);

std::string nodes_problem(const std::vector<std::array<float, 3>>& nodes) {
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (float c : nodes[i])
      if (!std::isfinite(c)) return "boundary node " + std::to_string(i) + " is not finite";
  return {};
}

std::vector<std::array<float, 3>> read_nodes(const std::filesystem::path& file, const std::vector<VdbGrid>& grids,
                                             const VdbGrid& phi) {
  const std::int64_t count = metadata<std::int64_t>(file, phi, "node_count");
  const VdbGrid* grid = find_grid(grids, "nodes");
  if (!grid) throw FileError(file, "lacks boundary nodes (no grid named 'nodes')");
  if (grid->components != 3) throw FileError(file, "grid 'nodes' must hold vec3s values, not float");
  const std::uint64_t held = grid->active_voxel_count();
  if (count < 0 || std::uint64_t(count) != held)
    throw FileError(file, "node_count is " + std::to_string(count) + " but grid 'nodes' holds " +
                              std::to_string(held) + " nodes");
  std::vector<std::array<float, 3>> nodes(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const VoxelCoord at = node_coord(i);
    if (!grid->is_active(at)) throw FileError(file, "boundary node " + std::to_string(i) + " is missing from grid 'nodes'");
    const float* v = grid->value(at);
    nodes[i] = {v[0], v[1], v[2]};
  }
  if (auto problem = nodes_problem(nodes); !problem.empty()) throw FileError(file, problem);
  return nodes;
}

}  // namespace scree::formats::vdb
