#include "geometry/template_from_level_set.h"

namespace scree::geometry {

ShapeTemplate template_from_level_set(const formats::VdbGrid& phi, const std::vector<std::array<float, 3>>& nodes) {
  auto [low, high] = phi.active_box();
  for (int a = 0; a < 3; ++a) --low[a], ++high[a];
  const std::array<int, 3> dim{high[0] - low[0] + 1, high[1] - low[1] + 1, high[2] - low[2] + 1};
  std::vector<float> values(std::size_t(dim[0]) * dim[1] * dim[2]);
  std::size_t n = 0;
  for (int i = low[0]; i <= high[0]; ++i)
    for (int j = low[1]; j <= high[1]; ++j)
      for (int k = low[2]; k <= high[2]; ++k) values[n++] = *phi.value({i, j, k});

  // body = A · index + t, so index − corner = A⁻¹ · body − A⁻¹ t − corner.
  const auto& m = phi.index_to_world;
  Eigen::Matrix3d index_to_body;
  Eigen::Vector3d translation;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) index_to_body(r, c) = m[4 * r + c];
    translation[r] = m[4 * r + 3];
  }
  const Eigen::Matrix3d body_to_index = index_to_body.inverse();
  const Eigen::Vector3d corner(low[0], low[1], low[2]);
  const Eigen::Vector3d offset = -body_to_index * translation - corner;

  std::vector<Eigen::Vector3f> body_nodes;
  body_nodes.reserve(nodes.size());
  for (const auto& p : nodes) body_nodes.emplace_back(p[0], p[1], p[2]);
  return ShapeTemplate(dim, std::move(values), phi.background[0], body_to_index, offset, std::move(body_nodes));
}

GrainShape grain_shape(ShapeTemplate level_set, const formats::AvatarProperties& p) {
  return GrainShape::from_level_set(std::move(level_set), p.volume,
                                    Eigen::Vector3d(p.inertia_per_density[0], p.inertia_per_density[1], p.inertia_per_density[2]));
}

std::vector<GrainShape> grain_shapes(const formats::Case& c) {
  std::vector<GrainShape> shapes;
  for (const formats::GrainTemplate& t : c.templates) {
    if (t.sphere_radius) {
      shapes.push_back(GrainShape::sphere(*t.sphere_radius));
      continue;
    }
    const formats::AvatarFile avatar = formats::read_avatar_file(t.file);
    shapes.push_back(grain_shape(template_from_level_set(avatar.phi, avatar.nodes), avatar.properties));
  }
  return shapes;
}

}  // namespace scree::geometry
