#include "formats/avatar.h"

#include "formats/error.h"
#include "formats/level_set_file.h"

namespace scree::formats {

namespace {

constexpr const char* kind = "avatar";

openvdb::Mat4d to_mat(const std::array<double, 16>& m) {
  openvdb::Mat4d out;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) out[i][j] = m[4 * i + j];
  return out;
}

}  // namespace

void write_avatar(const std::filesystem::path& file, const Avatar& a) {
  vdb::initialize();
  if (!a.phi) throw FileError(file, "cannot write: avatar has no level set");
  for (const std::string& problem :
       {vdb::level_set_problem(vdb::sparse_copy(*a.phi)), properties_problem(a.properties),
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
  AvatarFile checked = read_avatar_file(file);
  return {vdb::read_phi(file), std::move(checked.nodes), std::move(checked.properties)};
}

}  // namespace scree::formats
