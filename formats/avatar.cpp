#include "formats/avatar.h"

#include <cmath>

#include "formats/error.h"
#include "formats/level_set_file.h"

namespace scree::formats {

namespace {

constexpr const char* kind = "avatar";

std::string properties_problem(const AvatarProperties& p) {
  if (!(std::isfinite(p.volume) && p.volume > 0)) return "volume must be > 0";
  const auto& I = p.inertia_per_density;
  for (double v : I)
    if (!(std::isfinite(v) && v > 0)) return "principal inertia / density must be > 0";
  // Any rigid body's principal moments satisfy the triangle inequality.
  const double slack = 1e-9 * (I[0] + I[1] + I[2]);
  if (I[0] + I[1] < I[2] - slack || I[1] + I[2] < I[0] - slack || I[2] + I[0] < I[1] - slack)
    return "principal inertia / density violates the triangle inequality (not a rigid body)";
  for (double v : p.source_to_body)
    if (!std::isfinite(v)) return "source-to-body transform is not finite";
  const auto& M = p.source_to_body;
  if (M[12] != 0 || M[13] != 0 || M[14] != 0 || M[15] != 1)
    return "source-to-body transform must end in the row (0, 0, 0, 1)";
  return {};
}

openvdb::Mat4d to_mat(const std::array<double, 16>& m) {
  openvdb::Mat4d out;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) out[i][j] = m[4 * i + j];
  return out;
}

std::array<double, 16> from_mat(const openvdb::Mat4d& m) {
  std::array<double, 16> out{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) out[4 * i + j] = m[i][j];
  return out;
}

}  // namespace

void write_avatar(const std::filesystem::path& file, const Avatar& a) {
  vdb::initialize();
  if (!a.phi) throw FileError(file, "cannot write: avatar has no level set");
  for (const std::string& problem :
       {vdb::level_set_problem(*a.phi), properties_problem(a.properties),
        a.nodes.empty() ? std::string("has no boundary nodes") : vdb::nodes_problem(a.nodes)})
    if (!problem.empty()) throw FileError(file, "cannot write: " + problem);

  auto phi = vdb::stamped_copy(*a.phi, kind);
  const AvatarProperties& p = a.properties;
  phi->insertMeta("volume", openvdb::DoubleMetadata(p.volume));
  phi->insertMeta("inertia_per_density", openvdb::Vec3DMetadata(openvdb::Vec3d(
                                             p.inertia_per_density.data())));
  phi->insertMeta("source_to_body", openvdb::Mat4DMetadata(to_mat(p.source_to_body)));
  phi->insertMeta("voxel_size", openvdb::DoubleMetadata(a.voxel_size()));
  phi->insertMeta("node_count", openvdb::Int64Metadata(openvdb::Int64(a.nodes.size())));
  phi->insertMeta("provenance", openvdb::StringMetadata(p.provenance));

  vdb::write_grids(file, {phi, vdb::nodes_grid(a.nodes)});
}

Avatar read_avatar(const std::filesystem::path& file) {
  auto grids = vdb::read_grids(file);
  Avatar a;
  a.phi = vdb::read_level_set(file, *grids, kind);
  const auto& phi = *a.phi;
  AvatarProperties& p = a.properties;
  p.volume = vdb::metadata<double>(file, phi, "volume");
  openvdb::Vec3d inertia = vdb::metadata<openvdb::Vec3d>(file, phi, "inertia_per_density");
  p.inertia_per_density = {inertia[0], inertia[1], inertia[2]};
  p.source_to_body = from_mat(vdb::metadata<openvdb::Mat4d>(file, phi, "source_to_body"));
  p.provenance = vdb::metadata<std::string>(file, phi, "provenance");
  double voxel_size = vdb::metadata<double>(file, phi, "voxel_size");
  if (std::abs(voxel_size - a.voxel_size()) > 1e-12 * a.voxel_size())
    throw FileError(file, "metadata voxel_size " + std::to_string(voxel_size) +
                              " disagrees with the grid's voxel size " +
                              std::to_string(a.voxel_size()));
  if (auto problem = properties_problem(p); !problem.empty()) throw FileError(file, problem);

  a.nodes = vdb::read_nodes(file, *grids, phi);
  if (a.nodes.empty()) throw FileError(file, "has no boundary nodes");
  return a;
}

}  // namespace scree::formats
