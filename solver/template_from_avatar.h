#pragma once
// Builds the solver's flat template from an avatar. Includes OpenVDB (through the avatar
// format): include it where templates are loaded, not in the hot loop's headers.
#include "formats/avatar.h"
#include "formats/case.h"
#include "solver/shape_template.h"
#include "solver/world.h"

namespace scree::solver {

// The values over the avatar's active box grown by one voxel (inactive points hold the
// grid's background or, inside, −background), and its nodes.
ShapeTemplate template_from_avatar(const formats::Avatar& avatar);

// The grain shape of an avatar: its template, volume and principal inertia.
GrainShape grain_shape_from_avatar(const formats::Avatar& avatar);

// One shape per case template, in the case's order: analytic spheres, avatars read once.
std::vector<GrainShape> grain_shapes(const formats::Case& c);

}  // namespace scree::solver
