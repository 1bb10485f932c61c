#pragma once
// A grain shape from an implicit surface, as the tools would build its avatar: level set by
// fast marching, boundary nodes by rays, mass properties, then the solver's template.
#include "geometry/template_from_avatar.h"
#include "levelset/avatar_builder.h"

namespace scree::testing {

inline geometry::GrainShape level_set_grain(const levelset::ImplicitShape& implicit, double voxel, std::size_t nodes) {
  levelset::Resolution resolution;
  resolution.voxel_size = voxel;
  formats::Shape shape = levelset::implicit_shape(implicit, resolution);
  levelset::add_nodes(shape, nodes, levelset::NodeMethod::rays);
  levelset::MassProperties mass;
  return geometry::grain_shape_from_avatar(levelset::make_avatar(shape, mass));
}

}  // namespace scree::testing
