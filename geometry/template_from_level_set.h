#pragma once
// Builds the solver's flat templates and grain shapes from avatar files, read without
// OpenVDB (solver/template_from_avatar.h takes in-memory OpenVDB avatars). Include it where
// templates are loaded, not in the hot loop's headers.
#include <array>
#include <vector>

#include "formats/avatar_file.h"
#include "formats/case.h"
#include "geometry/grain_shape.h"
#include "geometry/shape_template.h"

namespace scree::geometry {

// The values over the level set's active box grown by one voxel (inactive points hold the
// grid's background or, inside, −background), and the nodes.
ShapeTemplate template_from_level_set(const formats::VdbGrid& phi, const std::vector<std::array<float, 3>>& nodes);

// The grain shape of a template with an avatar's volume and principal inertia.
GrainShape grain_shape(ShapeTemplate level_set, const formats::AvatarProperties& properties);

// One shape per case template, in the case's order: analytic spheres, avatars read once.
std::vector<GrainShape> grain_shapes(const formats::Case& c);

}  // namespace scree::geometry
