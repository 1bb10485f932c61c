#include "solver/template_from_avatar.h"

namespace scree::solver {

ShapeTemplate template_from_avatar(const formats::Avatar& avatar) {
  const openvdb::FloatGrid& phi = *avatar.phi;
  openvdb::CoordBBox box = phi.evalActiveVoxelBoundingBox();
  box.expand(1);
  const openvdb::Coord dim = box.dim();
  std::vector<float> values(std::size_t(dim[0]) * dim[1] * dim[2]);
  auto acc = phi.getConstAccessor();
  std::size_t n = 0;
  for (int i = box.min()[0]; i <= box.max()[0]; ++i)
    for (int j = box.min()[1]; j <= box.max()[1]; ++j)
      for (int k = box.min()[2]; k <= box.max()[2]; ++k) values[n++] = acc.getValue(openvdb::Coord(i, j, k));

  // The grid's map is affine: index = A · body + b. OpenVDB stores it on row vectors.
  const openvdb::Mat4d m = phi.transform().baseMap()->getAffineMap()->getMat4();  // body = index · m
  Eigen::Matrix3d index_to_body;
  Eigen::Vector3d translation;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) index_to_body(r, c) = m(c, r);
    translation[r] = m(3, r);
  }
  const Eigen::Matrix3d body_to_index = index_to_body.inverse();
  const Eigen::Vector3d corner(box.min()[0], box.min()[1], box.min()[2]);
  const Eigen::Vector3d offset = -body_to_index * translation - corner;

  std::vector<Eigen::Vector3f> nodes;
  nodes.reserve(avatar.nodes.size());
  for (const auto& p : avatar.nodes) nodes.emplace_back(p[0], p[1], p[2]);
  return ShapeTemplate({dim[0], dim[1], dim[2]}, std::move(values), phi.background(), body_to_index, offset,
                       std::move(nodes));
}

GrainShape grain_shape_from_avatar(const formats::Avatar& avatar) {
  const auto& p = avatar.properties;
  return GrainShape::from_level_set(template_from_avatar(avatar), p.volume,
                                    Vec3(p.inertia_per_density[0], p.inertia_per_density[1], p.inertia_per_density[2]));
}

std::vector<GrainShape> grain_shapes(const formats::Case& c) {
  std::vector<GrainShape> shapes;
  for (const formats::GrainTemplate& t : c.templates)
    shapes.push_back(t.sphere_radius ? GrainShape::sphere(*t.sphere_radius) : grain_shape_from_avatar(formats::read_avatar(t.file)));
  return shapes;
}

}  // namespace scree::solver
