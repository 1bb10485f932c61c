#pragma once
// Grains as ParaView draws them: each grain its template's real surface, scaled, rotated and
// moved to where the frame has it, with its motion as data.
#include <vector>

#include "formats/case.h"
#include "formats/state.h"
#include "formats/vtk_file.h"

namespace scree::post {

// An analytic sphere: an icosahedron with each edge cut `levels` times in two, on the sphere
// (20 · 4^levels triangles), facing out.
formats::TriangleSurface sphere_surface(double radius, int levels);
// The most levels whose 20 · 4^levels triangles stay within `triangles` (0 below 80).
int sphere_levels(std::size_t triangles);

// Each case template's surface in its body frame: an analytic sphere's icosphere, an
// avatar's level-set zero decimated (volume kept), at most `triangles` triangles each.
std::vector<formats::TriangleSurface> template_surfaces(const formats::Case& c, std::size_t triangles);

// Every grain of `bodies` as its template's surface (body frame) times its scale, rotated by
// its orientation and moved to its position. Point data `velocity` (of the material point,
// v + ω × r, m/s), `speed` (its norm) and `angular_velocity` (rad/s), Float32; cell data `id`
// and `template` (index into the frame's templates), Int64.
formats::TriangleSurface grain_surfaces(const formats::Bodies& bodies,
                                        const std::vector<formats::TriangleSurface>& templates);

}  // namespace scree::post
