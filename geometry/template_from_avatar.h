#pragma once
// Templates from in-memory OpenVDB avatars (tests, benchmarks, tools that build shapes);
// includes OpenVDB. The solver reads avatar files through solver/template_from_level_set.h.
#include "formats/avatar.h"
#include "geometry/template_from_level_set.h"

namespace scree::geometry {

ShapeTemplate template_from_avatar(const formats::Avatar& avatar);
GrainShape grain_shape_from_avatar(const formats::Avatar& avatar);

}  // namespace scree::geometry
